"""The optional compiled engine (issue 10, ``aoi_env/compiled.py``, ``setup.py``).

CI runs the whole suite twice: on the editable pure-Python install, then on a wheel built with
``AOI_ENV_COMPILE=1`` and ``AOI_ENV_EXPECT_COMPILED=1`` set (``.ci/run``), so every rule test,
the golden records and the fast-path equivalence tests also check the compiled engine.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

from aoi_env import compiled

ROOT = Path(__file__).resolve().parent.parent


def test_issue10_the_engine_is_compiled_exactly_when_ci_expects_it() -> None:
    """``AOI_ENV_EXPECT_COMPILED`` (set by .ci/run for the compiled run) must match what loaded;
    without it, the answer must agree with the engine module's file."""
    expected = os.environ.get("AOI_ENV_EXPECT_COMPILED")
    if expected is not None:
        assert compiled.engine_compiled() == (expected == "1")
    assert compiled.engine_compiled() == compiled.is_compiled("aoi_env.core.engine")
    assert "aoi_env.core.engine" in compiled.module_names()
    assert "aoi_env.core.rules.terrain" in compiled.module_names()


def test_issue10_a_partly_compiled_engine_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compiled, "is_compiled", lambda name: name == "aoi_env.core.engine")
    with pytest.raises(RuntimeError, match="partly compiled engine"):
        compiled.engine_compiled()


def _setup_module():
    spec = importlib.util.spec_from_file_location("aoi_setup", ROOT / "setup.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # defines extensions(); setup() runs only as __main__
    return module


def test_issue10_setup_compiles_only_on_request(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without ``AOI_ENV_COMPILE=1`` the build has no extension modules (pure Python), and the
    packages it compiles are those ``aoi_env.compiled`` checks."""
    setup = _setup_module()
    monkeypatch.delenv("AOI_ENV_COMPILE", raising=False)
    assert setup.extensions() == []
    assert tuple(p.replace("/", ".") for p in setup.PACKAGES) == compiled.PACKAGES


@pytest.mark.parametrize(
    "argv", [["setup.py", "editable_wheel"], ["setup.py", "develop"], ["setup.py", "build_ext", "--inplace"]]
)
def test_issue10_setup_refuses_to_compile_an_editable_install(monkeypatch: pytest.MonkeyPatch, argv: list[str]) -> None:
    """Compiled modules next to the sources would shadow later edits: a clear error instead."""
    setup = _setup_module()
    monkeypatch.setenv("AOI_ENV_COMPILE", "1")
    monkeypatch.setattr(sys, "argv", argv)
    with pytest.raises(SystemExit, match="regular installs"):
        setup.extensions()


CYCLE_MODULES = (
    "aoi_env.core.effects",
    "aoi_env.core.engine",
    "aoi_env.core.terraform",
    "aoi_env.core.rules.buildings",
    "aoi_env.core.rules.cities",
    "aoi_env.core.rules.science",
    "aoi_env.core.rules.terrain",
    "aoi_env.core.rules.tracks",
)
"""The engine modules that import one another at their bottom (issue 10: a function-level
import cost ~1.5 µs a call), so that the cycle resolves whichever of them is imported first."""


def _last_id_game_scores() -> list[int]:
    """A 2-player game in which every seat always takes its highest legal id: its final scores."""
    from aoi_env.core.engine import Game

    g = Game("aoi(players=2)", seed=3)
    while not g.is_over():
        g.apply_action(g.legal_actions()[-1])
    return g.scores().tolist()


@pytest.mark.parametrize("module", CYCLE_MODULES)
def test_issue10_each_engine_module_imports_first_in_a_fresh_interpreter(module: str) -> None:
    """Imported first, the module loads and plays the same game as here, on the same build."""
    import subprocess

    script = (
        f"import {module}\n"
        "from aoi_env.compiled import engine_compiled\n"
        "from tests.test_compiled import _last_id_game_scores\n"
        "print(_last_id_game_scores(), engine_compiled())\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == f"{_last_id_game_scores()} {compiled.engine_compiled()}"  # the same build
