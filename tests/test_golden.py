"""Golden game records (issue 10): the speed work must not change behaviour.

Each record in ``tests/golden/`` (made by ``tests/golden/make_golden.py`` before any optimisation:
2-5 players, standard and draft distribution, rulesets v1.0 and v1.2, fixed factions with Moles,
Lizards, Psychics, Omar and Monks, a player against the Automa; biased random agents so that
cities, palaces, innovations and bridges occur) is replayed move by move through the notation.
``train.records.replay`` checks that every move is legal with the recorded action id and seat,
that the game ends after the last move, and the final scores and final state hash.  On top, the
legal ids at every decision and the observations of the deciding and the next seat must hash
to the recorded digests, so neither the move generator nor the observation encoder (with its
caches) may change.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from aoi_env import observation_jit
from aoi_env.observation import ObservationEncoder
from train.records import load, replay

GOLDEN = Path(__file__).resolve().parent / "golden"
RECORDS = sorted(GOLDEN.glob("*.json"))


def _digests_class() -> type:
    spec = importlib.util.spec_from_file_location("make_golden", GOLDEN / "make_golden.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Digests


Digests = _digests_class()


def test_golden_records_cover_the_variants():
    """The set holds 12 games over 1-5 players, both distributions and both rulesets."""
    games = [json.loads(p.read_text())["game"] for p in RECORDS]
    assert len(games) == 12
    assert any("distribution=draft" in g for g in games) and any("ruleset=v1.0" in g for g in games)
    assert any("automa=" in g for g in games)
    assert {f"players={n}" for n in range(1, 6)} <= {part for g in games for part in g[4:-1].split(",")}


ENCODERS = ["numpy", "compiled"] if observation_jit.AVAILABLE else ["numpy"]


@pytest.mark.parametrize("encoder", ENCODERS)
@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_golden_record_replays_to_identical_moves_scores_state_and_observations(path: Path, encoder: str):
    """Replaying gives the same moves (ids, seats), final scores, state hash, legal sets and
    observations, with the numpy encoder and with the compiled one (numba, when installed)."""
    record = load(path)
    digests = Digests(ObservationEncoder(compiled=encoder == "compiled").encode)  # one encoder per game

    def frame(g, number, move):
        if not g.is_over():
            digests(g)

    g = replay(record, on_frame=frame, check_actions=True)
    assert [int(x) for x in g.scores()] == record.scores
    assert digests.meta() == {k: record.meta[k] for k in ("legal_sha256", "obs_sha256")}
