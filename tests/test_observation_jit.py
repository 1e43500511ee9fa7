"""The compiled observation encoder (issue 10, ``aoi_env.observation_jit``) against its numpy twin.

STYLE 11: fast code is checked against a twin.  The numpy encoder is the reference (the golden
records were made with it); the compiled one must give bit-identical vectors for every seat at
every decision, in every configuration family.  Without numba these tests are skipped and the
numpy encoder is the only one.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from aoi_env import observation_jit
from aoi_env.core.engine import Game
from aoi_env.observation import ObservationEncoder

needs_numba = pytest.mark.skipif(not observation_jit.AVAILABLE, reason="numba is not installed")

CONFIGS = [
    ("aoi(players=2)", 1),
    ("aoi(players=3,distribution=draft)", 2),
    ("aoi(players=4,ruleset=v1.0)", 3),
    ("aoi(players=5)", 4),
    ("aoi(players=3,map=1-3)", 5),
    ("aoi(players=2,factions=moles+lizards)", 6),
    ("aoi(players=1,automa=simpletons:3)", 7),
    ("aoi(players=2,automa=powermongers:5)", 8),
]


@needs_numba
@pytest.mark.parametrize("config, seed", CONFIGS, ids=[c for c, _ in CONFIGS])
def test_issue10_compiled_encoder_equals_the_numpy_encoder(config: str, seed: int) -> None:
    """Every seat's observation at every decision of a random game (setup included) and at its
    end is the same float32 vector from both encoders."""
    fast, reference = ObservationEncoder(compiled=True), ObservationEncoder(compiled=False)
    g = Game(config, seed=seed)
    rng = np.random.default_rng(seed)
    checked = 0
    while not g.is_over():
        for seat in range(g.seats):
            np.testing.assert_array_equal(fast.encode(g, seat), reference.encode(g, seat))
            checked += 1
        legal = g.legal_actions()
        g.apply_action(legal[int(rng.integers(len(legal)))])
    for seat in range(g.seats):  # and the final position (no pending decision)
        np.testing.assert_array_equal(fast.encode(g, seat), reference.encode(g, seat))
    assert checked > 100


@needs_numba
def test_issue10_compiled_encoder_is_the_default_and_can_be_switched_off() -> None:
    """With numba the encoder compiles by default; ``compiled=False`` or ``AOI_ENV_NUMBA=0`` selects
    the numpy encoder, and asking for the compiled one without numba is a clear error."""
    assert ObservationEncoder().compiled and not ObservationEncoder(compiled=False).compiled
    code = (
        "from aoi_env import observation_jit; from aoi_env.observation import ObservationEncoder\n"
        "assert not observation_jit.AVAILABLE and not ObservationEncoder().compiled\n"
        "try:\n    ObservationEncoder(compiled=True)\nexcept ValueError as e:\n    print(e)\n"
    )
    env = dict(os.environ, AOI_ENV_NUMBA="0")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert "compiled=True needs numba" in out.stdout
