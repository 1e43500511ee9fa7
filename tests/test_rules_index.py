"""docs/rules.md is the table of contents of the rule ids the repository cites (R1-R146, OP-1-OP-64).

The rules specification lives outside the repository, so a user who meets "R42" in a test name,
a docstring or an error message looks it up there; these tests keep that page complete and
keep the repository from citing an id the page does not list.  The Automa's spec is shipped
whole (docs/AUTOMA.md), and its citations (``AUTOMA.md §3.5``) must name a part of it.
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


AUTOMA_SPEC = ROOT / "docs" / "AUTOMA.md"
AUTOMA_CITATION = re.compile(r"AUTOMA\.md §(\d+)(?:\.(\d+))?(?: #(\d+))?")


def _automa_spec_parts() -> tuple[set[tuple[int, int | None]], dict[int, set[int]], dict[int, set[int]]]:
    """docs/AUTOMA.md's sections ``(n, m)``, the numbered items of each section and the rows of
    each section's numbered table (``§10 #20``)."""
    sections: set[tuple[int, int | None]] = set()
    items: dict[int, set[int]] = {}
    rows: dict[int, set[int]] = {}
    top = None
    for line in AUTOMA_SPEC.read_text(encoding="utf-8").splitlines():
        heading = re.match(r"#{2,3} (\d+)(?:\.(\d+))?\.? ", line)
        if heading:
            top = int(heading[1])
            sections.add((top, int(heading[2]) if heading[2] else None))
        elif top is not None and (item := re.match(r"(\d+)\. ", line)):
            items.setdefault(top, set()).add(int(item[1]))
        elif top is not None and (row := re.match(r"\| (\d+) \|", line)):
            rows.setdefault(top, set()).add(int(row[1]))
    return sections, items, rows


def test_every_cited_automa_section_is_in_the_shipped_spec() -> None:
    """The code cites the Automa spec as ``AUTOMA.md §3.5`` (a section), ``§8.1`` (item 1 of
    section 8) or ``§10 #20`` (row 20 of section 10's table); docs/AUTOMA.md ships the spec, so
    every citation must name a part of it a reader can find."""
    sections, items, rows = _automa_spec_parts()
    assert (10, None) in sections and len(rows.get(10, ())) >= 30  # the parser reads the spec
    cited = 0
    for path, text in _repository_texts():
        if path == AUTOMA_SPEC:
            continue
        for match in AUTOMA_CITATION.finditer(text):
            n, m, k = int(match[1]), match[2] and int(match[2]), match[3] and int(match[3])
            where = f"{path.relative_to(ROOT)}: {match[0]}"
            assert (n, None) in sections, where
            assert m is None or (n, m) in sections or m in items.get(n, ()), where
            assert k is None or k in rows.get(n, ()), where
            cited += 1
    assert cited > 100


CONVENTIONS = ROOT / "docs" / "conventions.md"
CONVENTION_WORD = re.compile(r"\b(?:DESIGN|STYLE|ECOSYSTEM)\b")
CONVENTION_CITATION = re.compile(
    r"(DESIGN (?:§\d+|Layout|Performance|Quality)|STYLE §5\.\d+[ab]?|ECOSYSTEM (?:§\d+(?:\.\d+)?|[AP]\d+))"
)
TEST_NAME_CONVENTION = re.compile(r"def test_([ap])(\d+)_")


def _convention_rows() -> set[str]:
    return set(re.findall(r"^\| ((?:DESIGN|STYLE|ECOSYSTEM) [^|]+?) \|", CONVENTIONS.read_text(), flags=re.M))


def test_every_design_style_and_ecosystem_citation_is_on_the_conventions_page() -> None:
    """The team's design notes are not shipped; docs/conventions.md restates each part the
    repository cites.  Every mention of DESIGN, STYLE or ECOSYSTEM is a citation in the page's one
    form (``DESIGN §8``, ``STYLE §5.11``, ``ECOSYSTEM A15``) naming one of its rows, so a reader can
    look it up; test names ``test_a15_...`` / ``test_p1_...`` name the ECOSYSTEM row."""
    rows = _convention_rows()
    assert {"DESIGN §8", "STYLE §5.16", "ECOSYSTEM A20", "ECOSYSTEM P15"} <= rows  # the parser reads the page
    bad, cited = [], 0
    for path, text in _repository_texts():
        if path in (CONVENTIONS, AUTOMA_SPEC, Path(__file__).resolve()):
            continue
        for word in CONVENTION_WORD.finditer(text):
            match = CONVENTION_CITATION.match(text, word.start())
            where = f"{path.relative_to(ROOT)}: {text[word.start() : word.start() + 30]!r}"
            if match is None or match[1] not in rows:
                bad.append(where)
            cited += 1
        for letter, number in TEST_NAME_CONVENTION.findall(text):
            if f"ECOSYSTEM {letter.upper()}{number}" not in rows:
                bad.append(f"{path.relative_to(ROOT)}: test_{letter}{number}_")
    assert not bad, bad
    assert cited > 30
