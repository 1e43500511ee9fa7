"""``aoi eval``: a trained policy against one opponent kind, with 95% confidence intervals.

``evaluate(agent, vs, games)`` plays ``games`` games in ``SeatEnv`` against the opponent spec
``vs`` (``random``, ``heuristic``, ``automa:L``, ``model:PATH``).  Games come in deals that share
a game seed; inside a deal the learner plays every player seat once (seat rotation removes the
first-player advantage), so ``games`` should be a multiple of the player count; against the
Automa the learner always has seat 0.  The result holds the win rate (a k-way shared first place
counts 1/k) with a Wilson 95% interval and the mean VP margin (own VP - best other VP) with a
Student-t 95% interval.  With ``records`` every game is also saved as a game record
(``aoi replay``).  The deal and reset seeds come from ``stream_seed(seed, "evaluate")``, not
from ``seed`` itself, whose stream is a training env's (env ``i`` of ``aoi train`` is ``seed + i``).
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from aoi_env.core.config import GameConfig
from train.config import stream_seed
from train.opponents import OpponentPool, check_opponent_game, check_spec
from train.records import GameRecord, current_versions, record_from_actions, save
from train.seat_env import SeatEnv
from train.stats import mean_ci, wilson
from train.tournament import progress


@dataclass
class EvalResult:
    """One row of the result table."""

    policy: str
    vs: str
    games: int
    win_rate: float
    win_ci: tuple[float, float]
    margin: float
    margin_ci: tuple[float, float]
    vp: float
    length: float
    illegal_actions: int

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def evaluate(
    agent: Any,
    vs: str,
    games: int = 100,
    seed: int = 0,
    game: str = "aoi(players=2)",
    setup_choices: str = "random",
    label: str = "policy",
    show_progress: bool = False,
    records: str | os.PathLike[str] | None = None,
    learner: str | None = None,
) -> EvalResult:
    """Play ``agent`` (``choose(game) -> id``) against ``vs``; see the module docstring.

    ``records``: a folder for one game record per game (``LABEL-vs-VS-NNNN.json``), naming the
    learner's seat ``learner`` (default ``label``) and the others ``vs``."""
    check_opponents([vs], game, setup_choices)
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    record_dir = Path(records) if records is not None else None
    if record_dir is not None:
        record_dir.mkdir(parents=True, exist_ok=True)  # a bad folder fails before the first game
    env = SeatEnv(game, OpponentPool({vs: 1.0}), setup_choices=setup_choices)
    players = env.config_for(vs).players
    rng = np.random.default_rng(stream_seed(seed, "evaluate"))  # not a training env's stream
    deal_seeds = rng.integers(2**31 - 1, size=math.ceil(games / players))
    reset_seeds = rng.integers(2**31 - 1, size=games)
    stats = []
    for i in progress(range(games), games, f"{label} vs {vs}", show_progress):
        deal, seat = divmod(i, players)
        env.reset(seed=int(reset_seeds[i]), options={"seat": seat, "game_seed": int(deal_seeds[deal])})
        info: dict[str, Any] = {}
        terminated = False
        while not terminated:
            _, _, terminated, _, info = env.step(agent.choose(env.game))
        stats.append(info["episode_stats"])
        if record_dir is not None:
            name = f"{_slug(label)}-vs-{_slug(vs)}-{i:04d}.json"
            save(_record(env, learner or label, vs, i, seed), record_dir / name)
    wins = [s["win"] for s in stats]
    margin, lo, hi = mean_ci([s["margin"] for s in stats])
    return EvalResult(
        policy=label,
        vs=vs,
        games=games,
        win_rate=float(np.mean(wins)),
        win_ci=wilson(float(np.sum(wins)), games),
        margin=margin,
        margin_ci=(lo, hi),
        vp=float(np.mean([s["vp"] for s in stats])),
        length=float(np.mean([s["length"] for s in stats])),
        illegal_actions=int(sum(s["illegal_actions"] for s in stats)),
    )


def _record(env: SeatEnv, learner: str, vs: str, index: int, seed: int) -> GameRecord:
    """The finished game of ``env`` as a game record (its agents: ``learner`` at the learner's seat)."""
    game = env.game
    assert game is not None
    agents = [learner if s == env.seat else vs for s in range(game.config.players)]
    meta = {"evaluation": {"vs": vs, "game": index, "learner_seat": env.seat, "seed": seed}}
    return record_from_actions(game.config, env.game_seed, agents, env.trajectory, meta=meta)


def _slug(text: str) -> str:
    """``text`` as a file-name part: runs of anything but letters and digits become one ``_``."""
    return re.sub(r"[^A-Za-z0-9]+", "_", text).strip("_") or "_"


def check_opponents(vs: list[str], game: str, setup_choices: str) -> None:
    """Every opponent spec, its model file and its game, before the first game is played (a bad
    last one used to fail after the others had played); a game string choosing setup_choices is
    an error (it was silently replaced by ``setup_choices``)."""
    if "setup_choices" in GameConfig.parse_params(game):
        raise ValueError(f"the game {game!r} may not set setup_choices: use --setup-choices (setup_choices=)")
    base = GameConfig.parse(game)
    for spec in vs:
        check_opponent_game("vs", check_spec(spec, "vs", allow_self=False), base, game, setup_choices)


def _pct(x: float) -> str:
    return "nan" if math.isnan(x) else f"{100 * x:.1f}%"


def _num(x: float) -> str:
    return "nan" if math.isnan(x) else f"{x:+.1f}"


def _interval(lo: float, hi: float, fmt: Callable[[float], str]) -> str:
    """`` [lo, hi]``, or nothing when there is no interval (one game has no margin interval)."""
    return "" if math.isnan(lo) or math.isnan(hi) else f" [{fmt(lo)}, {fmt(hi)}]"


def format_results(results: list[EvalResult]) -> str:
    """A Markdown table: policy, opponent, games, win rate [95% CI], mean margin [95% CI], VP."""
    lines = [
        "| policy | vs | games | win rate [95% CI] | mean VP margin [95% CI] | mean VP | decisions/game |",
        "|---|---|---:|---|---|---:|---:|",
    ]
    for r in results:
        lines.append(
            f"| {r.policy} | {r.vs} | {r.games} | {_pct(r.win_rate)}{_interval(*r.win_ci, _pct)} "
            f"| {_num(r.margin)}{_interval(*r.margin_ci, _num)} | {r.vp:.1f} | {r.length:.0f} |"
        )
    return "\n".join(lines)


def summary_line(r: EvalResult) -> str:
    margin_ci = (
        "" if any(map(math.isnan, r.margin_ci)) else f" (95% CI {_num(r.margin_ci[0])} to {_num(r.margin_ci[1])})"
    )
    return (
        f"{r.policy} vs {r.vs}: {r.games} games, win rate {_pct(r.win_rate)} "
        f"(95% CI {_pct(r.win_ci[0])}-{_pct(r.win_ci[1])}), mean VP margin {_num(r.margin)}{margin_ci}, "
        f"mean VP {r.vp:.1f}"
    )


def run_eval(
    model: str,
    vs: list[str],
    games: int = 100,
    seed: int = 0,
    game: str = "aoi(players=2)",
    deterministic: bool = True,
    show_progress: bool = True,
    setup_choices: str = "random",
    records: str | os.PathLike[str] | None = None,
    json_path: str | os.PathLike[str] | None = None,
) -> list[EvalResult]:
    """``aoi eval``: load ``model`` (a .zip) and print one line per opponent plus the table;
    ``records``: save every game in that folder; ``json_path``: write the results as JSON."""
    import torch

    from train.policy_agent import PolicyAgent

    check_opponents(vs, game, setup_choices)
    loaded = PolicyAgent.from_path(model, seed=seed, deterministic=deterministic)  # a bad file fails here
    results = []
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # one observation at a time: more threads only wait on each other
    try:
        for spec in vs:
            # a fresh agent per row: a --stochastic agent's generator would otherwise carry over, and
            # a row's result would depend on the rows before it
            agent = PolicyAgent(loaded.policy, seed=seed, deterministic=deterministic, label=loaded.label)
            r = evaluate(agent, spec, games=games, seed=seed, game=game, setup_choices=setup_choices, label="model",
                         show_progress=show_progress, records=records, learner=f"model:{model}")  # fmt: skip
            print(summary_line(r), flush=True)
            results.append(r)
    finally:
        torch.set_num_threads(threads)
    print()
    print(format_results(results))
    if json_path:
        doc = {"model": os.fspath(model), "game": game, "games": games, "seed": seed, "setup_choices": setup_choices,
               "deterministic": deterministic, "versions": current_versions(),
               "results": [r.to_dict() for r in results]}  # fmt: skip
        Path(json_path).parent.mkdir(parents=True, exist_ok=True)
        Path(json_path).write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    return results
