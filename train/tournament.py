"""``aoi tournament``: many games between named agents, with ratings and confidence intervals.

Participants are agent specs (``agents.make_agent``: ``random``, ``heuristic``,
``model:PATH``), optionally labelled ``label=spec`` (``h2=heuristic``); a repeated spec gets a
``#2`` suffix.  ``automa:L[:faction[:terrain]]`` (or ``automa:faction:L[:terrain]``) is an
engine-level Automa seat: it is not an agent at a seat but part of the game config
(``GameConfig(automa=...)``, seats after the player seats; default faction: the first Automa
faction); with an engine without that parameter such a participant is rejected with a clear error.

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

Z95 = 1.959963984540054  # two-sided 95% normal quantile

# ------------------------------------------------------------------------------------------------
# statistics (shared with train.balance)


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion ``successes / n`` (``(nan, nan)`` for n = 0)."""
    if n <= 0:
        return (math.nan, math.nan)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # the exact interval contains p; rounding would put 0 / n or n / n a hair outside it
    return (min(max(0.0, centre - half), p), max(min(1.0, centre + half), p))


def normal_quantile(p: float) -> float:
    """The standard normal ``x`` with P(X < x) = ``p`` (bisection on ``math.erfc``)."""
    lo, hi = -40.0, 40.0
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if 0.5 * math.erfc(-mid / math.sqrt(2)) < p else (lo, mid)
    return (lo + hi) / 2


def student_t_coverage(t: float, df: int) -> float:
    """P(|T| < t) for Student's t with ``df`` degrees of freedom (integer ``df``: the closed form
    of Abramowitz & Stegun 26.7.3-4, so no scipy)."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be >= 1, got {df}")
    if math.isnan(t):
        return math.nan
    theta = math.atan(abs(t) / math.sqrt(df))
    c2 = math.cos(theta) ** 2
    if df % 2:  # odd: 2/pi (theta + sin cos (1 + 2/3 cos^2 + 2*4/(3*5) cos^4 + ...))
        term, total = 1.0, 1.0 if df > 1 else 0.0
        for k in range(1, (df - 1) // 2):
            term *= c2 * (2 * k) / (2 * k + 1)
            total += term
        return min(1.0, 2 / math.pi * (theta + math.sin(theta) * math.cos(theta) * total))
    term, total = 1.0, 1.0  # even: sin (1 + 1/2 cos^2 + 1*3/(2*4) cos^4 + ...)
    for k in range(1, df // 2):
        term *= c2 * (2 * k - 1) / (2 * k)
        total += term
    return min(1.0, math.sin(theta) * total)


def regularized_beta(x: float, a: float, b: float, y: float | None = None) -> float:
    """I_x(a, b), the regularized incomplete beta function, by its continued fraction (modified
    Lentz, Numerical Recipes 6.4): accurate in relative terms far into the tails, where
    ``1 - coverage`` loses every digit.  ``y``: 1 - x when the caller has it more precisely."""
    if not 0.0 <= x <= 1.0:
        raise ValueError(f"x must lie in [0, 1], got {x}")
    y = 1.0 - x if y is None else y
    if x == 0.0 or y == 0.0:
        return 0.0 if x == 0.0 else 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log(y))
    if x > (a + 1) / (a + b + 2):  # the fraction converges fast on this side only
        return 1.0 - front * _beta_fraction(y, b, a) / b
    return front * _beta_fraction(x, a, b) / a


def _beta_fraction(x: float, a: float, b: float) -> float:
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    total = d
    for m in range(1, 10_000):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):  # fmt: skip
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            total *= c * d
        if abs(c * d - 1.0) < 1e-15:
            return total
    raise ArithmeticError(f"the incomplete beta fraction did not converge (x {x}, a {a}, b {b})")


def student_t_two_sided_p(t: float, df: int) -> float:
    """Two-sided p-value of a t statistic (``normal_two_sided_p`` for small samples; NaN for NaN):
    I_x(df / 2, 1 / 2) with x = df / (df + t^2), far into the tail (p = 1e-48 to 10 digits).
    Against mpmath: relative error below 1e-10 for df up to 10^5 at any t; float rounding in
    the log-gamma terms costs digits beyond that (1e-9 at df 10^6)."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be >= 1, got {df}")
    if math.isnan(t):
        return math.nan
    if math.isinf(t):
        return 0.0
    ratio = abs(t) / math.sqrt(df)
    if ratio > 1e100:  # t^2 would overflow: the leading term x^a / (a B(a, 1/2)), x = 1 / ratio^2
        a = df / 2
        log_beta = math.lgamma(a) + math.lgamma(0.5) - math.lgamma(a + 0.5)
        return math.exp(-2 * a * math.log(ratio) - math.log(a) - log_beta)
    x, y = 1.0 / (1.0 + ratio * ratio), ratio * ratio / (1.0 + ratio * ratio)
    return min(1.0, regularized_beta(x, df / 2, 0.5, y))


def student_t_quantile(df: int, level: float = 0.95) -> float:
    """The ``t`` with P(|T| < t) = ``level`` (12.706 for df 1, 2.776 for df 4, -> 1.960)."""
    if not 0 < level < 1:
        raise ValueError(f"level must lie strictly between 0 and 1, got {level}")
    if df > 100:  # the Cornish-Fisher series in 1/df (A&S 26.7.5), within 1e-7 here; bisection is O(df)
        z = normal_quantile(0.5 + level / 2)
        return (
            z
            + (z**3 + z) / (4 * df)
            + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
            + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3)
            + (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / (92160 * df**4)
        )
    lo, hi = 0.0, 1.0
    while student_t_coverage(hi, df) < level:
        hi *= 2
    for _ in range(100):  # bisection to float precision
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if student_t_coverage(mid, df) < level else (lo, mid)
    return (lo + hi) / 2


def mean_ci(values: Sequence[float], z: float | None = None) -> tuple[float, float, float]:
    """Mean and 95% interval ``half = t * sd / sqrt(n)``; ``t`` is Student's quantile with n - 1
    degrees of freedom (a normal 1.96 would be 13% too narrow at 10 games), or ``z`` if given."""
    x = np.asarray(values, dtype=float)
    if x.size == 0:
        return (math.nan, math.nan, math.nan)
    m = float(x.mean())
    if x.size == 1:
        return (m, math.nan, math.nan)
    q = student_t_quantile(x.size - 1) if z is None else z
    half = q * float(x.std(ddof=1)) / math.sqrt(x.size)
    return (m, m - half, m + half)


def bootstrap_ci(values: Sequence[float], resamples: int = 2000, seed: int = 0) -> tuple[float, float]:
    """Percentile bootstrap 95% interval of the mean (deterministic for a seed)."""
    x = np.asarray(values, dtype=float)
    if x.size < 2:
        return (math.nan, math.nan)
    rng = np.random.default_rng(seed)
    means = x[rng.integers(0, x.size, size=(resamples, x.size))].mean(axis=1)
    lo, hi = np.quantile(means, [0.025, 0.975])
    return (float(lo), float(hi))


def normal_two_sided_p(z: float) -> float:
    return math.erfc(abs(z) / math.sqrt(2))


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm-Bonferroni adjusted p-values (same order as given; NaN stays NaN)."""
    idx = [i for i, p in enumerate(pvalues) if not math.isnan(p)]
    order = sorted(idx, key=lambda i: pvalues[i])
    m = len(order)
    out = [math.nan] * len(pvalues)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        out[i] = running
    return out


def win_shares(scores: Sequence[int]) -> list[float]:
    """1/k for each of the k seats with the highest VP, 0 for the others."""
    best = max(scores)
    k = sum(1 for s in scores if s == best)
    return [1.0 / k if s == best else 0.0 for s in scores]


def margins(scores: Sequence[int]) -> list[int]:
    """Each seat's VP minus the best VP among the other seats (positive = won by that much)."""
    return [s - max(o for j, o in enumerate(scores) if j != i) for i, s in enumerate(scores)]


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
        from train.config import check_base_game, check_bool, check_int, check_out

        if isinstance(self.agents, str):  # "heuristic random" or "heuristic,random"
            self.agents = self.agents.replace(",", " ").split()
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
    out_dir = Path(cfg.out) if cfg.out else None
    if out_dir is not None:  # fail before the games, not after them
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise ValueError(f"out {out_dir}: cannot create the folder ({err.strerror or err})") from None
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
