"""docs/rules.md is the table of contents of the rule ids the repository cites (R1-R146, OP-1-OP-64).

The rules specification lives outside the repository, so a user who meets "R42" in a test name,
a docstring or an error message looks it up there; these tests keep that page complete and
keep the repository from citing an id the page does not list.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
INDEX = ROOT / "docs" / "rules.md"
SOURCES = ("aoi_env", "agents", "train", "tests", "docs", "configs", "README.md")
SUFFIXES = {".py", ".pyx", ".pxd", ".md", ".yaml"}
RULE = re.compile(r"(?<![A-Za-z0-9_])R(\d+)(?![0-9])")
TEST_NAME_RULE = re.compile(r"def test_r(\d+)_")
OPEN_POINT = re.compile(r"OP-(\d+)")


def _index_rows(prefix: str) -> list[int]:
    return [int(n) for n in re.findall(rf"^\| {prefix}(\d+) \|", INDEX.read_text(), flags=re.M)]


def _repository_texts() -> list[tuple[Path, str]]:
    out = []
    for name in SOURCES:
        path = ROOT / name
        files = [path] if path.is_file() else sorted(f for f in path.rglob("*") if f.suffix in SUFFIXES)
        out += [(f, f.read_text(encoding="utf-8", errors="replace")) for f in files if f != INDEX]
    return out


def test_index_lists_every_rule_and_open_point_once() -> None:
    assert _index_rows("R") == list(range(1, 147))
    assert _index_rows("OP-") == list(range(1, 65))


def test_every_cited_id_is_in_the_index() -> None:
    rules, open_points = set(_index_rows("R")), set(_index_rows("OP-"))
    unknown = []
    for path, text in _repository_texts():
        cited_rules = {int(n) for n in RULE.findall(text)} | {int(n) for n in TEST_NAME_RULE.findall(text)}
        unknown += [f"{path.relative_to(ROOT)}: R{n}" for n in sorted(cited_rules - rules)]
        unknown += [
            f"{path.relative_to(ROOT)}: OP-{n}"
            for n in sorted({int(n) for n in OPEN_POINT.findall(text)} - open_points)
        ]
    assert not unknown, unknown


def test_every_rule_and_open_point_is_cited_by_a_test() -> None:
    tests = "\n".join(
        text
        for path, text in _repository_texts()
        if path.is_relative_to(ROOT / "tests") and path.suffix == ".py" and path != Path(__file__).resolve()
    )
    cited_rules = {int(n) for n in RULE.findall(tests)} | {int(n) for n in re.findall(r"test_r(\d+)_", tests)}
    cited_open_points = {int(n) for n in re.findall(r"(?:OP-|test_op)(\d+)", tests)}
    assert set(range(1, 147)) - cited_rules == set()
    assert set(range(1, 65)) - cited_open_points == set()
