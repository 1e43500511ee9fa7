"""``aoi bench``: single-core speed of the engine and the environment (no torch, numpy only).

Measured, all with uniform random play over the legal ids (``legal_actions`` + ``apply_action``;
the choice from ``UniformPicks``, a batch of uniform floats drawn ahead):

* ``engine_decisions_per_s``: raw engine decisions per second (4 players; a new game starts when
  one ends); ``engine_decisions_per_s_3p`` the same with 3 players (issue 10's yardstick);
* ``env_decisions_per_s``: the PettingZoo ``raw_env`` with ``observe`` (observation + action
  mask) before every ``step`` (skipped when the RL layer is not importable);
  ``env_last_decisions_per_s_3p``: 3 players, ``raw_env`` driven through ``last()`` and ``step``;
  ``wrapped_env_decisions_per_s_3p``: the same through the full ``env()`` wrapper chain;
  ``env_last_decisions_per_s_solo``: the same loop, one player against the Automa
  (``SOLO_AUTOMA``), her turns inside ``step``;
* ``vector_decisions_per_s_3p_1proc`` / ``_2proc``: ``aoi_env.vector.VectorGame`` (16 games,
  observations + masks + random legal actions each step) in one pinned process, and in two
  worker processes (not pinned: up to two cores), decisions summed over the workers;
* ``games_per_s_{P}p`` and ``decisions_per_game_{P}p``: full games for each player count;
* ``clone_us``: ``Game.clone()`` time in microseconds, over positions along a game;
* ``observation_us``: ``ObservationEncoder.encode`` time (as the env calls it) and
  ``action_mask_us``;
* ``jit_compile_s``: the first observation of the process, which compiles the numba encoder when
  numba is installed (done before anything encodes an observation; the header names the encoder),
  and ``env_last_decisions_per_s_3p_numpy``: the ``raw_env`` figure with the numpy encoder;
* the header and ``meta.engine`` say whether the engine is the compiled build
  (``AOI_ENV_COMPILE=1 pip install .``, ``aoi_env/compiled.py``) or pure Python;
* ``reference_python_mops``: millions of iterations per second of a fixed pure-Python loop
  (``reference_work``: a call, dict look-ups, tuples, integer arithmetic; no engine code),
  sampled before every timed section (``ReferenceClock``), the median of the samples: how fast
  this interpreter on this machine is at what the engine is made of.  ``reference_spread_pct``
  is how much the samples differ (max - min over the median): a machine whose speed changed
  during the run (other work, frequency changes) gives unreliable figures, and the table says
  so above 10%.  ``--compare`` divides the rate ratios by the ratio of the two medians (times
  multiplied: the "adjusted" column, which the verdicts then use) when both runs were steady;
* ``state_bytes``: size of ``state.to_bytes()``; ``tracemalloc_peak_kib``: peak Python
  allocation while playing one 4-player game; ``max_rss_mib``: the process's peak resident size
  (``resource.getrusage``).

The process is pinned to one CPU while measuring (``os.sched_setaffinity`` where available),
every throughput section starts after ``gc.collect()`` (``start_clock``) and nothing runs in
parallel; the times are wall-clock, so other work on the machine slows them down (the load
average is printed and stored with the results).  ``--json FILE`` writes the results with the git
commit (if the package is in a git checkout), python, numpy and platform, so runs can be
compared across commits; ``--compare OLD.json`` prints the ratios new / old.

``--instructions`` times nothing: it counts, under valgrind's callgrind, the machine instructions
per decision of the 3-player engine and ``raw_env`` sections and of the solo ``raw_env`` section
(``engine_instructions_per_decision_3p``, ``env_last_instructions_per_decision_3p``,
``env_last_instructions_per_decision_solo``; ``aoi_env/bench_instructions.py``).  The count is the
same in every run of the same tree whatever the machine does, so it is the A/B yardstick of a
change on a busy machine; the timed run then confirms it.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import platform
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from aoi_env import __version__
from aoi_env.compiled import engine_compiled
from aoi_env.core.engine import Game

HIGHER_IS_BETTER = ("per_s",)  # metric name parts
LOWER_IS_BETTER = ("_us", "_kib", "_mib", "compile_s", "instructions")  # times, memory, counts of instructions;
# other metrics (sizes, decisions per game) are neutral
TIME_PARTS = ("_us", "compile_s")  # the lower-is-better metrics that are times (the machine's speed scales them)
REFERENCE = "reference_python_mops"  # the machine's own speed at a fixed pure-Python loop
SPREAD = "reference_spread_pct"  # how much that speed changed during the run
STEADY_SPREAD_PCT = 10.0  # above this the run's figures are flagged and not adjusted


def start_clock() -> float:
    """``time.perf_counter()`` after ``gc.collect()``: each throughput section starts without the
    garbage of earlier work, so a full collection it would trigger (numba's first compile leaves
    ~150,000 objects: ~90 ms) does not land inside a window of a few tenths of a second."""
    gc.collect()
    return time.perf_counter()


def _reference_step(table: dict[int, int], k: int, acc: int) -> tuple[int, int]:
    return k, (acc + table[k]) & 0xFFFF


def reference_work(n: int) -> int:
    """A fixed pure-Python workload of ``n`` iterations, the kind of work an engine decision is
    made of (a call, a dict look-up, tuple building and unpacking, a list append, integer
    arithmetic and a comparison), with no engine code: its speed changes only with the
    interpreter and the machine, not with this package."""
    table = {i: i * 7 + 1 for i in range(64)}
    acc = 0
    items: list[tuple[int, int]] = []
    for i in range(n):
        k, acc = _reference_step(table, i & 63, acc)
        items.append((k, acc))
        if len(items) >= 32:
            items.clear()
    return acc


def reference_rate(iterations: int = 100_000, windows: int = 3) -> float:
    """The reference loop's speed now, in millions of iterations per second: the best of
    ``windows`` timings (the best, because other work only ever slows it; ~60 ms in all)."""
    return iterations / min(_timed(reference_work, iterations) for _ in range(windows)) / 1e6


class ReferenceClock:
    """The reference loop's speed sampled between the timed sections of one run: the machine's
    speed over the whole run, not only at its start, and how steady it was."""

    def __init__(self) -> None:
        self.samples: list[float] = []

    def sample(self) -> None:
        self.samples.append(reference_rate())

    def results(self) -> dict[str, float]:
        median = float(np.median(self.samples))
        return {REFERENCE: median, SPREAD: 100 * (max(self.samples) - min(self.samples)) / median}


def _timed(work: Any, n: int) -> float:
    t0 = time.perf_counter()
    work(n)
    return time.perf_counter() - t0


class UniformPicks:
    """Uniform random indices for the timed loops: ``pick(n)`` is uniform on ``0..n-1``.

    Taken from a batch of uniform floats drawn ahead with a seeded ``Generator``: one
    ``Generator.integers`` call for a single number costs ~10,800 instructions (it converts and
    checks its arguments with numpy arrays; counted with ``aoi bench --instructions``), about 5%
    of an engine decision and 3% of a ``raw_env`` one, which the bench would otherwise book as
    the environment's (issue 10; the bench used it until the twenty-first session)."""

    def __init__(self, seed: int | Sequence[int], batch: int = 4096) -> None:
        self._rng = np.random.default_rng(seed)
        self._batch = batch
        self._left: list[float] = []

    def pick(self, n: int) -> int:
        left = self._left
        if not left:
            left.extend(self._rng.random(self._batch).tolist())
        return int(left.pop() * n)  # floor(u * n) for u uniform on [0, 1): uniform on 0..n-1


def _random_step(g: Game, picks: UniformPicks) -> None:
    legal = g.legal_actions()
    g.apply_action(legal[picks.pick(len(legal))])


def bench_engine(decisions: int, players: int = 4, seed: int = 0) -> dict[str, float]:
    """Raw engine decisions per second under uniform random masked play."""
    picks = UniformPicks(seed)
    game_seed = seed
    g = Game(f"aoi(players={players})", seed=game_seed)
    done = 0
    t0 = start_clock()
    while done < decisions:
        if g.is_over():
            game_seed += 1
            g = Game(f"aoi(players={players})", seed=game_seed)
            continue
        _random_step(g, picks)
        done += 1
    dt = time.perf_counter() - t0
    return {"engine_decisions_per_s": done / dt}


def env_available() -> bool:
    try:
        import aoi_env.env  # noqa: F401
    except ImportError:
        return False
    return True


def bench_env(decisions: int, players: int = 4, seed: int = 0) -> dict[str, float]:
    """PettingZoo ``raw_env``: ``observe`` (observation + mask) then ``step`` per decision."""
    from aoi_env.env import raw_env

    env = raw_env(num_players=players)
    picks = UniformPicks(seed)
    episode = seed
    env.reset(seed=episode)
    done = 0
    t0 = start_clock()
    while done < decisions:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            if not env.agents:
                episode += 1
                env.reset(seed=episode)
            continue
        obs = env.observe(agent)
        legal = obs["action_mask"].nonzero()[0]  # = np.flatnonzero for 1-D, ~0.6 µs less
        env.step(int(legal[picks.pick(len(legal))]))
        done += 1
    dt = time.perf_counter() - t0
    return {"env_decisions_per_s": done / dt}


SOLO_AUTOMA = "simpletons:3"
"""The Automa of the bench's solo section (``env_last_decisions_per_s_solo``): one player against
her, the setting of training against the Automa, where her turns run inside ``step()``."""


def bench_env_last(
    decisions: int,
    players: int = 3,
    seed: int = 0,
    wrapped: bool = False,
    compiled: bool | None = None,
    automa: str | None = None,
) -> float:
    """Decisions/s of the AEC loop as users write it: ``last()`` (observation + mask), then ``step``.

    ``wrapped``: the full ``env()`` chain (TerminateIllegal -> AssertOutOfBounds -> OrderEnforcing)
    instead of ``raw_env`` (issue 10 targets); ``compiled``: force the compiled (True) or the numpy
    (False) observation encoder instead of the default; ``automa``: an Automa seat after the
    ``players`` (e.g. ``SOLO_AUTOMA`` with ``players=1``), whose turns the decisions include.
    """
    from aoi_env.env import env as wrapped_env
    from aoi_env.env import raw_env
    from aoi_env.observation import ObservationEncoder

    options = {} if automa is None else {"automa": automa}
    e = wrapped_env(num_players=players, **options) if wrapped else raw_env(num_players=players, **options)
    if compiled is not None:
        e.unwrapped._encoder = ObservationEncoder(compiled=compiled)
    picks = UniformPicks(seed)
    episode = seed
    e.reset(seed=episode)
    done = 0
    t0 = start_clock()
    while done < decisions:
        obs, _, termination, truncation, _ = e.last()
        if termination or truncation:
            e.step(None)
            if not e.agents:
                episode += 1
                e.reset(seed=episode)
            continue
        legal = obs["action_mask"].nonzero()[0]  # = np.flatnonzero for 1-D, ~0.6 µs less
        e.step(int(legal[picks.pick(len(legal))]))
        done += 1
    return done / (time.perf_counter() - t0)


def observation_encoder() -> str:
    """Which observation encoder ``ObservationEncoder()`` uses here."""
    from aoi_env import observation_jit

    if not observation_jit.AVAILABLE:
        return "numpy"
    import numba

    return f"compiled (numba {numba.__version__})"


def jit_warm_up(players: int = 3, seed: int = 0) -> dict[str, float]:
    """Compile the observation encoder before anything is timed (numba compiles on the first call,
    once per process); ``jit_compile_s`` is that first call (about 0 without numba)."""
    from aoi_env.observation import ObservationEncoder

    g = Game(f"aoi(players={players})", seed=seed)
    t0 = time.perf_counter()
    ObservationEncoder().encode(g, 0)
    return {"jit_compile_s": time.perf_counter() - t0}


def bench_vector(decisions: int, players: int = 3, seed: int = 0, workers: int = 1, n: int = 16) -> float:
    """Decisions/s of ``aoi_env.vector`` random play with observations and masks, ``workers`` processes."""
    from aoi_env.vector import throughput

    return throughput(f"aoi(players={players})", n=n, decisions=decisions, workers=workers, seed=seed)[
        "decisions_per_s"
    ]


def bench_games(players: Sequence[int], games: int, seed: int = 0) -> dict[str, float]:
    """Full random games per second and decisions per game, per player count."""
    out: dict[str, float] = {}
    for p in players:
        picks = UniformPicks([seed, p])
        decisions = 0
        t0 = start_clock()
        for i in range(games):
            g = Game(f"aoi(players={p})", seed=seed + i)
            while not g.is_over():
                _random_step(g, picks)
                decisions += 1
        dt = time.perf_counter() - t0
        out[f"games_per_s_{p}p"] = games / dt
        out[f"decisions_per_game_{p}p"] = decisions / games
    return out


def positions(players: int, seed: int, every: int = 5) -> list[Game]:
    """Clones of the positions of one random game (every ``every``-th decision)."""
    picks = UniformPicks(seed)
    g = Game(f"aoi(players={players})", seed=seed)
    out = []
    n = 0
    while not g.is_over():
        if n % every == 0:
            out.append(g.clone())
        _random_step(g, picks)
        n += 1
    return out


def bench_clone_and_observation(players: int = 4, seed: int = 0) -> dict[str, float]:
    """Mean ``clone()``, observation and action-mask times (µs) over positions along a game (short
    windows on a warm cache: no ``start_clock``, whose collection would leave the cache cold)."""
    pos = positions(players, seed)
    t0 = time.perf_counter()
    for g in pos:
        g.clone()
    out = {"clone_us": (time.perf_counter() - t0) / len(pos) * 1e6}
    t0 = time.perf_counter()
    for g in pos:
        g.action_mask()
    out["action_mask_us"] = (time.perf_counter() - t0) / len(pos) * 1e6
    try:
        from aoi_env.observation import ObservationEncoder
    except ImportError:
        return out
    for seat in range(players):  # the compiled encoder's static tables, built once per (players, observer)
        ObservationEncoder().encode(pos[0], seat)
    enc = ObservationEncoder()  # its own caches start empty, as the env's do
    t0 = time.perf_counter()
    for g in pos:
        enc.encode(g, g.current_seat())
    out["observation_us"] = (time.perf_counter() - t0) / len(pos) * 1e6
    return out


def bench_memory(players: int = 4, seed: int = 0) -> dict[str, float]:
    """State size, tracemalloc peak over one random game, and the process's peak RSS."""
    g = Game(f"aoi(players={players})", seed=seed)
    out: dict[str, float] = {"state_bytes": float(len(g.state.to_bytes()))}
    picks = UniformPicks(seed)
    tracemalloc.start()
    try:
        g = Game(f"aoi(players={players})", seed=seed)
        while not g.is_over():
            _random_step(g, picks)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    out["tracemalloc_peak_kib"] = peak / 1024
    try:
        import resource

        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux, bytes on macOS
        out["max_rss_mib"] = rss / (1024 * 1024 if sys.platform == "darwin" else 1024)
    except ImportError:  # pragma: no cover - Windows
        pass
    return out


@contextlib.contextmanager
def one_core() -> Iterator[str]:
    """Pin this process to one CPU while measuring (restored afterwards); yields a description."""
    getter = getattr(os, "sched_getaffinity", None)
    setter = getattr(os, "sched_setaffinity", None)
    if getter is None or setter is None:
        yield "not pinned (no sched_setaffinity)"
        return
    before = getter(0)
    cpu = min(before)
    setter(0, {cpu})
    try:
        yield f"pinned to cpu {cpu}"
    finally:
        setter(0, before)


def git_commit() -> dict[str, Any]:
    """The commit of the checkout holding this package, and whether it has local changes."""
    root = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, timeout=10, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=root, capture_output=True, text=True, timeout=30, check=True,
        ).stdout.strip()  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return {"commit": None, "dirty": None}
    return {"commit": head, "dirty": bool(dirty)}


def metadata() -> dict[str, Any]:
    return {
        "package": __version__,
        **git_commit(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "platform": platform.platform(),
        "machine": platform.machine(),
        "processor": platform.processor(),
        "cpus": os.cpu_count(),
        "loadavg": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,  # other work on the machine
        "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }


def measure(
    players: Sequence[int] = (2, 3, 4, 5),
    games: int = 3,
    decisions: int = 3000,
    seed: int = 0,
    with_env: bool = True,
    with_vector: bool = True,
) -> dict[str, Any]:
    """All measurements (see the module docstring) as ``{"meta": ..., "results": {name: value}}``."""
    results: dict[str, float] = {REFERENCE: 0.0, SPREAD: 0.0}  # filled last, listed first
    clock = ReferenceClock()
    with one_core() as pinned:
        clock.sample()
        results.update(bench_engine(decisions, seed=seed))
        clock.sample()
        results["engine_decisions_per_s_3p"] = bench_engine(decisions, players=3, seed=seed)["engine_decisions_per_s"]
        results.update(jit_warm_up(seed=seed))  # before anything that encodes an observation is timed
        env_note = "not measured (--no-env)"
        if with_env and env_available():
            clock.sample()
            results.update(bench_env(decisions, seed=seed))
            clock.sample()
            results["env_last_decisions_per_s_3p"] = bench_env_last(decisions, players=3, seed=seed)
            clock.sample()
            results["wrapped_env_decisions_per_s_3p"] = bench_env_last(decisions, players=3, seed=seed, wrapped=True)
            clock.sample()
            results["env_last_decisions_per_s_solo"] = bench_env_last(
                decisions, players=1, seed=seed, automa=SOLO_AUTOMA
            )
            if observation_encoder() != "numpy":  # the figure without numba, for comparison
                clock.sample()
                results["env_last_decisions_per_s_3p_numpy"] = bench_env_last(
                    decisions, players=3, seed=seed, compiled=False
                )
            env_note = "measured"
        elif with_env:
            env_note = "aoi_env.env not importable"
        clock.sample()
        results.update(bench_games(players, games, seed=seed))
        clock.sample()
        results.update(bench_clone_and_observation(seed=seed))
        results.update(bench_memory(seed=seed))
        if with_vector:
            clock.sample()
            results["vector_decisions_per_s_3p_1proc"] = bench_vector(decisions, seed=seed, workers=1)
        clock.sample()
    results.update(clock.results())
    if with_vector:  # two processes on (up to) two cores: not pinned
        results["vector_decisions_per_s_3p_2proc"] = bench_vector(2 * decisions, seed=seed, workers=2)
    meta = metadata()
    meta.update({"affinity": pinned, "env": env_note, "games": games, "decisions": decisions, "seed": seed})
    meta["engine"] = "compiled (Cython)" if engine_compiled() else "Python"  # AOI_ENV_COMPILE=1 builds
    meta["observation_encoder"] = observation_encoder()  # observation_us is measured with it, env or not
    return {"meta": meta, "results": results}


def measure_instruction_counts(decisions: int, seed: int = 0, with_env: bool = True) -> dict[str, Any]:
    """Instructions per decision of the 3-player engine, ``raw_env`` and solo ``raw_env`` sections,
    counted by valgrind."""
    from aoi_env.bench_instructions import WORKLOADS, measure_instructions

    count_env = with_env and env_available()
    names = tuple(n for n in WORKLOADS if count_env or "env" not in n)
    results = measure_instructions(decisions, seed, names)
    meta = metadata()
    meta.update({"affinity": "counted by valgrind (callgrind)", "env": "counted" if count_env else "not counted",
                 "decisions": decisions, "seed": seed, "observation_encoder": observation_encoder()})  # fmt: skip
    meta["engine"] = "compiled (Cython)" if engine_compiled() else "Python"
    return {"meta": meta, "results": results}


UNITS = {
    "per_s": "1/s", "compile_s": "s", "_us": "µs", "_kib": "KiB", "_mib": "MiB", "bytes": "B", "per_game": "decisions",
    "_mops": "M/s", "_pct": "%", "instructions_per": "instr",
}  # fmt: skip


def unit(name: str) -> str:
    return next((u for k, u in UNITS.items() if k in name), "")


def steady(doc: dict[str, Any] | None) -> bool:
    """Whether the run's reference samples stayed within ``STEADY_SPREAD_PCT`` of each other."""
    spread = (doc or {}).get("results", {}).get(SPREAD)
    return isinstance(spread, (int, float)) and not isinstance(spread, bool) and spread <= STEADY_SPREAD_PCT


def machine_ratio(doc: dict[str, Any], old: dict[str, Any] | None) -> float | None:
    """New over old ``reference_python_mops``: how much faster the interpreter and machine ran
    the fixed reference loop; None unless both runs have it and were steady (a run whose
    machine changed speed midway has no one speed to divide by)."""
    new_ref = doc.get("results", {}).get(REFERENCE)
    old_ref = (old or {}).get("results", {}).get(REFERENCE)
    if not isinstance(new_ref, (int, float)) or not isinstance(old_ref, (int, float)) or new_ref <= 0 or old_ref <= 0:
        return None
    if not (steady(doc) and steady(old)):
        return None
    return new_ref / old_ref


def adjusted_ratio(name: str, ratio: float, machine: float | None) -> float | None:
    """``ratio`` (new / old) with the machine's speed change taken out: a rate divided by the
    reference loop's ratio, a time multiplied by it; None for sizes, memory and the reference."""
    if machine is None:
        return None
    if any(k in name for k in HIGHER_IS_BETTER):
        return ratio / machine
    if any(k in name for k in TIME_PARTS):
        return ratio * machine
    return None


def format_table(doc: dict[str, Any], old: dict[str, Any] | None = None) -> str:
    meta = doc["meta"]
    commit = (meta.get("commit") or "no git")[:12] + (" (dirty)" if meta.get("dirty") else "")
    lines = [
        f"aoi-env {meta['package']} @ {commit}; python {meta['python']}, numpy {meta['numpy']}; "
        f"{meta['affinity']}; env: {meta['env']}"
        + (f"; engine: {meta['engine']}" if meta.get("engine") else "")
        + (f"; observation: {meta['observation_encoder']}" if meta.get("observation_encoder") else "")
        + (f"; load average {meta['loadavg'][0]:.1f}" if meta.get("loadavg") else "")
    ]
    old_results = (old or {}).get("results", {})
    machine = machine_ratio(doc, old)
    width = max(len(k) for k in doc["results"])
    header = f"{'metric'.ljust(width)}  {'value':>12}  unit"
    if old is not None:
        old_commit = str(old.get("meta", {}).get("commit") or "?")[:12]  # a hand-edited file: any JSON value
        header += f"   {'old':>12}  new/old ({old_commit})"
    lines += [header, "-" * len(header)]
    for name, value in doc["results"].items():
        line = f"{name.ljust(width)}  {value:12.1f}  {unit(name)}"
        if old is not None:
            prev = old_results.get(name)
            if prev:
                ratio = value / prev
                adjusted = adjusted_ratio(name, ratio, machine)
                judged = ratio if adjusted is None else adjusted  # the verdict takes the machine out
                mark = ""
                if abs(judged - 1) >= 0.05 and any(k in name for k in HIGHER_IS_BETTER + LOWER_IS_BETTER):
                    better = any(k in name for k in HIGHER_IS_BETTER) == (judged > 1)
                    mark = " better" if better else " worse"
                line = line.ljust(width + 2 + 12 + 2 + 10) + f"   {prev:12.1f}  {ratio:6.2f}x"
                line += (f"  adjusted {adjusted:5.2f}x" if adjusted is not None else "") + mark
        lines.append(line)
    if machine is not None:
        lines.append(
            f"machine: the reference loop ({REFERENCE}) ran {machine:.2f}x as fast as in the old run; "
            "'adjusted' divides a rate's ratio by it and multiplies a time's, and the verdicts use it"
        )
    for label, run in (("this run", doc), ("the old run", old)):
        spread = (run or {}).get("results", {}).get(SPREAD)
        if isinstance(spread, (int, float)) and not steady(run):
            lines.append(
                f"unsteady machine: the reference loop's speed changed by {spread:.0f}% during {label} (over "
                f"{STEADY_SPREAD_PCT:.0f}%): its figures are not reliable and not adjusted; measure on an idle machine"
            )
    return "\n".join(lines)


def check_bench_document(doc: Any, where: str) -> None:
    """ValueError unless ``doc`` looks like an ``aoi bench --json`` result: a ``results`` object
    of numbers (and, if present, a ``meta`` object)."""
    results = doc.get("results") if isinstance(doc, dict) else None
    if not isinstance(results, dict) or not results:
        raise ValueError(f"{where} is not an aoi bench --json result (no 'results' object of numbers)")
    bad = [k for k, v in results.items() if isinstance(v, bool) or not isinstance(v, (int, float))]
    if bad:
        raise ValueError(f"{where} is not an aoi bench --json result: results[{bad[0]!r}] is not a number")
    if not isinstance(doc.get("meta", {}), dict):
        raise ValueError(f"{where} is not an aoi bench --json result: 'meta' is not an object")


def run_bench(
    players: Sequence[int] = (2, 3, 4, 5),
    games: int = 3,
    decisions: int = 3000,
    seed: int = 0,
    json_path: str | os.PathLike[str] | None = None,
    compare: str | os.PathLike[str] | None = None,
    with_env: bool = True,
    out: TextIO | None = None,
    with_vector: bool = True,
    instructions: bool = False,
) -> dict[str, Any]:
    """Measure, print the table (with ratios to ``compare``), write ``json_path``; returns the document.

    ``instructions``: count instructions per decision under valgrind instead of timing
    (``aoi_env/bench_instructions.py``): exact A/B comparisons on a machine whose speed changes."""
    for p in players:
        if not 2 <= p <= 5:
            raise ValueError(f"player counts must be 2..5, got {p}")
    if games < 1 or decisions < 1:
        raise ValueError(f"games and decisions must be at least 1, got games {games} and decisions {decisions}")
    try:
        old = json.loads(Path(compare).read_text(encoding="utf-8")) if compare else None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ValueError(f"cannot read the --compare file {compare}: {err}") from None
    if old is not None:
        check_bench_document(old, f"the --compare file {compare}")  # before minutes of measuring
    if instructions:
        doc = measure_instruction_counts(decisions, seed, with_env)
    else:
        doc = measure(players, games, decisions, seed, with_env, with_vector)
    print(format_table(doc, old), file=out or sys.stdout)
    if json_path:
        Path(json_path).parent.mkdir(parents=True, exist_ok=True)
        Path(json_path).write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    return doc
