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
counting on with ``callgrind_control -i on``, runs the section with the bench's seed and switches
it off: the count is the timed section of ``aoi bench`` plus the switch (~0.34 million, the same
in every run: ``_counting`` waits in one system call).
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
COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def _counting(on: bool) -> None:
    """Switch callgrind's counting of this process on or off (``callgrind_control`` reaches it
    through valgrind's gdbserver while this process waits for the call).

    The wait must be one blocking system call: the switch lands at a moment that depends on the
    machine's load, and with the output read through pipes (``capture_output``) this process ran
    a reading loop meanwhile, a number of rounds that changed with the load (two counts of one
    tree differed by 30,000 instructions in a loaded CI run).  So the tool's output goes to a
    file and this process only waits for it to exit."""
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
    _counting(True)
    work(decisions, seed)
    _counting(False)


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
            "valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={tmp}/callgrind.out",
            sys.executable, "-m", "aoi_env.bench_instructions", name, str(decisions), str(seed),
        ]  # fmt: skip
        env = dict(os.environ, PYTHONHASHSEED="0")  # str hashes, hence set and dict orders, fixed
        done = subprocess.run(command, capture_output=True, text=True, env=env)
    counts = COLLECTED.findall(done.stderr)
    if done.returncode != 0 or not counts:
        tail = "\n".join(done.stderr.strip().splitlines()[-5:])
        raise RuntimeError(f"counting {name} under valgrind failed (exit {done.returncode}):\n{tail}")
    return int(counts[-1])


def measure_instructions(
    decisions: int = 2000, seed: int = 0, names: tuple[str, ...] = tuple(WORKLOADS)
) -> dict[str, float]:
    """``{workload: instructions per decision}`` for ``names`` (about 5 s of valgrind per 1,000 decisions)."""
    return {name: count_instructions(name, decisions, seed) / decisions for name in names}


if __name__ == "__main__":  # the counted process (see count_instructions)
    run_workload(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
