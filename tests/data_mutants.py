"""The component-data mutation audit: does some test fail when one number of the data changes?

``python tests/data_mutants.py [--file components.yaml] [--only palace_tiles] [--kinds plus off
delete] [--again earlier.json] [--tests components maps] [--workers 2] [--json out.json]`` makes
mutants of the data file (each integer raised by one, each 1 also set to 0, each boolean
flipped, each part of a component deleted), runs the component and rule tests on each (a fresh
process, the mutant loaded instead of the shipped file; ``--tests`` names other test paths, or a
data file's own tests by its name) and prints the mutants no test failed on. Every number of
every component should be pinned by a test that plays it: a survivor is a component effect the
suite does not check (or an equivalent mutant, e.g. a piece count no game can reach).
``tests/test_data.py`` (the printed values typed again) runs apart, so a mutant killed by it
alone shows as "pinned only": the value is right, its effect untested.

Not collected by pytest (no ``test_`` prefix); the mutant is handed to the test process by
``AOI_DATA_MUTANT`` and applied by this module's ``pytest_configure`` (``-p data_mutants``)
before anything loads the data.  See docs/reliability-audits.md, "twentieth session".
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
ENV_VAR = "AOI_DATA_MUTANT"
FILES = ("components.yaml", "maps.yaml", "automa.yaml")
BEHAVIOUR_TESTS = {
    "components.yaml": [
        "tests/components",
        *sorted(str(p.relative_to(ROOT)) for p in (HERE / "rules").glob("test_*.py") if "oracle" not in p.name),
    ],
    "automa.yaml": sorted(str(p.relative_to(ROOT)) for p in HERE.glob("test_automa*.py")),
    "maps.yaml": ["tests/test_board.py", "tests/rules/test_r38_r40_adjacency_reach_bridges.py"],
}
"""The tests each mutant runs, per data file: the component and rule tests, the Automa's tests,
the board's (not the random-game oracles, which take minutes; ``--oracles`` adds them)."""
ORACLE_TESTS = {
    "components.yaml": sorted(str(p.relative_to(ROOT)) for p in (HERE / "rules").glob("test_oracle_*.py")),
    "automa.yaml": sorted(str(p.relative_to(ROOT)) for p in HERE.glob("test_oracle_automa_*.py")),
    "maps.yaml": ["tests/rules/test_oracle_build_targets.py"],
}
PIN_TESTS = ["tests/test_data.py"]
Path_ = tuple[Any, ...]


def mutants(raw: Any, path: Path_ = ()) -> Iterator[tuple[Path_, str, Any]]:
    """(path, what, new value or DELETE) for every value of the data: integers + 1 (a 1 also
    to 0), booleans flipped, and each part of a component (``palace_tiles.5.income``) deleted."""
    if isinstance(raw, bool):
        yield path, f"{raw} -> {not raw}", not raw
    elif isinstance(raw, int):
        yield path, f"{raw} -> {raw + 1}", raw + 1
        if raw == 1:  # most 1s are flags (an effect on or off), which a larger number leaves on
            yield path, "1 -> 0", 0
    elif isinstance(raw, dict):
        for key, value in raw.items():
            yield from mutants(value, (*path, key))
            if len(path) == 2 and isinstance(value, dict | int) and not isinstance(value, bool):
                yield (*path, key), "deleted", DELETE
    elif isinstance(raw, list):
        for i, value in enumerate(raw):
            yield from mutants(value, (*path, i))


DELETE = "<delete>"


def apply(raw: Any, path: Path_, value: Any) -> Any:
    """A deep copy of ``raw`` with the value at ``path`` replaced (or deleted)."""
    out = copy.deepcopy(raw)
    node = out
    for key in path[:-1]:
        node = node[key]
    if value == DELETE:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return out


def pytest_configure(config: Any) -> None:
    """In the test process: hand the loaders the mutant named by ``AOI_DATA_MUTANT`` instead of
    the shipped file.  ``yaml.safe_load`` is wrapped before anything imports ``aoi_env`` (whose
    import loads the data and derives module constants from it)."""
    spec = os.environ.get(ENV_VAR)
    if not spec:
        return
    mutant = json.loads(spec)
    assert "aoi_env" not in sys.modules, "the mutant must be in place before aoi_env is imported"
    safe_load = yaml.safe_load

    def mutated_load(stream: Any) -> Any:
        raw = safe_load(stream)
        name = Path(getattr(stream, "name", "") or "")
        if name.name == mutant["file"] and name.parent.name == "data" and name.parent.parent.name == "aoi_env":
            raw = apply(raw, tuple(mutant["path"]), mutant["value"])
        return raw

    yaml.safe_load = mutated_load


class _Failures:
    """A pytest plugin object collecting the failed tests' ids."""

    def __init__(self) -> None:
        self.failed: list[str] = []

    def pytest_runtest_logreport(self, report: Any) -> None:
        if report.failed:
            self.failed.append(report.nodeid)


def run_tests(mutant: dict[str, Any], tests: list[str]) -> list[str]:
    """The first failed test id (``-x``) of ``tests`` on the mutant (a fresh process); ["<load>"] when the data
    loader refused it, ["<crash>"] when pytest itself failed."""
    with tempfile.NamedTemporaryFile("r", suffix=".json") as out:
        code = (
            "import json, sys, pytest; sys.path.insert(0, 'tests'); import data_mutants as m; f = m._Failures();"
            f"rc = pytest.main({tests!r} + {PYTEST_ARGS!r}, plugins=[f]);"
            " json.dump({'rc': int(rc), 'failed': f.failed}, open(sys.argv[1], 'w'))"
        )
        path = os.pathsep.join(p for p in (str(HERE), os.environ.get("PYTHONPATH", "")) if p)  # keep the caller's
        env = {**os.environ, ENV_VAR: json.dumps(mutant), "PYTHONPATH": path}
        proc = subprocess.run([sys.executable, "-c", code, out.name], cwd=ROOT, env=env, capture_output=True, text=True)
        try:
            result = json.loads(Path(out.name).read_text(encoding="utf-8"))
        except (json.JSONDecodeError, FileNotFoundError):
            return ["<crash>"]
    if result["rc"] not in (0, 1):
        return ["<load>"] if "DataError" in proc.stdout + proc.stderr else ["<crash>"]
    return result["failed"]


PYTEST_ARGS = ["-x", "-q", "-o", "addopts=", "-p", "no:cacheprovider", "-p", "data_mutants"]


def loads(mutant: dict[str, Any]) -> str:
    """ "" when the loader accepts the mutant, else its error."""
    from aoi_env.core.automa import check_automa_yaml
    from aoi_env.data import DATA_DIR, parse

    raws = {name: yaml.safe_load((DATA_DIR / name).read_text(encoding="utf-8")) for name in FILES}
    raws[mutant["file"]] = apply(raws[mutant["file"]], tuple(mutant["path"]), mutant["value"])
    try:
        parse(raws["components.yaml"], raws["maps.yaml"])
        check_automa_yaml(raws["automa.yaml"])
    except (ValueError, KeyError, TypeError, IndexError, AttributeError) as err:
        return f"{type(err).__name__}: {err}"
    return ""


def audit(mutant: dict[str, Any], oracles: bool, tests: list[str] | None = None) -> dict[str, Any]:
    """The mutant's result: refused by the loader, else the first behaviour test failing on it
    (``tests``, default the file's ``BEHAVIOUR_TESTS``), and for a survivor the pin tests'."""
    refused = loads(mutant)
    if refused:
        return {**mutant, "refused": refused, "behaviour": [], "pins": []}
    tests = (tests or BEHAVIOUR_TESTS[mutant["file"]]) + (ORACLE_TESTS[mutant["file"]] if oracles else [])
    behaviour = run_tests(mutant, tests)
    pins = [] if behaviour else run_tests(mutant, PIN_TESTS)  # asked only of the survivors
    return {**mutant, "refused": "", "behaviour": behaviour, "pins": pins}


def selected_tests(names: list[str]) -> list[str]:
    """``--tests``: each name a test path, or a data file's name without ``.yaml`` for its own
    ``BEHAVIOUR_TESTS`` (``components maps``: the component and rule tests plus the board's)."""
    return [t for name in names for t in BEHAVIOUR_TESTS.get(name + ".yaml", [name])]


def kind(what: str) -> str:
    """The ``--kinds`` name of a mutant's description."""
    return "delete" if what == "deleted" else "off" if what == "1 -> 0" else "plus"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--file", default="components.yaml", choices=FILES)
    parser.add_argument("--only", nargs="*", default=[], help="top-level keys to mutate (default: all)")
    parser.add_argument(
        "--kinds", nargs="*", default=["plus", "off", "delete"], help="plus: n + 1 or a flip; off: 1 -> 0; delete"
    )
    parser.add_argument("--again", type=Path, help="an earlier --json: run only its survivors again")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--oracles", action="store_true", help="also run the random-game oracles on each mutant")
    parser.add_argument("--json", type=Path, help="write every mutant's result here")
    parser.add_argument(
        "--tests",
        nargs="*",
        default=[],
        help="test paths to run instead of the file's own (e.g. the maps' mutants "
        "against the component and rule tests: --tests components)",
    )
    args = parser.parse_args(argv)
    from aoi_env.data import DATA_DIR

    raw = yaml.safe_load((DATA_DIR / args.file).read_text(encoding="utf-8"))
    todo = [
        {"file": args.file, "path": list(path), "what": what, "value": value}
        for path, what, value in mutants(raw)
        if (not args.only or path[0] in args.only) and kind(what) in args.kinds
    ]
    if args.again:
        earlier = json.loads(args.again.read_text(encoding="utf-8"))
        todo = [
            {k: r[k] for k in ("file", "path", "what", "value")}
            for r in earlier
            if not r["refused"] and not r["behaviour"]
        ]
    tests = selected_tests(args.tests)
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover - tqdm comes with the train extra

        def tqdm(x: Any, **_: Any) -> Any:
            return x

    with ThreadPoolExecutor(args.workers) as pool:
        results = list(tqdm(pool.map(lambda m: audit(m, args.oracles, tests), todo), total=len(todo), unit="mutant"))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")
    survivors = [r for r in results if not r["refused"] and not r["behaviour"]]
    refused = sum(1 for r in results if r["refused"])
    print(
        f"{len(results)} mutants of {args.file}: {refused} refused by the loader, "
        f"{len(results) - refused - len(survivors)} failed a behaviour test, {len(survivors)} survived"
    )
    for r in survivors:
        where = ".".join(str(k) for k in r["path"])
        print(f"  {where}: {r['what']}" + ("  (pinned by tests/test_data.py)" if r["pins"] else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
