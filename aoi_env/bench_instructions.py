"""``aoi bench --instructions``: machine instructions per decision, counted by valgrind's callgrind.

Why: the wall-clock rates of ``aoi bench`` move by tens of percent from one minute to the next
on a shared machine (``reference_spread_pct`` has read 23-46%), so a change worth 3% cannot be
seen in them.  The number of instructions the same work executes does not depend on what else
the machine does: with the same seeds and ``PYTHONHASHSEED`` fixed, two runs of one tree give
the same count to the instruction, and two trees give an exact A/B.  It is not time (cache
misses, branch mispredictions and the cost of each instruction are not in it), so a change is
judged by the count and confirmed by the timed bench.

How: each workload runs in its own ``python -m aoi_env.bench_instructions`` process under
``valgrind --tool=callgrind --instr-atstart=no``.  The process first runs the same section with
another seed (imports, the data, numba's compile and the caches are warm, none of it counted),
then freezes the objects it has made (``gc.freeze``: the section's own ``gc.collect`` then does
not walk the ~10 million instructions' worth of numba's and the warm-up's objects), switches
instrumentation on with ``callgrind_control -i on``, runs the section with the bench's seed and
switches it off.  Only what runs inside the section is *collected*: it runs through ``exec``,
and callgrind collects only inside CPython's ``PyEval_EvalCode`` (``--collect-atstart=no
--toggle-collect``), which ``exec`` calls once and the section never calls again.  So the count
is the timed section of ``aoi bench`` alone, exact even on a machine with more runnable
processes than cores: there the outside switch lands at a moment that depends on the load, and
counting between the two switches (up to the thirty-first session) moved by up to ~14,000 on
some runs (docs/performance.md, "Counting instructions instead of timing").
"""

from __future__ import annotations

import gc
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable

from aoi_env import bench

WARM_UP_DECISIONS = 300  # a game and a half: every kind of decision has run once before counting


def _engine_3p(decisions: int, seed: int) -> None:
    bench.bench_engine(decisions, players=3, seed=seed)


def _env_last_3p(decisions: int, seed: int) -> None:
    bench.bench_env_last(decisions, players=3, seed=seed)


def _env_last_solo(decisions: int, seed: int) -> None:
    bench.bench_env_last(decisions, players=1, seed=seed, automa=bench.SOLO_AUTOMA)


WORKLOADS: dict[str, Callable[[int, int], None]] = {
    "engine_instructions_per_decision_3p": _engine_3p,  # = engine_decisions_per_s_3p's section
    "env_last_instructions_per_decision_3p": _env_last_3p,  # = env_last_decisions_per_s_3p's section
    "env_last_instructions_per_decision_solo": _env_last_solo,  # = env_last_decisions_per_s_solo's section
}
_COLLECTED_FUNCTION = "PyEval_EvalCode"
COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def _counting(on: bool) -> None:
    """Switch callgrind's instrumentation of this process on or off (``callgrind_control``
    reaches it through valgrind's gdbserver while this process waits for the call): off, the
    warm-up runs at valgrind's uninstrumented speed.  The switch lands at a moment that depends
    on the machine's load, so it decides nothing about the count: only the section inside
    ``exec`` is collected (module docstring).  (When the switch did decide it, reading the tool's
    output through pipes made two counts of one tree differ by 30,000 in a loaded CI run.)"""
    flag = "on" if on else "off"
    with tempfile.TemporaryFile("w+") as out:
        code = subprocess.call(["callgrind_control", "-i", flag, str(os.getpid())], stdout=out, stderr=out)
        if code != 0:
            out.seek(0)
            raise RuntimeError(f"callgrind_control -i {flag} failed: {out.read().strip()}")


def run_workload(name: str, decisions: int, seed: int) -> None:
    """The body of the counted process: warm up, count ``decisions`` of workload ``name``."""
    work = WORKLOADS[name]
    work(WARM_UP_DECISIONS, seed + 1_000_003)
    gc.collect()
    gc.freeze()  # the section's own gc.collect() (bench.start_clock) then walks only its new objects
    _counting(True)  # instrumentation on; collection only inside exec's PyEval_EvalCode (module docstring)
    exec(_SECTION, {"work": work, "decisions": decisions, "seed": seed})
    _counting(False)


_SECTION = compile("work(decisions, seed)", "<counted section>", "exec")
"""The counted section as code for ``exec``: its one ``PyEval_EvalCode`` call is what callgrind collects."""


def valgrind_missing() -> str | None:
    """Why instructions cannot be counted here, or None when they can."""
    missing = [tool for tool in ("valgrind", "callgrind_control") if shutil.which(tool) is None]
    if missing:
        return f"{' and '.join(missing)} not found: counting instructions needs valgrind (Debian package valgrind)"
    return None


def count_instructions(name: str, decisions: int, seed: int = 0) -> int:
    """Instructions executed by ``decisions`` decisions of workload ``name`` (see the module docstring)."""
    if name not in WORKLOADS:
        raise ValueError(f"unknown instruction workload {name!r}; known: {', '.join(WORKLOADS)}")
    if decisions < 1:
        raise ValueError(f"decisions must be at least 1, got {decisions}")
    why = valgrind_missing()
    if why:
        raise ValueError(why)
    with tempfile.TemporaryDirectory() as tmp:
        command = [
            "valgrind", "--tool=callgrind", "--instr-atstart=no", "--collect-atstart=no",
            f"--toggle-collect={_COLLECTED_FUNCTION}", f"--callgrind-out-file={tmp}/callgrind.out",
            sys.executable, "-m", "aoi_env.bench_instructions", name, str(decisions), str(seed),
        ]  # fmt: skip
        env = dict(os.environ, PYTHONHASHSEED="0")  # str hashes, hence set and dict orders, fixed
        done = subprocess.run(command, capture_output=True, text=True, env=env)
    counts = COLLECTED.findall(done.stderr)
    if done.returncode != 0 or not counts:
        tail = "\n".join(done.stderr.strip().splitlines()[-5:])
        raise RuntimeError(f"counting {name} under valgrind failed (exit {done.returncode}):\n{tail}")
    if int(counts[-1]) == 0:  # an interpreter whose PyEval_EvalCode valgrind cannot see (no symbol)
        raise RuntimeError(
            f"counting {name} under valgrind collected nothing: this interpreter ({sys.executable}) "
            f"shows valgrind no {_COLLECTED_FUNCTION} symbol to collect inside"
        )
    return int(counts[-1])


def measure_instructions(
    decisions: int = 2000, seed: int = 0, names: tuple[str, ...] = tuple(WORKLOADS)
) -> dict[str, float]:
    """``{workload: instructions per decision}`` for ``names`` (about 5 s of valgrind per 1,000 decisions)."""
    return {name: count_instructions(name, decisions, seed) / decisions for name in names}


if __name__ == "__main__":  # the counted process (see count_instructions)
    run_workload(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
