"""``aoi bench --instructions`` (issue 10): instructions per decision counted under valgrind.

The counting runs a fresh interpreter under callgrind (~7 s for the engine section), so these
tests count the 3-player engine only, on a few dozen decisions; the ``raw_env`` section works the
same way with numba's compile before the counting (about 45 s under valgrind, not run here)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import aoi_env.bench_instructions as bench_instructions
from aoi_env.bench import format_table
from aoi_env.bench_instructions import count_instructions, valgrind_missing
from aoi_env.cli import main

ENGINE = "engine_instructions_per_decision_3p"
needs_valgrind = pytest.mark.skipif(valgrind_missing() is not None, reason=str(valgrind_missing()))


@needs_valgrind
def test_issue10_an_instruction_count_is_the_same_in_every_run_and_grows_with_the_work():
    """The point of counting: two runs of the same work give the same number to the instruction
    (wall-clock rates on this machine moved by 23-46% within one run), also while another process
    loads the CPU (counting between two outside switches moved by up to ~14,000 on some runs of
    an oversubscribed machine, and once 30,000 when the switch read pipes; only the section's
    ``exec`` is collected now), and more decisions count more (the count is the section's work,
    not a constant overhead)."""
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        first = count_instructions(ENGINE, 40)
        assert count_instructions(ENGINE, 40) == first
    finally:
        busy.kill()
        busy.wait()
    more = count_instructions(ENGINE, 80)
    per_decision = (more - first) / 40
    assert 20_000 < per_decision < 2_000_000, per_decision  # a decision is 10^5 instructions, give or take


@needs_valgrind
def test_issue10_a_count_that_collected_nothing_is_a_clear_error(monkeypatch):
    """Only the section inside ``exec``'s ``PyEval_EvalCode`` is collected; an interpreter whose
    symbol valgrind cannot see would count 0, which is refused by name instead of reported."""
    monkeypatch.setattr(bench_instructions, "_COLLECTED_FUNCTION", "no_such_function_in_python")
    with pytest.raises(RuntimeError, match="collected nothing: .* no no_such_function_in_python symbol"):
        count_instructions(ENGINE, 1)


@needs_valgrind
def test_issue10_cli_bench_instructions_writes_a_comparable_json(tmp_path: Path, capsys):
    path = tmp_path / "instructions.json"
    assert main(["bench", "--instructions", "--no-env", "--decisions", "30", "--json", str(path)]) == 0
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert list(doc["results"]) == [ENGINE]  # --no-env: the raw_env section is not counted
    assert doc["results"][ENGINE] > 20_000
    assert doc["meta"]["affinity"] == "counted by valgrind (callgrind)" and doc["meta"]["decisions"] == 30
    out = capsys.readouterr().out
    assert ENGINE in out and "instr" in out


def test_issue10_fewer_instructions_compare_as_better():
    """An instruction count is lower-is-better and is not a time: ``--compare`` judges its ratio as
    it is (no machine adjustment, there is no reference loop in a counted run)."""
    meta = {"package": "0", "commit": "abc", "python": "3", "numpy": "2", "affinity": "-", "env": "-"}
    new = {"meta": meta, "results": {ENGINE: 180_000.0, "env_last_instructions_per_decision_3p": 400_000.0}}
    old = {"meta": meta, "results": {ENGINE: 200_000.0, "env_last_instructions_per_decision_3p": 360_000.0}}
    lines = {line.split()[0]: line for line in format_table(new, old).splitlines()[3:]}
    assert "instr" in lines[ENGINE] and lines[ENGINE].endswith("0.90x better")
    assert lines["env_last_instructions_per_decision_3p"].endswith("1.11x worse")
    assert "adjusted" not in lines[ENGINE]


def test_issue10_counting_without_valgrind_is_a_clear_error(monkeypatch, capsys):
    monkeypatch.setattr(bench_instructions.shutil, "which", lambda tool: None)
    assert main(["bench", "--instructions", "--no-env", "--decisions", "10"]) == 2
    err = capsys.readouterr().err
    assert "valgrind and callgrind_control not found" in err and "Traceback" not in err


def test_issue10_bad_instruction_workloads_are_named():
    with pytest.raises(ValueError, match="unknown instruction workload 'engine'"):
        count_instructions("engine", 10)
    with pytest.raises(ValueError, match="decisions must be at least 1, got 0"):
        count_instructions(ENGINE, 0)
