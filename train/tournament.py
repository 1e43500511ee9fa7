"""``aoi tournament``: many games between named agents, with ratings and confidence intervals.

Participants are agent specs (``agents.make_agent``: ``random``, ``heuristic``,
``model:PATH``), optionally labelled ``label=spec`` (``h2=heuristic``); a repeated spec gets a
``#2`` suffix.  ``automa:L[:faction[:terrain]]`` (or ``automa:faction:L[:terrain]``) is an
engine-level Automa seat: it is not an agent at a seat but part of the game config
(``GameConfig(automa=...)``, seats after the player seats; default faction: the first Automa
faction).

Schedule: with more participants than seats, deals cycle through all subsets of ``players``
participants (subsets of Automas only are skipped: a game needs a player).  A *deal* is one game
per player seat of its subset, sharing one game seed; within a deal the player seating rotates
one place per game, so every agent of the deal plays every player seat of the same setup once
(Automa seats always come after the player seats and do not rotate).  Deal seeds are drawn from
``seed`` (``deal_seed``), so two tournament seeds share no setups.  A ``games`` count that is not
a multiple of a whole cycle (``cycle_length``) leaves participation and seats uneven; ``aoi
tournament`` says so.  Games run in ``workers`` processes (one game per task).

Statistics (``summarise``): OpenSkill Plackett-Luce ratings over the games in schedule order
(multiplayer free-for-all, ranks from final VP, equal VP = equal rank); per participant the win
rate (a shared first place counts 1/k) with a Wilson 95% interval, the mean VP and the mean margin
over the best opponent with Student-t and bootstrap 95% intervals, and the pairwise head-to-head
rate (A above B when both played; ties count 1/2).
"""

from __future__ import annotations

import csv
import itertools
import json
import math
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from aoi_env.core.config import GameConfig
from train.records import play_record, ranks_from_scores, save
from train.stats import bootstrap_ci, margins, mean_ci, wilson, win_shares


def bar_interval() -> float:
    """Seconds between progress-bar updates: live on a terminal, every 30 s into a log file (each
    update of a redirected bar is one more line of the log)."""
    return 0.1 if sys.stderr.isatty() else 30.0


def progress(iterable: Iterable[Any], total: int, desc: str, enabled: bool = True) -> Iterator[Any]:
    """A tqdm bar if tqdm is installed (the ``train`` extra) and ``enabled``, else no bar."""
    if enabled:
        try:
            from tqdm import tqdm
        except ImportError:
            pass
        else:
            bar = tqdm(iterable, total=total, desc=desc, unit="game", file=sys.stderr, dynamic_ncols=True,
                       mininterval=bar_interval())  # fmt: skip
            yield from bar
            return
    yield from iterable


def run_parallel(
    fn: Callable[[Any], Any], tasks: Sequence[Any], workers: int, desc: str, show_progress: bool = True
) -> list[Any]:
    """``[fn(t) for t in tasks]`` in ``workers`` processes (in this process for workers <= 1)."""
    if workers <= 1 or len(tasks) <= 1:
        return list(progress(map(fn, tasks), len(tasks), desc, show_progress))
    import multiprocessing

    # forkserver: workers start from a clean server process, not from this one (which may have
    # loaded torch or threads, e.g. for model:PATH agents); spawn where forkserver does not exist
    method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    ctx = multiprocessing.get_context(method)
    if method == "forkserver":
        ctx.set_forkserver_preload(["aoi_env", "agents", "train.records"])  # imported once, in the server
    with ctx.Pool(min(workers, len(tasks))) as pool:
        return list(progress(pool.imap(fn, tasks), len(tasks), desc, show_progress))


# ------------------------------------------------------------------------------------------------
# participants and schedule

AUTOMA = "automa"


@dataclass(frozen=True)
class Participant:
    """A named entrant: an agent spec, or an engine-level Automa (``automa:L[:faction[:terrain]]``)."""

    name: str
    spec: str

    @property
    def is_automa(self) -> bool:
        return self.spec.split(":", 1)[0].strip().lower() == AUTOMA


def parse_participants(items: Sequence[str]) -> list[Participant]:
    """``["heuristic", "random", "r2=random", "random"]`` -> names heuristic, random, r2, random#2.

    A label has no ``:`` or ``/``, so ``model:runs/x-aoi_players=2-seed0.zip`` (the name ``aoi
    train`` gives a model) is a spec, not ``label=spec``.
    """
    out: list[Participant] = []
    seen: dict[str, int] = {}
    for item in items:
        label, eq, spec = str(item).partition("=")
        if not eq or ":" in label or "/" in label:
            label, spec = "", str(item)
        spec, label = spec.strip(), label.strip()
        if not spec:
            raise ValueError(f"empty agent spec in {item!r}")
        name = label or spec
        seen[name] = seen.get(name, 0) + 1
        if seen[name] > 1:
            if label:
                raise ValueError(f"participant label {label!r} is used twice")
            name = f"{name}#{seen[name]}"
        out.append(Participant(name, spec))
    if len(out) < 2:
        raise ValueError(f"a tournament needs at least 2 participants, got {len(out)}")
    return out


def automa_engine_spec(spec: str) -> str:
    """``automa:L[:faction[:terrain]]`` or ``automa:faction:L[:terrain]`` -> the engine's
    ``faction:L[:terrain]`` (GameConfig ``automa``), read as ``aoi play`` reads it."""
    from agents import automa_seat_spec

    engine_spec = automa_seat_spec(spec)
    if engine_spec is None:
        raise ValueError(f"not an automa participant: {spec!r}")
    return engine_spec


@dataclass
class GameTask:
    """One scheduled game: who sits where and the game string (Automa participants included)."""

    index: int
    deal: int
    game: str
    seed: int
    seats: list[str]  # participant names per human seat (seat order)
    specs: list[str]  # their agent specs
    automa: list[str] = field(default_factory=list)  # participant names of the Automa seats (after the humans)
    agent_seeds: list[int] = field(default_factory=list)  # per human seat: from (seed, participant, game)
    max_decisions: int = 100_000
    record_dir: str | None = None


def game_config_for(base: GameConfig, humans: int, automa_specs: Sequence[str]) -> GameConfig:
    """The base config with ``humans`` player seats and the Automa seats added (when supported)."""
    params = base.to_params()
    params["players"] = humans
    if automa_specs:
        params["automa"] = list(automa_specs)
    return GameConfig.from_params(params)


def player_subsets(participants: Sequence[Participant], players: int) -> list[tuple[int, ...]]:
    """The subsets of ``players`` participants that can make a game (at least one non-Automa)."""
    combos = itertools.combinations(range(len(participants)), players)
    return [c for c in combos if any(not participants[j].is_automa for j in c)]


def cycle_length(participants: Sequence[Participant], players: int) -> int:
    """Games of one whole cycle: every subset's deal, in which each of its agents plays each player seat."""
    return sum(sum(not participants[j].is_automa for j in c) for c in player_subsets(participants, players))


def deal_seed(seed: int, deal: int) -> int:
    """The game seed of a deal: its own stream for each tournament seed."""
    return int(np.random.SeedSequence([int(seed), 7919, deal]).generate_state(1)[0] % 2**31)


def schedule(
    participants: Sequence[Participant], players: int, games: int, base: GameConfig, seed: int = 0
) -> list[GameTask]:
    """The games of a tournament (see the module docstring): deals of rotated seatings."""
    if not 2 <= players <= len(participants):
        raise ValueError(f"players must be 2..{len(participants)} (the number of participants), got {players}")
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    combos = player_subsets(participants, players)
    if not combos:
        raise ValueError("every game would be Automas only: add a participant that is not an Automa")
    tasks: list[GameTask] = []
    for deal in itertools.count():
        combo = combos[deal % len(combos)]
        humans = [j for j in combo if not participants[j].is_automa]
        automa = [participants[j] for j in combo if participants[j].is_automa]
        config = game_config_for(base, len(humans), [automa_engine_spec(p.spec) for p in automa])
        for rot in range(len(humans)):
            if len(tasks) == games:
                return tasks
            order = humans[rot:] + humans[:rot]
            i = len(tasks)
            tasks.append(
                GameTask(
                    index=i,
                    deal=deal,
                    game=str(config),
                    seed=deal_seed(seed, deal),
                    seats=[participants[j].name for j in order],
                    specs=[participants[j].spec for j in order],
                    automa=[p.name for p in automa],
                    agent_seeds=[participant_seed(seed, j, i) for j in order],
                )
            )
    raise AssertionError("unreachable")  # itertools.count() never ends


def participant_seed(seed: int, participant: int, game: int) -> int:
    """The agent seed of a participant in one game: its own stream, fresh in every game."""
    return int(np.random.SeedSequence([int(seed), 104729, participant, game]).generate_state(1)[0])


def play_task(task: GameTask) -> dict[str, Any]:
    """Play one scheduled game (runs in a worker process); returns the record as a dict."""
    t0 = time.perf_counter()
    rec = play_record(
        task.game, task.specs, seed=task.seed, agent_seeds=task.agent_seeds or None, max_decisions=task.max_decisions
    )
    rec.meta = {
        "index": task.index,
        "deal": task.deal,
        "participants": task.seats + task.automa,
        "seconds": round(time.perf_counter() - t0, 3),
    }
    if task.record_dir:
        save(rec, Path(task.record_dir) / f"game_{task.index:05d}.json")
    return rec.to_dict()


# ------------------------------------------------------------------------------------------------
# results


@dataclass
class TournamentConfig:
    agents: list[str] = field(default_factory=lambda: ["heuristic", "random"])
    players: int | None = None  # seats per game; default: the number of participants
    games: int = 20
    workers: int = 2
    seed: int = 0
    game: str = "aoi()"  # base game string; its players is replaced by the schedule
    out: str | None = "runs/tournament"
    records: bool = False  # also save every game record under OUT/records/
    max_decisions: int = 100_000
    progress: bool = True
    plots: bool = True  # OUT/tournament.png (matplotlib, the eval extra)

    def __post_init__(self) -> None:
        from train.config import check_base_game, check_bool, check_int, check_out, check_specs

        if isinstance(self.agents, str):  # "heuristic random" or "heuristic,random"
            self.agents = self.agents.replace(",", " ").split()
        check_specs("agents", self.agents)
        if self.players is not None:
            check_int("players", self.players, 2)
        check_int("games", self.games, 1)
        check_int("workers", self.workers, 1)
        check_int("seed", self.seed, 0)
        check_int("max_decisions", self.max_decisions, 1)
        check_bool("records", self.records)
        check_bool("progress", self.progress)
        check_bool("plots", self.plots)
        check_base_game("game", self.game)
        check_out("out", self.out, optional=True)

    @classmethod
    def from_dict(cls, doc: dict[str, Any]) -> TournamentConfig:
        valid = set(cls.__dataclass_fields__)
        unknown = sorted(set(doc) - valid, key=str)
        if unknown:
            raise ValueError(f"unknown tournament option {unknown[0]!r}; valid: {', '.join(sorted(valid))}")
        return cls(**doc)


def summarise(participants: Sequence[Participant], games: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Ratings, win rates, VP and margins with 95% intervals, and the head-to-head matrix."""
    from openskill.models import PlackettLuce

    names = [p.name for p in participants]
    model = PlackettLuce()
    ratings = {n: model.rating(name=n) for n in names}
    per: dict[str, dict[str, list[float]]] = {n: {"win": [], "vp": [], "margin": [], "rank": []} for n in names}
    h2h = {a: {b: [0.0, 0] for b in names if b != a} for a in names}
    for rec in sorted(games, key=lambda r: r["meta"]["index"]):
        seated = rec["meta"]["participants"]
        scores = [int(x) for x in rec["scores"]]
        ranks = ranks_from_scores(scores)
        new = model.rate([[ratings[n]] for n in seated], ranks=ranks)
        for n, team in zip(seated, new, strict=True):
            ratings[n] = team[0]
        for n, w, v, m, r in zip(seated, win_shares(scores), scores, margins(scores), ranks, strict=True):
            per[n]["win"].append(w)
            per[n]["vp"].append(v)
            per[n]["margin"].append(m)
            per[n]["rank"].append(r)
        for (i, a), (j, b) in itertools.permutations(enumerate(seated), 2):
            h2h[a][b][0] += 1.0 if scores[i] > scores[j] else 0.5 if scores[i] == scores[j] else 0.0
            h2h[a][b][1] += 1
    rows = []
    for k, n in enumerate(names):
        d = per[n]
        games_n = len(d["win"])
        wins = float(sum(d["win"]))
        vp = mean_ci(d["vp"])
        mg = mean_ci(d["margin"])
        rows.append(
            {
                "name": n,
                "spec": participants[k].spec,
                "games": games_n,
                "mu": ratings[n].mu,
                "sigma": ratings[n].sigma,
                "ordinal": ratings[n].ordinal(),
                "wins": wins,
                "win_rate": wins / games_n if games_n else math.nan,
                "win_rate_ci": wilson(wins, games_n),
                "mean_vp": vp[0],
                "mean_vp_ci": vp[1:],
                "mean_margin": mg[0],
                "mean_margin_ci": mg[1:],
                "mean_margin_bootstrap_ci": bootstrap_ci(d["margin"], seed=k),
                "mean_rank": float(np.mean(d["rank"])) if d["rank"] else math.nan,
            }
        )
    rows.sort(key=lambda r: -r["ordinal"])
    head_to_head = {
        a: {b: {"rate": (s / n if n else math.nan), "games": n, "ci": wilson(s, n)} for b, (s, n) in row.items()}
        for a, row in h2h.items()
    }
    return {"participants": rows, "head_to_head": head_to_head}


def fmt_ci(value: float, ci: Sequence[float], digits: int = 1, pct: bool = False) -> str:
    scale = 100.0 if pct else 1.0
    if math.isnan(value):
        return "-"
    lo, hi = ci
    if math.isnan(lo):
        return f"{value * scale:.{digits}f}"
    return f"{value * scale:.{digits}f} [{lo * scale:.{digits}f}, {hi * scale:.{digits}f}]"


def format_table(summary: dict[str, Any]) -> str:
    """The participants table (sorted by rating ordinal = mu - 3 sigma) and the head-to-head rates."""
    header = ["participant", "games", "rating mu±sigma", "ordinal", "win % [95% CI]", "mean VP [95% CI]",
              "margin vs best other [95% CI]", "mean rank"]  # fmt: skip
    lines = [header]
    for r in summary["participants"]:
        lines.append(
            [
                r["name"],
                str(r["games"]),
                f"{r['mu']:.1f}±{r['sigma']:.1f}",
                f"{r['ordinal']:.1f}",
                fmt_ci(r["win_rate"], r["win_rate_ci"], 1, pct=True),
                fmt_ci(r["mean_vp"], r["mean_vp_ci"]),
                fmt_ci(r["mean_margin"], r["mean_margin_ci"]),
                f"{r['mean_rank']:.2f}",
            ]
        )
    widths = [max(len(row[c]) for row in lines) for c in range(len(header))]
    text = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip() for row in lines]
    text.insert(1, "  ".join("-" * w for w in widths))
    names = [r["name"] for r in summary["participants"]]
    h2h = summary["head_to_head"]
    text.append("")
    text.append("head-to-head: % of shared games the row finished above the column (ties 1/2)")
    w0 = max(len(n) for n in names)
    wc = max(7, *(len(n) for n in names))
    text.append(" " * w0 + "  " + "  ".join(n.rjust(wc) for n in names))
    for a in names:
        cells = []
        for b in names:
            if a == b or h2h[a][b]["games"] == 0:
                cells.append("-".rjust(wc))
            else:
                cells.append(f"{100 * h2h[a][b]['rate']:.0f}%".rjust(wc))
        text.append(a.ljust(w0) + "  " + "  ".join(cells))
    return "\n".join(text)


def json_safe(obj: Any) -> Any:
    """``obj`` with every NaN (an undefined rate or interval) as ``None``, so the JSON is valid."""
    if isinstance(obj, float) and math.isnan(obj):
        return None
    if isinstance(obj, dict):
        return {k: json_safe(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [json_safe(v) for v in obj]
    return obj


def write_outputs(out: Path, cfg: TournamentConfig, summary: dict[str, Any], games: Sequence[dict[str, Any]]) -> None:
    """OUT/tournament.json (config, summary, per-game results), OUT/participants.csv, OUT/games.csv."""
    out.mkdir(parents=True, exist_ok=True)
    results = [
        {
            "index": g["meta"]["index"],
            "deal": g["meta"]["deal"],
            "game": g["game"],
            "seed": g["seed"],
            "participants": g["meta"]["participants"],
            "scores": g["scores"],
            "decisions": len(g["moves"]),
            "seconds": g["meta"]["seconds"],
        }
        for g in sorted(games, key=lambda r: r["meta"]["index"])
    ]
    doc = {"config": asdict(cfg), "summary": summary, "games": results}
    (out / "tournament.json").write_text(json.dumps(json_safe(doc), indent=1) + "\n", encoding="utf-8")
    with open(out / "participants.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["name", "spec", "games", "mu", "sigma", "ordinal", "wins", "win_rate", "win_lo", "win_hi",
                    "mean_vp", "vp_lo", "vp_hi", "mean_margin", "margin_lo", "margin_hi", "margin_boot_lo",
                    "margin_boot_hi", "mean_rank"])  # fmt: skip
        for r in summary["participants"]:
            w.writerow(
                [
                    r["name"],
                    r["spec"],
                    r["games"],
                    r["mu"],
                    r["sigma"],
                    r["ordinal"],
                    r["wins"],
                    r["win_rate"],
                    *r["win_rate_ci"],
                    r["mean_vp"],
                    *r["mean_vp_ci"],
                    r["mean_margin"],
                    *r["mean_margin_ci"],
                    *r["mean_margin_bootstrap_ci"],
                    r["mean_rank"],
                ]  # fmt: skip
            )
    with open(out / "games.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["index", "deal", "game", "seed", "participants", "scores", "decisions", "seconds"])
        for r in results:
            w.writerow([r["index"], r["deal"], r["game"], r["seed"], " ".join(r["participants"]),
                        " ".join(map(str, r["scores"])), r["decisions"], r["seconds"]])  # fmt: skip


def write_plot(out: Path, cfg: TournamentConfig, summary: dict[str, Any], players: int) -> Path | None:
    """OUT/tournament.png (train/plots.py), or a note when matplotlib is not installed."""
    from train.plots import can_plot, plot_tournament

    if not can_plot("aoi tournament: the plot"):
        return None

    games = sum(r["games"] for r in summary["participants"]) // max(players, 1)
    return plot_tournament(summary, out / "tournament.png", title=f"{games} games of {players} seats, {cfg.game}")


def run_tournament(cfg: TournamentConfig, out: TextIO | None = None) -> dict[str, Any]:
    """Schedule, play (in parallel), summarise, print the table and write the files; returns the summary."""
    participants = parse_participants(cfg.agents)
    players = cfg.players or len(participants)
    base = GameConfig.parse(cfg.game)
    tasks = schedule(participants, players, cfg.games, base, cfg.seed)
    cycle = cycle_length(participants, players)
    if cfg.games % cycle:
        print(
            f"aoi tournament: note: {cfg.games} games is not a multiple of {cycle} (every subset of {players} "
            "with each agent at each player seat): participation and seats will be uneven",
            file=sys.stderr,
        )
    from aoi_env.cli import check_output_folder

    check_output_folder(cfg.out, "out")  # fail before the games, not after them
    out_dir = Path(cfg.out) if cfg.out else None
    for t in tasks:
        t.max_decisions = cfg.max_decisions
        t.record_dir = str(out_dir / "records") if (cfg.records and out_dir) else None
    from agents import make_agent

    for p in participants:  # fail before starting the workers on a bad spec
        if not p.is_automa:
            make_agent(p.spec, seed=0)
    human = any(p.spec.split(":")[0].strip().lower() == "human" for p in participants)
    workers = 1 if human else cfg.workers  # a human reads the terminal
    games = run_parallel(play_task, tasks, workers, "tournament", cfg.progress)
    summary = summarise(participants, games)
    stream = out or sys.stdout
    print(f"{len(games)} games, {players} seats each, first game {tasks[0].game}, seed {cfg.seed}", file=stream)
    print(format_table(summary), file=stream)
    if out_dir is not None:
        write_outputs(out_dir, cfg, summary, games)
        picture = write_plot(out_dir, cfg, summary, players) if cfg.plots else None
        extra = f", {picture.name}" if picture else ""
        print(f"wrote {out_dir / 'tournament.json'}, participants.csv, games.csv{extra}", file=stream)
    return summary
