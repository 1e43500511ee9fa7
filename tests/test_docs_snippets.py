"""Every Python example of the README and docs/ runs as written, and every ``aoi`` command line
they show parses (the docs are tested like code).

A block is run in a fresh namespace with the working directory in a temporary folder (examples
that write files, e.g. ``runs/game.json``, write there).  A block that is only a fragment is
marked by an HTML comment ``<!-- not run: why -->`` on the line before its fence.  A ``print``
followed by a ``# [...]`` comment must print that list (up to a ``...`` that cuts it short).
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"(?:<!-- not run: (?P<why>[^>]*) -->\n)?```python\n(?P<code>.*?)```", re.S)
PRINTED = re.compile(r"^print\((?P<expr>.*)\)\s+# (?P<shown>\[.*?\])", re.M)


def _examples() -> list[tuple[str, str | None, str]]:
    out = []
    for page in PAGES:
        for i, m in enumerate(BLOCK.finditer(page.read_text(encoding="utf-8"))):
            out.append((f"{page.name}#{i + 1}", m.group("why"), m.group("code")))
    return out


EXAMPLES = _examples()


def test_the_docs_have_examples():
    assert len(EXAMPLES) >= 9 and all(why is None for _, why, _ in EXAMPLES)


@pytest.mark.parametrize(("name", "why", "code"), EXAMPLES, ids=[name for name, _, _ in EXAMPLES])
def test_example_runs_as_written(name: str, why: str | None, code: str, tmp_path: Path, monkeypatch):
    if why is not None:
        pytest.skip(f"{name} is a fragment: {why}")
    import agents

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(agents, "_REGISTRY", dict(agents._REGISTRY))  # an example may register an agent
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, name, "exec"), {"__name__": f"docs_example_{name}"})  # noqa: S102 (our own docs)
    output = printed.getvalue()
    for m in PRINTED.finditer(code):  # the list a comment shows is in the output ("..." cuts it short)
        shown = m.group("shown").split("...")[0].rstrip(", ")
        assert shown in output, f"{name}: printed {output!r}, the doc shows {m.group('shown')}"


def _command_lines() -> list[tuple[str, str]]:
    """Every ``aoi ...`` command of a shell block (also after ``&&``), without its comment."""
    out = []
    for page in PAGES:
        fenced, lang = False, ""
        for line in page.read_text(encoding="utf-8").splitlines():
            if line.startswith("```"):
                fenced, lang = (not fenced), line[3:].strip()
                continue
            command = re.search(r"(?:^|&& )(aoi .*)$", line.strip())
            if fenced and lang in ("bash", "sh") and command:  # a block without a language shows output
                text = re.sub(r"\$\([^)]*\)", "X", command.group(1))  # a shell substitution: one word
                out.append((page.name, text.split(" #")[0].strip()))
    return out


COMMANDS = _command_lines()


def test_every_documented_command_line_parses():
    """The ``aoi`` commands the README and docs show use options the CLI has (parsed, not run:
    the examples of the tools themselves are run by tests/test_cli.py and friends)."""
    import shlex

    from aoi_env.cli import build_parser

    assert len(COMMANDS) >= 30
    bad = []
    for page, command in COMMANDS:
        try:
            build_parser().parse_args(shlex.split(command)[1:])
        except SystemExit:
            bad.append(f"{page}: {command}")
    assert not bad, bad
