"""What the README and docs/ say about the code is what the code does: the CLI's subcommands and
options, the config keys and their defaults, the names of modules, functions and files, and the
numbers the code decides (tests/test_docs_snippets.py runs the examples and parses the fenced
command lines; this file checks the prose).
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import io
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```.*?^```", re.S | re.M)
SPAN = re.compile(r"`([^`\n]+)`")


def _text(name: str) -> str:
    return (ROOT / name if name == "README.md" else ROOT / "docs" / name).read_text(encoding="utf-8")


def _prose(text: str) -> str:
    """The text without its fenced blocks (kept as empty lines, so that line numbers stay)."""
    return FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), text)


def _spans() -> list[tuple[str, str]]:
    """Every inline code span of the prose of every page, with the page's name."""
    return [(page.name, m.group(1)) for page in PAGES for m in SPAN.finditer(_prose(page.read_text(encoding="utf-8")))]


def _section(name: str, heading: str) -> str:
    """The text under the first heading of page ``name`` that starts with ``heading`` (``## ...``),
    up to the next heading of any level (``#`` lines inside fenced blocks are no headings)."""
    lines = _text(name).splitlines()
    fenced, start, out = False, None, []
    for line in lines:
        if line.startswith("```"):
            fenced = not fenced
        is_heading = not fenced and re.match(r"#+ ", line) is not None
        if start is None:
            start = line if is_heading and line.startswith(heading) else None
        elif is_heading:
            break
        else:
            out.append(line)
    assert start is not None, f"docs/{name} has no heading starting {heading!r}"
    return "\n".join(out)


# -- the command line ------------------------------------------------------------------------------


def _subcommands() -> dict[str, set[str]]:
    import argparse

    from aoi_env.cli import build_parser

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return {
        name: {o for action in parser._actions for o in action.option_strings} - {"-h", "--help"}
        for name, parser in sub.choices.items()
    }


# where each subcommand is documented; the others have a heading naming `aoi NAME` in docs/tools.md
HOME = {"train": ("training.md", "# Training"), "eval": ("training.md", "## Evaluation")}


def _home(name: str) -> str:
    if name in HOME:
        return _section(*HOME[name])
    heads = [h for h in re.findall(r"^#+ .*$", _prose(_text("tools.md")), re.M) if f"`aoi {name}" in h]
    assert heads, f"aoi {name} has no section in docs/tools.md (a heading naming `aoi {name}`)"
    return _section("tools.md", heads[0])


@pytest.mark.parametrize("name", sorted(_subcommands()))
def test_every_subcommand_has_a_section_naming_each_of_its_options(name: str):
    """Each ``aoi`` subcommand has a section (docs/tools.md, or docs/training.md for train and
    eval) that names every option of its parser (an options list of config keys that says "each
    also a flag" names ``--max-decisions`` as ``max_decisions``; a ``--no-...`` flag is named as is)."""
    text = _home(name)
    keys = set(re.findall(r"`(\w+)`", text)) if "each also a flag" in text else set()

    def named(option: str) -> bool:  # literally, or as its config key where "each also a flag" says so
        literal = re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", text)
        return bool(literal) or (not option.startswith("--no-") and option[2:].replace("-", "_") in keys)

    missing = sorted(o for o in _subcommands()[name] if not named(o))
    assert not missing, f"aoi {name}: options its section does not name: {missing}"


def test_inline_commands_use_subcommands_and_options_that_exist():
    """An ``aoi ...`` code span in the prose (``aoi eval --seed 0``, often a fragment without its
    required arguments, so not parsed whole) names a subcommand and only that subcommand's options."""
    from aoi_env.cli import build_parser

    commands = _subcommands()
    top = {o for a in build_parser()._actions for o in a.option_strings}
    bad, seen = [], 0
    for page, span in _spans():
        if not span.startswith("aoi "):
            continue
        words = shlex.split(span.replace("|", " "), posix=True)[1:]
        if not words or words[0].isupper():  # `aoi CMD: error: ...`: a placeholder
            continue
        seen += 1
        if words[0].startswith("-"):
            bad += [f"{page}: {span}"] if words[0] not in top else []
        elif words[0] not in commands:
            bad.append(f"{page}: {span} (no subcommand {words[0]!r})")
        else:
            options = commands[words[0]]
            bad += [f"{page}: {span} ({w})" for w in words if w.startswith("--") and w.split("=")[0] not in options]
    assert seen >= 20
    assert not bad, bad


# -- configs ---------------------------------------------------------------------------------------


def _flat(doc: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in doc.items():
        if isinstance(value, dict) and key != "opponents":  # opponents is a mapping value, not a section
            out.update(_flat(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


def _same(doc_value: str, code_value: Any) -> bool:
    """A default as the docs write it (YAML, maybe in backticks) equals the code's."""
    value = yaml.safe_load(doc_value.strip().strip("`"))
    if isinstance(value, str):
        with contextlib.suppress(ValueError):
            value = float(value)  # YAML 1.1 reads 3e-4 as a string
    if isinstance(code_value, tuple):
        code_value = list(code_value)
    return value == code_value


def test_the_training_settings_table_is_the_config_and_its_defaults():
    """docs/training.md "Settings" lists every key of ``TrainConfig`` once with the dataclass
    default; configs/quick.yaml lists every key, and the keys the docs say it sets itself are
    exactly those where it differs from the default."""
    from train.config import TrainConfig

    code = _flat(TrainConfig().to_dict())
    section = _section("training.md", "## Settings")
    rows = re.findall(r"^\| `([\w.]+)` \| ([^|]+) \|", section, re.M)
    documented = dict(rows)
    assert len(rows) == len(documented), "a key is listed twice"
    assert set(documented) == set(code), set(documented) ^ set(code)
    wrong = {k: (documented[k].strip(), code[k]) for k in code if not _same(documented[k], code[k])}
    assert not wrong, f"documented default != TrainConfig default: {wrong}"
    quick = _flat(yaml.safe_load((ROOT / "configs" / "quick.yaml").read_text(encoding="utf-8")))
    assert set(quick) == set(code)
    claim = re.search(r"which sets its own (.*?)\.(?:\s|$)", section.replace("\n", " "))
    assert claim, "the Settings text no longer says which keys configs/quick.yaml sets itself"
    said = set(re.findall(r"`([\w.]+)`", claim.group(1)))
    differ = {k for k in code if quick[k] != code[k]}
    assert said == differ, (said, differ)


def _options_paragraph(page: str, heading: str) -> str:
    section = _prose(_section(page, heading))
    paragraph = next(p for p in re.split(r"\n\s*\n", section) if re.search(r"Options\s*\(", p))
    return " ".join(paragraph.split())


@pytest.mark.parametrize(
    ("heading", "module", "cls", "shipped"),
    [
        ("## `aoi tournament`", "train.tournament", "TournamentConfig", "tournament.yaml"),
        ("## `aoi balance`", "train.balance", "BalanceConfig", "balance.yaml"),
    ],
)
def test_tournament_and_balance_options_are_documented_with_their_defaults(heading, module, cls, shipped):
    """The options paragraph of the command in docs/tools.md names every key its config class
    accepts (and the shipped YAML sets each), and a default it states is the class's."""
    import importlib

    config = getattr(importlib.import_module(module), cls)
    fields = {f.name: f for f in dataclasses.fields(config)}
    text = _options_paragraph("tools.md", heading)
    named = set(re.findall(r"`(\w+)`", text))
    assert set(fields) <= named, f"{cls} keys not in the options of docs/tools.md: {set(fields) - named}"
    assert set(yaml.safe_load((ROOT / "configs" / shipped).read_text(encoding="utf-8"))) == set(fields)
    defaults = {n: getattr(config(), n) for n in fields}  # after __post_init__, as the tool sees them
    stated = re.findall(r"`(\w+)` \((?:[^()`]*?(?:`[^`]*`)?[^()`]*?[,;:] )?default (`[^`]+`|[\w./-]+)[);,]", text)
    checked = [(k, v) for k, v in stated if k in defaults and defaults[k] is not None]
    assert len(checked) >= 2
    wrong = {k: (v, defaults[k]) for k, v in checked if not _same(v, defaults[k])}
    assert not wrong, f"documented default != {cls} default: {wrong}"


def _set_overrides() -> list[tuple[str, str]]:
    out = []
    for page in PAGES:
        for item in re.findall(r"--set ([^\s`]+)", page.read_text(encoding="utf-8")):
            key = item.split("=", 1)[0]
            if "..." not in item and re.fullmatch(r"[a-z_]+(\.[a-z_]+)*", key) and key != "key":  # not a placeholder
                out.append((page.name, item))
    return out


def test_every_set_override_the_docs_show_is_accepted():
    """``aoi train --set KEY=VALUE`` examples name keys the config loader accepts, with valid values."""
    from train.config import load_config

    overrides = _set_overrides()
    assert len(overrides) >= 4
    for _page, item in overrides:
        load_config(str(ROOT / "configs" / "quick.yaml"), [item])  # raises ValueError naming a bad key


# -- names and paths -------------------------------------------------------------------------------

PACKAGES = ("aoi_env", "train", "agents")
DOTTED = re.compile(r"(?<![\w/.])((?:aoi_env|train|agents)(?:\.[A-Za-z_]\w*)+)")
PATH = re.compile(r"(?<![\w/.-])((?:aoi_env|train|agents|tests|configs|docs)/[\w./-]*)")
NOT_IN_A_CHECKOUT = {"train/configs/"}  # where an installed wheel keeps the shipped configs (setup.py)
OTHER_REPOSITORIES = {"AUTOMA.md"}  # the Automa spec cites files of the solo app's repository


def _module_file(parts: list[str]) -> Path | None:
    base = ROOT.joinpath(*parts)
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _statements(node: ast.AST) -> list[ast.AST]:
    """The statements of a body, those inside ``if`` / ``try`` / ``with`` blocks too (an import
    in ``try: ... except ImportError``)."""
    out: list[ast.AST] = []
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.If, ast.Try, ast.With)):
            out += _statements(child)
            out += [s for h in getattr(child, "handlers", []) for s in _statements(h)]
        else:
            out.append(child)
    return out


def _members(node: ast.AST) -> set[str]:
    """Names a module or class body defines: functions, classes, assignments, imports, and in a
    class the ``self.x`` attributes its methods set."""
    names: set[str] = set()
    for child in _statements(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(child.name)
        elif isinstance(child, ast.Assign):
            names |= {t.id for t in child.targets if isinstance(t, ast.Name)}
        elif isinstance(child, ast.AnnAssign) and isinstance(child.target, ast.Name):
            names.add(child.target.id)
        elif isinstance(child, (ast.Import, ast.ImportFrom)):
            names |= {(a.asname or a.name).split(".")[0] for a in child.names}
    if isinstance(node, ast.ClassDef):
        for sub in ast.walk(node):
            if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name) and sub.value.id == "self":
                names.add(sub.attr)
    return names


def _resolves(dotted: str) -> bool:
    """``aoi_env.core.moves.block_of``, ``train.records.GameRecord``, ``agents.HeuristicAgent``:
    the module exists and defines the name (a class's member too), read from the source without
    importing it (no torch)."""
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        path = _module_file(parts[:i])
        if path is None:
            continue
        rest, node = parts[i:], ast.parse(path.read_text(encoding="utf-8"))
        for name in rest:
            if name not in _members(node):
                return False
            node = next((c for c in ast.iter_child_nodes(node) if isinstance(c, ast.ClassDef) and c.name == name), None)
            if node is None:
                return True  # a function, a value or an imported name: nothing below it to check
        return True
    return False


needs_sources = pytest.mark.skipif(
    not (ROOT / "aoi_env").is_dir(),
    reason="a copy of the tests without the sources (.ci/run's compiled-engine run); the pure run checks them",
)


@needs_sources
def test_python_names_the_docs_give_exist():
    """Every ``aoi_env.…``, ``train.…`` and ``agents.…`` name in the docs' inline code is a module
    of the repository and a name it defines."""
    names = {(page, m) for page, span in _spans() for m in DOTTED.findall(span)}
    names = {(page, n.removesuffix(".py")) for page, n in names if not n.endswith((".md", ".yaml", ".json"))}
    assert len(names) >= 30
    missing = sorted(f"{page}: {name}" for page, name in names if not _resolves(name))
    assert not missing, missing


@needs_sources
def test_file_paths_the_docs_give_exist():
    """Every repository path in the docs' inline code (``train/replay.py``, ``tests/rules/``)
    exists; a prefix followed by ``*`` or ``...`` names a group of files, one of which exists."""
    missing, seen = [], 0
    for page in (p for p in PAGES if p.name not in OTHER_REPOSITORIES):
        for span in SPAN.findall(_prose(page.read_text(encoding="utf-8"))):
            for m in PATH.finditer(span):
                path, after = m.group(1).rstrip(".,)"), span[m.end() :]
                if path in NOT_IN_A_CHECKOUT or re.search(r"[<>]|NNN", path):
                    continue
                seen += 1
                if after.startswith(("*", "...")) or path.endswith("_"):
                    ok = any(ROOT.glob(path + "*"))
                else:
                    ok = (ROOT / path).exists()
                missing += [] if ok else [f"{page.name}: {path}"]
    assert seen >= 30
    assert not missing, missing


# -- numbers the code decides ----------------------------------------------------------------------


def test_the_readme_counts_are_the_data():
    """The README's counts of components, Automa factions and levels, the action space and the
    oracles are those of aoi_env/data, aoi_env.core.moves and tests/."""
    import aoi_env.data
    from aoi_env.core.moves import NUM_ACTIONS

    package_data = Path(aoi_env.data.__file__).parent  # the installed package's (also a compiled wheel's)
    readme = " ".join(_text("README.md").split())
    rules = readme[readme.index("**Rules:**") : readme.index("**Decisions:**")]
    data = yaml.safe_load((package_data / "components.yaml").read_text(encoding="utf-8"))
    automa = yaml.safe_load((package_data / "automa.yaml").read_text(encoding="utf-8"))
    keys = {"factions": "factions", "planning boards": "planning_boards", "innovations": "innovations",
            "palace tiles": "palace_tiles", "competencies": "competencies"}  # fmt: skip
    stated = dict((what, int(n)) for n, what in re.findall(r"\b(\d+) (" + "|".join(keys) + r")\b", rules))
    assert stated.keys() == keys.keys(), stated
    automa_stated = re.search(r"Automa \((\d+) factions, (\d+) difficulty levels\)", readme)
    assert automa_stated, "the README no longer states the Automa's factions and levels"
    found = {what: len(data[key]) for what, key in keys.items()}
    assert {k: stated[k] for k in keys} == found
    assert (int(automa_stated[1]), int(automa_stated[2])) == (len(automa["factions"]), len(automa["levels"]))
    words = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen"
    words += " seventeen eighteen nineteen twenty"
    oracles = re.search(r"(\w+) independent oracles", readme)
    assert oracles and oracles[1].lower() in words.split()
    assert words.split().index(oracles[1].lower()) == len(list((ROOT / "tests").rglob("test_oracle_*.py")))
    spaces = {(page.name, int(n)) for page in PAGES for n in re.findall(r"Discrete\((\d+)\)", page.read_text())}
    assert spaces and all(n == NUM_ACTIONS for _, n in spaces), spaces


# -- what the tools print and write ----------------------------------------------------------------


def test_aoi_demo_moves_prints_numbered_decisions_as_documented():
    """docs/tools.md: ``aoi demo --moves`` prints each decision as ``N seat S: move``, N counting
    from 0 (the earlier text showed ``seat S: move`` without the number)."""
    from aoi_env.cli import main

    assert "`N seat S: move`, N the decision's number from 0" in " ".join(_section("tools.md", "## Playing").split())
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert main(["demo", "--players", "2", "--seed", "1", "--moves"]) == 0
    lines = [m for m in (re.match(r"^\s*(\d+) seat (\d): \S", x) for x in printed.getvalue().splitlines()) if m]
    assert len(lines) > 50
    assert [int(m[1]) for m in lines] == list(range(len(lines)))


def test_the_html_replay_page_sizes_the_docs_give(tmp_path: Path):
    """docs/tools.md: a frame of the ``aoi replay --html`` page takes about 35 KB with 2 seats and
    45-50 KB with 4, a 4-player game's page 13-23 MB (four random players: the 13 MB end)."""
    from train.records import play_record
    from train.replay import run_replay

    text = " ".join(_section("tools.md", "## `aoi replay").split())
    sizes = r"about (\d+) KB each with 2 seats, (\d+)-(\d+) KB with 4\), so a 4-player game is a (\d+)-(\d+) MB"
    claim = re.search(sizes, text)
    assert claim, "docs/tools.md no longer states the HTML page's frame and page sizes"
    two, lo4, hi4, page_lo, page_hi = (int(x) for x in claim.groups())
    for players, lo, hi in ((2, 0.9 * two, 1.1 * two), (4, lo4, hi4)):
        page = tmp_path / f"{players}.html"
        run_replay(play_record(f"aoi(players={players})", ["random"] * players, seed=0), final=True, html_file=page,
                   out=io.StringIO())  # fmt: skip
        last = re.search(r'id="slider" type="range" min="0" max="(\d+)"', page.read_text(encoding="utf-8"))
        frames = int(last[1]) + 1
        size = page.stat().st_size
        assert lo <= size / frames / 1000 <= hi, (players, size / frames / 1000)
        if players == 4:
            assert page_lo <= size / 1e6 <= page_hi, size


def test_evaluation_record_names_are_the_documented_ones(tmp_path: Path):
    """docs/training.md: ``aoi eval --records DIR`` writes ``DIR/model-vs-SPEC-NNNN.json`` with the
    spec's other characters than letters and digits as ``_`` (``model-vs-automa_1-0000.json``, not
    ``model-vs-automa:1-0000.json``)."""
    from agents import make_agent
    from train.evaluate import evaluate

    section = _section("training.md", "## Evaluation")
    example = re.search(r"`(model-vs-[\w-]+\.json)`", section)
    assert example, "docs/training.md no longer gives an example record name"
    evaluate(make_agent("random", seed=0), "automa:1", games=1, label="model", records=tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == [example[1]]


def test_a_wrong_binding_is_caught_only_when_the_masks_differ():
    """docs/agents.md: ``act`` compares the mask with the bound game's legal ids, so a wrong game
    whose pending decision has the same legal ids (another game's first set pick) goes unnoticed,
    and one with another mask raises ``ValueError``."""
    import numpy as np

    from agents import HeuristicAgent
    from aoi_env import Game
    from aoi_env.core.moves import NUM_ACTIONS

    assert "goes unnoticed" in " ".join(_text("agents.md").split())
    game, other = Game("aoi(players=3)", seed=0), Game("aoi(players=3)", seed=1)
    mask = np.zeros(NUM_ACTIONS, np.int8)
    mask[game.legal_actions()] = 1
    assert game.current_seat() != other.current_seat() and game.legal_actions() == other.legal_actions()
    assert HeuristicAgent(seed=0).bind(other).act(None, mask) in other.legal_actions()  # no error: same ids
    other.apply_action(other.legal_actions()[0])
    with pytest.raises(ValueError, match="does not match the bound game"):
        HeuristicAgent(seed=0).bind(other).act(None, mask)


def test_the_bench_sample_note_gives_the_current_state_size():
    """docs/tools.md: the bench sample predates state schema 2; the note under it gives the size
    ``aoi bench`` now reports as ``state_bytes`` (``state.to_bytes()`` of a fresh 4-player game,
    seed 0, as ``aoi_env.bench.bench_memory`` measures it)."""
    import inspect

    from aoi_env import Game
    from aoi_env.bench import bench_memory

    stated = re.search(r"with which\s+`state_bytes` is (\d+)", _text("tools.md"))
    assert stated, "docs/tools.md no longer gives the current state_bytes"
    defaults = {k: v.default for k, v in inspect.signature(bench_memory).parameters.items()}
    game = Game(f"aoi(players={defaults['players']})", seed=defaults["seed"])
    assert len(game.state.to_bytes()) == int(stated[1])
