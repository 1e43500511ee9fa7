"""``aoi bench`` (issue 8 item 4) on tiny sizes, and the import hygiene of the tool commands."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import weakref
from pathlib import Path

import pytest

from aoi_env.bench import ReferenceClock, format_table, one_core, reference_work, run_bench, start_clock
from aoi_env.cli import main
from aoi_env.compiled import engine_compiled

METRICS = ("reference_python_mops", "engine_decisions_per_s", "games_per_s_2p", "decisions_per_game_2p", "clone_us",
           "action_mask_us", "state_bytes", "tracemalloc_peak_kib")  # fmt: skip


def test_bench_measures_everything_and_writes_comparable_json(tmp_path: Path, capsys):
    path = tmp_path / "bench.json"
    code = main(["bench", "--players", "2", "--games", "1", "--decisions", "60", "--json", str(path)])
    assert code == 0
    doc = json.loads(path.read_text())
    for name in METRICS:
        assert doc["results"][name] > 0, name
    assert "env_decisions_per_s" in doc["results"]  # the PettingZoo layer is importable here
    assert doc["results"]["env_last_decisions_per_s_solo"] > 0  # one player against the Automa (issue 10)
    assert "observation_us" in doc["results"]
    meta = doc["meta"]
    assert {"commit", "dirty", "python", "numpy", "platform", "affinity"} <= set(meta)
    assert meta["python"] == ".".join(map(str, sys.version_info[:3]))
    assert meta["engine"] == ("compiled (Cython)" if engine_compiled() else "Python")  # issue 10
    out = capsys.readouterr().out
    assert "engine_decisions_per_s" in out and f"engine: {meta['engine']}" in out


def test_bench_compare_prints_new_over_old_ratios(tmp_path: Path):
    doc = {"meta": {"package": "0", "commit": "abc", "python": "3", "numpy": "2", "affinity": "-", "env": "-"},
           "results": {"engine_decisions_per_s": 200.0, "clone_us": 10.0, "state_bytes": 100.0}}  # fmt: skip
    old = {"meta": {"commit": "0123456789abcdef"},
           "results": {"engine_decisions_per_s": 100.0, "clone_us": 20.0, "state_bytes": 100.0}}  # fmt: skip
    text = format_table(doc, old)
    lines = {line.split()[0]: line for line in text.splitlines()[3:]}
    assert lines["engine_decisions_per_s"].endswith("2.00x better")  # 200 / 100, higher is better
    assert lines["clone_us"].endswith("0.50x better")  # 10 / 20 µs, lower is better
    assert lines["state_bytes"].endswith("1.00x")  # a size: no verdict
    assert "new/old (0123456789ab)" in text
    hand_edited = old | {"meta": {"commit": 12345}}  # any JSON value: printed, not sliced (TypeError)
    assert "new/old (12345)" in format_table(doc, hand_edited)


def test_issue10_compare_takes_the_machine_out_with_the_reference_loop():
    """Two steady runs on machines of different speed: with ``reference_python_mops`` in both, the
    speed ratios are also shown divided by the reference loop's ratio (times multiplied by it) and
    the verdict uses that; sizes, memory and the reference itself get no adjusted ratio."""
    meta = {"package": "0", "commit": "abc", "python": "3", "numpy": "2", "affinity": "-", "env": "-"}
    doc = {"meta": meta, "results": {"reference_python_mops": 4.0, "reference_spread_pct": 3.0,
                                     "engine_decisions_per_s": 90.0, "clone_us": 12.0, "jit_compile_s": 2.0,
                                     "max_rss_mib": 100.0, "state_bytes": 10.0}}  # fmt: skip
    old = {"meta": {"commit": "old"}, "results": {"reference_python_mops": 8.0, "reference_spread_pct": 5.0,
                                                  "engine_decisions_per_s": 150.0, "clone_us": 6.0,
                                                  "jit_compile_s": 1.0, "max_rss_mib": 100.0,
                                                  "state_bytes": 10.0}}  # fmt: skip
    text = format_table(doc, old)
    lines = {line.split()[0]: line for line in text.splitlines()[3:]}
    # the machine ran the reference loop at half the speed: 90 / 150 = 0.60 raw, 1.20 adjusted
    assert lines["engine_decisions_per_s"].endswith("0.60x  adjusted  1.20x better")
    assert lines["clone_us"].endswith("2.00x  adjusted  1.00x")  # 12 / 6 µs at half speed: no change
    assert lines["jit_compile_s"].endswith("2.00x  adjusted  1.00x")
    assert lines["max_rss_mib"].endswith("1.00x") and "adjusted" not in lines["max_rss_mib"]
    for name in ("reference_python_mops", "reference_spread_pct", "state_bytes"):
        assert "adjusted" not in lines[name], name
    assert text.splitlines()[-1].startswith("machine: the reference loop (reference_python_mops) ran 0.50x")
    assert "unsteady" not in text
    without = {"meta": {"commit": "older"}, "results": {"engine_decisions_per_s": 150.0}}  # a file from before it
    text = format_table(doc, without)
    assert "adjusted" not in text and "machine:" not in text
    assert text.splitlines()[3 + 2].endswith("0.60x worse")  # the raw verdict, as before


def test_issue10_an_unsteady_run_is_flagged_and_not_adjusted():
    """A run whose reference samples differ by more than 10% (the machine changed speed midway:
    one run here measured its engine at the old speed and its env at half of it) says so under
    the table, alone or in a comparison, and no ratio is adjusted by its one median."""
    meta = {"package": "0", "commit": "abc", "python": "3", "numpy": "2", "affinity": "-", "env": "-"}
    doc = {"meta": meta, "results": {"reference_python_mops": 4.5, "reference_spread_pct": 38.0,
                                     "engine_decisions_per_s": 90.0}}  # fmt: skip
    old = {"meta": {"commit": "old"}, "results": {"reference_python_mops": 6.6, "reference_spread_pct": 4.0,
                                                  "engine_decisions_per_s": 100.0}}  # fmt: skip
    alone = format_table(doc)
    assert alone.splitlines()[-1].startswith(
        "unsteady machine: the reference loop's speed changed by 38% during this run"
    )
    compared = format_table(doc, old)
    assert "x  adjusted" not in compared and "\nmachine: the reference loop" not in compared
    assert "during this run" in compared and "during the old run" not in compared
    assert "during the old run" in format_table(old | {"meta": meta}, doc)


def test_issue10_the_reference_loop_is_fixed_work_sampled_between_sections():
    """The reference loop does the same work every time (a fixed result); the clock reports the
    median of its samples and their spread; a real run samples it more than once."""
    assert reference_work(1000) == reference_work(1000) != reference_work(999)
    clock = ReferenceClock()
    clock.samples = [4.0, 5.0, 4.5]
    assert clock.results() == {"reference_python_mops": 4.5, "reference_spread_pct": pytest.approx(100 / 4.5)}
    clock.sample()
    assert len(clock.samples) == 4 and clock.samples[-1] > 0


def test_bench_runs_on_one_core_and_restores_the_affinity():
    if not hasattr(os, "sched_getaffinity"):
        with one_core() as note:
            assert note.startswith("not pinned")
        return
    before = os.sched_getaffinity(0)
    with one_core() as note:
        assert len(os.sched_getaffinity(0)) == 1 and note.startswith("pinned to cpu")
    assert os.sched_getaffinity(0) == before


def test_bench_without_env():
    doc = run_bench(players=[3], games=1, decisions=30, with_env=False, out=io.StringIO())
    assert "env_decisions_per_s" not in doc["results"]
    assert doc["meta"]["env"] == "not measured (--no-env)"
    assert "jit_compile_s" in doc["results"]  # compiled before observation_us is timed, env or not


def test_cli_bench_bad_player_count_exits_2(capsys):
    assert main(["bench", "--players", "7"]) == 2
    assert "player counts must be 2..5" in capsys.readouterr().err


def test_cli_bench_compare_file_that_is_no_bench_result_exits_2_before_measuring(tmp_path: Path, capsys, monkeypatch):
    """A --compare file that is not an ``aoi bench --json`` result is a one-line error (exit 2)
    before the minutes of measuring, not a traceback after them."""
    import aoi_env.bench as bench

    def measure(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        raise AssertionError("measured before checking the --compare file")

    monkeypatch.setattr(bench, "measure", measure)
    cases = {
        "list": ([1, 2], "no 'results' object of numbers"),
        "no results": ({"a": 1}, "no 'results' object of numbers"),
        "a string": ({"results": {"engine_decisions_per_s": "fast"}}, "results['engine_decisions_per_s'] is not"),
        "meta": ({"results": {"clone_us": 2.0}, "meta": []}, "'meta' is not an object"),
    }
    for name, (body, message) in cases.items():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(body), encoding="utf-8")
        assert main(["bench", "--compare", str(path)]) == 2, name
        err = capsys.readouterr().err
        assert message in err and "is not an aoi bench --json result" in err and "Traceback" not in err, err


LAZY = [  # (module, top-level packages it must not pull in), imported in this order in one process
    ("aoi_env.cli", ("train", "matplotlib", "openskill", "tqdm", "torch", "aoi_env.bench")),
    ("aoi_env.bench", ("torch", "matplotlib")),
    ("train.replay", ("torch", "matplotlib")),
    ("train.tournament", ("torch", "matplotlib")),
    ("train.balance", ("torch", "matplotlib")),
]


def test_tool_imports_stay_lazy():
    """`aoi --version` stays fast: the CLI imports no tool module; no tool imports torch, and
    matplotlib is only imported when plots are written.  (Imports accumulate in one process, so
    each check also covers the modules imported before it.)"""
    code = "import sys, importlib\n" + "".join(
        f"importlib.import_module({module!r})\n"
        f"print({module!r}, sorted(m for m in sys.modules if m.split('.')[0] in {bad!r} or m in {bad!r}))\n"
        for module, bad in LAZY
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == [f"{module} []" for module, _ in LAZY]


def test_issue10_each_timed_section_starts_after_a_garbage_collection():
    """start_clock collects earlier garbage first (cycles included), so a full collection of it
    cannot land inside a short timed window (a 90 ms pause in a 0.3 s window of 5-player games)."""

    class Node:
        pass

    a, b = Node(), Node()
    a.other, b.other = b, a  # a reference cycle: only the cyclic collector frees it
    alive = weakref.ref(a)
    del a, b
    t0 = start_clock()
    assert alive() is None
    assert isinstance(t0, float)


def test_style515_bench_sizes_below_one_are_named_with_their_values():
    """'games and decisions must be at least 1' did not say which value was wrong."""
    import pytest

    with pytest.raises(ValueError, match="at least 1, got games 0 and decisions 3000"):
        run_bench(games=0)
    with pytest.raises(ValueError, match="at least 1, got games 3 and decisions -5"):
        run_bench(decisions=-5)


def test_issue10_the_bench_picks_uniformly_and_reproducibly():
    """The timed loops' random choice (``UniformPicks``, a batch of uniform floats drawn ahead
    instead of one ``Generator.integers`` call per decision): every index below n, each about
    equally often, across batch refills, and the same sequence for the same seed."""
    from aoi_env.bench import UniformPicks

    picks = UniformPicks(7, batch=64)  # small batches: the refill runs many times
    draws = [picks.pick(5) for _ in range(5000)]
    assert set(draws) == {0, 1, 2, 3, 4}
    counts = [draws.count(i) for i in range(5)]
    assert all(900 < c < 1100 for c in counts), counts  # 1000 expected each (s.d. 28); the seed fixes them
    assert [picks.pick(1) for _ in range(100)] == [0] * 100
    again = UniformPicks(7, batch=64)
    assert [again.pick(5) for _ in range(5000)] == draws
    assert [UniformPicks(8, batch=64).pick(5) for _ in range(50)] != draws[:50]


def test_issue10_the_solo_section_plays_against_the_automa(monkeypatch: pytest.MonkeyPatch):
    """``env_last_decisions_per_s_solo``: the bench's ``raw_env`` loop with one player and the
    Automa (``SOLO_AUTOMA``) as the second seat; a bad Automa is a ValueError naming it."""
    import importlib

    from aoi_env import bench

    env_module = importlib.import_module("aoi_env.env")  # the package's ``env`` is the function
    raw_env, made = env_module.raw_env, []

    def spy(**kwargs):
        made.append(kwargs)
        return raw_env(**kwargs)

    monkeypatch.setattr(env_module, "raw_env", spy)
    assert bench.bench_env_last(40, players=1, seed=3, automa=bench.SOLO_AUTOMA) > 0
    assert made == [{"num_players": 1, "automa": "simpletons:3"}]
    with pytest.raises(ValueError, match="nobody"):
        bench.bench_env_last(5, players=1, automa="nobody:3")
