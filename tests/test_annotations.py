"""The engine's type annotations hold at run time, checked with typeguard over random games.

A numpy integer or boolean where the annotation says ``int`` / ``bool`` is a real defect for users:
``json.dumps(game.legal_actions())`` failed on the Moles' bridge ids (numpy ints from the board
geometry) until typeguard found them.  The games run in a fresh interpreter, because the import
hook instruments modules as they are imported.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from aoi_env.compiled import engine_compiled

pytest.importorskip("typeguard")

SCRIPT = r"""
import traceback
import typeguard
from typeguard import CollectionCheckStrategy, install_import_hook

found = {}

def record(exc, memo):
    frames = [f for f in traceback.extract_stack() if "typeguard" not in f.filename and f.filename != "<string>"]
    found.setdefault(f"{frames[-1].name}: {exc}", f"{frames[-1].filename}:{frames[-1].lineno}")

typeguard.config.typecheck_fail_callback = record
typeguard.config.collection_check_strategy = CollectionCheckStrategy.ALL_ITEMS
with install_import_hook(["aoi_env.core", "aoi_env.env", "aoi_env.vector", "agents"]):
    import numpy as np
    from aoi_env.core.engine import Game
    from aoi_env.env import raw_env
    from aoi_env.vector import VectorGame

configs = ["aoi(players=2)", "aoi(players=3,distribution=draft)", "aoi(players=4,ruleset=v1.0)", "aoi(players=5)",
           "aoi(players=2,map=1-3,factions=moles+lizards)", "aoi(players=1,automa=simpletons:2)"]
rng = np.random.default_rng(0)
for seed in range(2):
    for config in configs:
        g = Game(config, seed=seed)
        while not g.is_over():
            legal = g.legal_actions()
            g.apply_action(legal[int(rng.integers(len(legal)))])
        g.scores(); g.clone()
env = raw_env(num_players=3)
env.reset(seed=1)
for agent in env.agent_iter():
    obs, reward, termination, truncation, info = env.last()
    if termination or truncation:
        env.step(None)
        continue
    legal = np.flatnonzero(obs["action_mask"])
    env.step(int(legal[int(rng.integers(len(legal)))]))
vec = VectorGame("aoi(players=3)", 3, seed=2)
for _ in range(100):
    vec.observations(); vec.legal_masks(); vec.step(vec.random_actions(rng))
for message, where in found.items():
    print(where, message)
print("ok" if not found else f"{len(found)} annotation mismatches")
"""


@pytest.mark.skipif(engine_compiled(), reason="the compiled engine has no Python source for typeguard to instrument")
def test_annotations_of_the_engine_env_and_vector_hold_over_random_games() -> None:
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    report = out.stdout.strip().splitlines()
    assert report and report[-1] == "ok", "\n".join(report[-40:])
