"""Long-run fuzzing (issue 9): many random games over every configuration, invariants after every decision.

::

    python -m aoi_env.fuzz --games 100000 --workers 2      # or: aoi fuzz --games 100000 --workers 2

Game ``i`` of a run draws its configuration from ``sample_config`` (player counts 2-5, both board
sides where allowed, both rulesets, standard or draft distribution, fixed factions x boards,
setup choices by the players or at random, ``skip_forced`` on or off, and Automa games: 1 player
+ 1 Automa, 2 players + 1 Automa, 1 player + 2 Automas, every supported Automa faction and level,
with or without a fixed terrain).  It is played by ``play_checked``: ``aoi_env.core.invariants``
after every decision (``violations(g, strict=True)``), random legal moves that are "biased" (prefer real actions to
conversions and passing, ``testing.biased_random_action``) or uniform (``--policy heuristic``: the
heuristic player with 15% random moves, ``testing.fuzz_mover``, for the deep positions of strong
play), and every
``--oracle-every``-th game with the full oracle of ``testing.check_random_game`` (every offered id
applied on a clone, notation round trips, a rejected id leaves the state byte-equal, clone and
bytes round trips).  A game that raises, breaks an invariant or does not end within
``--max-decisions`` is a failure.

The summary groups failures by message and prints, for each, the configuration and seed; every
failure is reproduced by one call (printed with it; with ``--oracle`` for an oracle game)::

    python -m aoi_env.fuzz --repro 'aoi(players=3,ruleset=v1.0)' --seed 1234 --policy biased

which is ``testing.check_random_game(config, seed, oracle=..., policy=...)``: the same game, move
for move.  Decisions are counted as the engine counts them (``G_DECISIONS``, forced ones included)
in the cap, the messages and the summary; a failed oracle game counts none.
Configurations and seeds depend only on ``--seed`` and the game index, so a run is reproducible
whatever the number of workers.  ``--json FILE`` writes the summary (games, decisions, wall time,
games/s, per-family and per-policy counts, what the player seats reached per finished game
(``reached``), the failure groups with up to five examples each).  The exit status
is 1 when anything failed.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
import traceback
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from aoi_env.core.config import FACTION_NAMES, TERRAIN_NAMES, GameConfig

if TYPE_CHECKING:
    from aoi_env.core.engine import Game

PLAYER_COUNTS = (2, 3, 4, 5)
RULESETS = ("v1.2", "v1.0")
FAMILIES = ("standard", "draft", "fixed", "automa")
FAMILY_WEIGHTS = (0.35, 0.2, 0.2, 0.25)
MAX_DECISIONS = 20_000  # 30x the longest of 100,000 random games (697 decisions)
POLICIES = ("biased", "uniform")
"""The policies a run draws from, one per game, when ``--policy`` does not name one."""


def automa_factions() -> tuple[str, ...]:
    """The Automa factions the engine supports (docs/automa.md)."""
    from aoi_env.core.automa import automa_data

    return automa_data().faction_names


def board_sides(seats: int) -> tuple[str, ...]:
    """Board sides allowed for ``seats`` factions at the table (R5): 2 -> 1-3, 3 -> both, 4-5 -> 3-5."""
    return ("1-3",) if seats <= 2 else ("1-3", "3-5") if seats == 3 else ("3-5",)


def sample_config(rng: np.random.Generator, family: str | None = None) -> GameConfig:
    """One random valid configuration of ``family`` (a random family when None)."""
    if family is None:
        family = FAMILIES[int(rng.choice(len(FAMILIES), p=FAMILY_WEIGHTS))]
    params: dict[str, Any] = {
        "ruleset": RULESETS[int(rng.integers(2))],
        "setup_choices": ("players", "random")[int(rng.integers(2))],
        "skip_forced": bool(rng.random() < 0.8),
    }
    if family == "automa":
        factions = automa_factions()
        humans, automas = ((1, 1), (2, 1), (1, 2))[int(rng.integers(3))]
        specs, terrains = [], set()
        for name in rng.choice(len(factions), size=automas, replace=False):
            spec = f"{factions[int(name)]}:{int(rng.integers(1, 6))}"
            if rng.random() < 0.3:
                terrain = TERRAIN_NAMES[int(rng.integers(7))]
                if terrain not in terrains:  # distinct terrains (AUTOMA.md §3.3)
                    spec += f":{terrain}"
                    terrains.add(terrain)
            specs.append(spec)
        params.update(players=humans, automa=tuple(specs))
    else:
        players = PLAYER_COUNTS[int(rng.integers(len(PLAYER_COUNTS)))]
        params["players"] = players
        if family == "draft":
            params["distribution"] = "draft"
        elif family == "fixed":
            if rng.random() < 0.8:
                params["factions"] = tuple(FACTION_NAMES[int(f)] for f in rng.choice(12, players, replace=False))
            if rng.random() < 0.8 or "factions" not in params:
                params["boards"] = tuple(TERRAIN_NAMES[int(t)] for t in rng.choice(7, players, replace=False))
    sides = board_sides(params["players"] + len(params.get("automa", ())))
    params["map"] = sides[int(rng.integers(len(sides)))] if rng.random() < 0.5 else "auto"
    return GameConfig.from_params(params)


@dataclass(frozen=True)
class Task:
    index: int
    config: str
    seed: int
    policy: str
    oracle: bool
    max_decisions: int = MAX_DECISIONS


@dataclass
class Result:
    index: int
    config: str
    seed: int
    policy: str
    oracle: bool
    max_decisions: int = MAX_DECISIONS
    decisions: int = 0
    error: str | None = None
    detail: str | None = None
    scores: list[int] = field(default_factory=list)
    reached: dict[str, int] = field(default_factory=dict)  # see ``reached``

    def repro(self) -> str:
        cap = f" --max-decisions {self.max_decisions}" if self.max_decisions != MAX_DECISIONS else ""
        oracle = " --oracle" if self.oracle else ""
        return f"python -m aoi_env.fuzz --repro '{self.config}' --seed {self.seed} --policy {self.policy}{cap}{oracle}"


def make_tasks(
    games: int, seed: int = 0, oracle_every: int = 0, start: int = 0, policy: str | None = None
) -> Iterator[Task]:
    """Game ``i``'s configuration, game seed and policy depend on ``seed`` and ``i`` only; ``policy``
    plays every game with that policy (``testing.FUZZ_POLICIES``) instead of drawing one of
    ``POLICIES`` (the draw is made either way, so the configurations do not change)."""
    from aoi_env.testing import check_fuzz_policy

    if policy is not None:
        check_fuzz_policy(policy)
    for i in range(start, start + games):
        rng = np.random.default_rng([seed, i])
        config = sample_config(rng)
        drawn = POLICIES[int(rng.integers(2))]
        policy_i = policy or drawn
        oracle = bool(oracle_every) and i % oracle_every == 0
        yield Task(i, str(config), int(seed) * 1_000_003 + i, policy_i, oracle)


class GameFailure(Exception):
    """A fuzz game went wrong: the message names the decision, the move and the original error;
    ``decisions``: the engine decisions made before it."""

    def __init__(self, message: str, decisions: int) -> None:
        super().__init__(message)
        self.decisions = decisions


def play_checked(
    config: str | GameConfig, seed: int, policy: str = "biased", max_decisions: int = MAX_DECISIONS
) -> Game:
    """Play the game of ``testing.check_random_game(config, seed, policy=...)`` with the invariants
    checked after every decision and return the finished ``Game``.  Raises ``GameFailure`` naming the
    decision (its number and notation) at the first problem.  Decisions are the engine's
    (``G_DECISIONS``: forced ones applied by ``skip_forced`` included), as in the summary."""
    from aoi_env.core.engine import Game
    from aoi_env.core.invariants import violations
    from aoi_env.core.state import G_DECISIONS
    from aoi_env.testing import fuzz_mover

    g = Game(config, seed=seed)
    choose = fuzz_mover(policy, seed)  # the move stream of check_random_game
    last = "setup"
    while True:
        decisions = int(g.state.glob[G_DECISIONS])
        problems = violations(g, strict=True)
        if problems:
            broken = "; ".join(problems)
            raise GameFailure(f"invariant broken after decision {decisions} ({last}): {broken}", decisions)
        if g.is_over():
            return g
        if decisions >= max_decisions:
            raise GameFailure(f"no end after {decisions} decisions", decisions)
        a = choose(g)
        last = f"seat {g.current_seat()}: {g.move_str(a)}"
        try:
            g.apply_action(a)
        except Exception as err:
            raise GameFailure(f"decision {decisions} ({last}) raised {type(err).__name__}: {err}", decisions) from err


def run_task(task: Task) -> Result:
    """One fuzz game; never raises (the error is in the result)."""
    from aoi_env.core.state import G_DECISIONS
    from aoi_env.testing import check_random_game

    out = Result(task.index, task.config, task.seed, task.policy, task.oracle, task.max_decisions)
    try:
        if task.oracle:
            g = check_random_game(task.config, task.seed, oracle=True, policy=task.policy,
                                  max_decisions=task.max_decisions)  # fmt: skip
        else:
            g = play_checked(task.config, task.seed, task.policy, task.max_decisions)
        out.decisions = int(g.state.glob[G_DECISIONS])
        out.scores = [int(v) for v in g.scores()]
        out.reached = reached(g)
    except Exception as err:  # noqa: BLE001 - every failure is a finding
        out.decisions = getattr(err, "decisions", 0)  # an oracle game's failure does not say
        out.error = f"{type(err).__name__}: {err}"
        out.detail = traceback.format_exc(limit=8)
    return out


REACHED = ("palaces", "cities", "innovations", "bridges", "competencies", "science tops")
"""What a finished game's player seats hold at the end (``reached``): how deep the fuzz went."""


def reached(g: Game) -> dict[str, int]:
    """The palaces, city tiles, innovations, bridges, competencies and science tracks at the top
    (level 12, R47, R52) of a finished game's player seats: the summary's measure of how far the
    games got into the rules that only a long game reaches."""
    from aoi_env.core.rules.science import MAX_LEVEL
    from aoi_env.core.state import (
        P_BRIDGES,
        P_CITIES,
        P_COMPETENCIES,
        P_INNOVATIONS,
        P_PALACE_TILE,
        P_SCIENCE,
    )

    rows = g.state.players[: g.config.players]
    counts = (
        int((rows[:, P_PALACE_TILE] >= 0).sum()),
        int(rows[:, P_CITIES].sum()),
        int((rows[:, P_INNOVATIONS] >= 0).sum()),
        int(rows[:, P_BRIDGES].sum()),
        sum(int(c).bit_count() for c in rows[:, P_COMPETENCIES]),
        int((rows[:, P_SCIENCE] >= MAX_LEVEL).sum()),
    )
    return dict(zip(REACHED, counts, strict=True))


def family_of(config: str) -> str:
    """A short label for the summary: "automa 1+2", "draft 4p", "fixed 3p", "standard 5p"."""
    cfg = GameConfig.parse(config)
    if cfg.automa:
        return f"automa {cfg.players}+{len(cfg.automa)}"
    kind = "fixed" if cfg.fixed_setup else cfg.distribution
    return f"{kind} {cfg.players}p"


def signature(error: str) -> str:
    """A failure's message with numbers and hexes blanked, to group repeats of one bug."""
    head = error.splitlines()[0]
    head = re.sub(r"decision \d+ \(.*?\)(:| raised)", r"decision N\1", head)
    return re.sub(r"\d+", "#", head)[:200]


# ------------------------------------------------------------------------------------------------
# running


def _progress(results: Iterable[Result], total: int, enabled: bool) -> Iterator[Result]:
    """A tqdm bar when tqdm is installed (the ``train`` extra); else a line every 10 s on stderr."""
    if enabled:
        try:
            from tqdm import tqdm
        except ImportError:
            pass
        else:
            failed = 0
            interval = 0.1 if sys.stderr.isatty() else 30.0  # a redirected bar: a line every 30 s, not 10 a second
            with tqdm(total=total, desc="fuzz", unit="game", file=sys.stderr, dynamic_ncols=True,
                      mininterval=interval) as bar:  # fmt: skip
                for r in results:
                    failed += r.error is not None
                    bar.update(1)
                    bar.set_postfix(failed=failed, refresh=False)
                    yield r
            return
    t0 = last = time.perf_counter()
    for done, r in enumerate(results, 1):
        now = time.perf_counter()
        if enabled and (now - last >= 10 or done == total):
            print(f"fuzz: {done}/{total} games, {done / (now - t0):.1f} games/s", file=sys.stderr, flush=True)
            last = now
        yield r


def run_fuzz(
    games: int,
    workers: int = 2,
    seed: int = 0,
    oracle_every: int = 500,
    progress: bool = True,
    max_decisions: int = MAX_DECISIONS,
    start: int = 0,
    policy: str | None = None,
) -> dict[str, Any]:
    """Play ``games`` fuzz games on ``workers`` processes; returns the summary (see ``format_summary``).
    ``policy``: every game's (see ``make_tasks``); None draws biased or uniform per game."""
    import multiprocessing as mp

    tasks = [
        Task(t.index, t.config, t.seed, t.policy, t.oracle, max_decisions)
        for t in make_tasks(games, seed, oracle_every, start, policy)
    ]
    t0 = time.perf_counter()
    results: list[Result] = []
    if workers <= 1:
        results = list(_progress(map(run_task, tasks), len(tasks), progress))
    else:
        with mp.get_context("spawn").Pool(workers) as pool:
            stream = pool.imap_unordered(run_task, tasks, chunksize=8)
            results = list(_progress(stream, len(tasks), progress))
    wall = time.perf_counter() - t0
    results.sort(key=lambda r: r.index)
    families = Counter(family_of(r.config) for r in results)
    failures = [r for r in results if r.error is not None]
    finished = [r for r in results if r.reached]
    groups: dict[str, list[Result]] = defaultdict(list)
    for r in failures:
        groups[signature(r.error or "")].append(r)
    return {
        "games": len(results),
        "decisions": int(sum(r.decisions for r in results)),
        "max_decisions_in_a_game": max((r.decisions for r in results), default=0),
        "oracle_games": sum(r.oracle for r in results),
        "failures": len(failures),
        "wall_s": round(wall, 1),
        "games_per_s": round(len(results) / wall, 2) if wall else 0.0,
        "workers": workers,
        "seed": seed,
        "families": dict(sorted(families.items())),
        "policies": dict(Counter(r.policy for r in results)),
        "reached_per_game": {
            k: round(sum(r.reached[k] for r in finished) / len(finished), 2) if finished else 0.0 for k in REACHED
        },
        "failure_groups": [
            {"signature": sig, "count": len(rs), "examples": [asdict(r) | {"repro": r.repro()} for r in rs[:5]]}
            for sig, rs in sorted(groups.items(), key=lambda kv: -len(kv[1]))
        ],
    }


def format_summary(summary: dict[str, Any]) -> str:
    lines = [
        f"{summary['games']} games ({summary['oracle_games']} with the oracle), {summary['decisions']} decisions "
        f"(at most {summary['max_decisions_in_a_game']} in a game), "
        f"{summary['failures']} failed; {summary['wall_s']} s wall on {summary['workers']} workers = "
        f"{summary['games_per_s']} games/s (seed {summary['seed']})",
        "configurations: " + ", ".join(f"{k} {v}" for k, v in summary["families"].items()),
        "policies: " + ", ".join(f"{k} {v}" for k, v in sorted(summary["policies"].items())),
        "reached per finished game (player seats): "
        + ", ".join(f"{v:g} {k}" for k, v in summary["reached_per_game"].items()),
    ]
    for group in summary["failure_groups"]:
        lines.append(f"\nFAILED x{group['count']}: {group['signature']}")
        for ex in group["examples"]:
            lines.append(f"  {ex['config']} seed {ex['seed']} {ex['policy']}: {ex['error'].splitlines()[0][:300]}")
            lines.append(f"    reproduce: {ex['repro']}")
    if not summary["failure_groups"]:
        lines.append("no failures")
    return "\n".join(lines)


def repro(config: str, seed: int, policy: str | None, max_decisions: int = MAX_DECISIONS, oracle: bool = False) -> int:
    """Replay one fuzz game in this process (with the full oracle for an oracle game) and show the
    full traceback of its failure."""
    from aoi_env.testing import check_random_game

    GameConfig.parse(config)  # a bad game string is a usage error (ValueError), not a game failure
    policy = policy or "biased"
    if max_decisions < 1:
        raise ValueError(f"--max-decisions must be >= 1, got {max_decisions}")
    try:
        g = check_random_game(config, seed, oracle=oracle, policy=policy, max_decisions=max_decisions)
    except Exception:  # noqa: BLE001
        traceback.print_exc()
        return 1
    print(f"{config} seed {seed} {policy}: no failure; final VP {g.scores().tolist()}")
    return 0


def run_args(args: argparse.Namespace) -> int:
    if args.repro is not None:
        return repro(args.repro, args.seed, args.policy, args.max_decisions, args.oracle)
    if args.games < 1 or args.workers < 1:
        raise ValueError(f"--games and --workers must be at least 1, got {args.games} and {args.workers}")
    if args.oracle_every < 0 or args.seed < 0 or args.start < 0 or args.max_decisions < 1:
        raise ValueError(f"--oracle-every, --seed and --start must be >= 0 and --max-decisions >= 1, got "
                         f"{args.oracle_every}, {args.seed}, {args.start} and {args.max_decisions}")  # fmt: skip
    from aoi_env.cli import check_output_file

    check_output_file(args.json, "--json")
    summary = run_fuzz(args.games, args.workers, args.seed, args.oracle_every, args.progress, args.max_decisions,
                       args.start, args.policy)  # fmt: skip
    print(format_summary(summary))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(summary, fh, indent=2)
    return 1 if summary["failures"] else 0


def main(argv: Sequence[str] | None = None) -> int:
    from aoi_env.cli import _fuzz_args  # one argument list for both entry points

    parser = argparse.ArgumentParser(prog="python -m aoi_env.fuzz", description=(__doc__ or "").split("\n\n")[0])
    _fuzz_args(parser)
    args = parser.parse_args(argv)
    try:
        return run_args(args)
    except ValueError as err:
        print(f"fuzz: error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
