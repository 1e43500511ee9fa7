"""Regenerate the golden game records (issue 10): ``python tests/golden/make_golden.py``.

Only run this when the engine's behaviour is *meant* to change (a rule fix): the records pin
every move, the final scores and the final state hash, so a speed-up that changes behaviour
fails ``tests/test_golden.py``.  The agents are biased random players (``biased_random_action``
plus a palace-heavy variant) so that cities, palaces, innovations and bridges occur.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

from aoi_env.core import moves as m
from aoi_env.core.engine import Game
from aoi_env.testing import biased_random_action

HERE = Path(__file__).resolve().parent
PALACE = m.BUILDING_BASE + 4  # "upgrade palace" (BUILDING_BASE + Building.PALACE - 1)


class Biased:
    """``biased_random_action`` with its own generator (seeded from the record's agent seed)."""

    name = "biased"

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def choose(self, g: Game) -> int:
        return biased_random_action(g, self.rng)


class PalaceHeavy(Biased):
    """Takes the Palace upgrade and palace / innovation choices whenever legal, else biased."""

    name = "palace_heavy"

    def choose(self, g: Game) -> int:
        legal = g.legal_actions()
        for want in (PALACE, m.A_INNOVATE):
            if want in legal and self.rng.random() < 0.9:
                return want
        return biased_random_action(g, self.rng)


class Innovator(Biased):
    """Buys books with power and develops innovations whenever it can, else palace-heavy."""

    name = "innovator"

    def choose(self, g: Game) -> int:
        legal = g.legal_actions()
        if m.A_INNOVATE in legal:
            return m.A_INNOVATE
        books = [a for a in legal if m.CONVERT_BASE + m.CV_POWER_BOOK <= a < m.CONVERT_BASE + m.CV_POWER_BOOK + 4]
        if books and self.rng.random() < 0.8:
            return books[int(self.rng.integers(len(books)))]
        if PALACE in legal and self.rng.random() < 0.9:
            return PALACE
        keep = [
            a
            for a in legal
            if not (
                m.BOOK_BASE <= a < m.BOOK_BASE + 6
                or a >= m.CONVERT_BASE + m.CV_BOOK_COIN
                and a < m.CONVERT_BASE + m.CV_BOOK_COIN + 4
            )
        ]  # save books for innovations
        if keep and len(keep) < len(legal):
            return keep[int(self.rng.integers(len(keep)))]
        return biased_random_action(g, self.rng)


AGENTS = {"b": Biased, "p": PalaceHeavy, "i": Innovator}

# (file name, game string, seed, agent kind per player seat: b biased, p palace-heavy, i innovator)
GAMES: list[tuple[str, str, int, str]] = [
    ("g01_2p_std_v12", "aoi(players=2)", 11, "bi"),
    ("g02_3p_std_v12", "aoi(players=3)", 12, "bpi"),
    ("g03_4p_std_v10", "aoi(players=4,ruleset=v1.0)", 13, "ibpb"),
    ("g04_5p_std_v12", "aoi(players=5)", 14, "bibip"),
    ("g05_3p_draft_v12", "aoi(players=3,distribution=draft)", 15, "pib"),
    ("g06_4p_draft_v10", "aoi(players=4,ruleset=v1.0,distribution=draft)", 16, "ipbp"),
    ("g07_3p_moles_lizards_psychics", "aoi(players=3,factions=moles+lizards+psychics)", 17, "ibp"),
    ("g08_3p_omar_monks_goblins_v10", "aoi(players=3,ruleset=v1.0,factions=omar+monks+goblins)", 18, "pib"),
    ("g09_2p_palace_heavy", "aoi(players=2,factions=felines+navigators)", 19, "pi"),
    (
        "g10_4p_philosophers_inventors",
        "aoi(players=4,factions=philosophers+inventors+blessed+illusionists)",
        20,
        "iiii",
    ),
    ("g11_1p_automa", "aoi(players=1,automa=simpletons:3)", 21, "i"),
    ("g12_2p_draft_v10", "aoi(players=2,ruleset=v1.0,distribution=draft)", 22, "ip"),
]


class Digests:
    """Running SHA-256 digests of what a game shows at each decision, besides the moves.

    ``legal``: the sorted legal ids; ``obs``: the observation (float32 bytes) of the deciding
    seat and of the next player seat (the egocentric rotation).  Fed identically by the
    generator (uncached ``encode``) and the test (a caching ``ObservationEncoder``).
    """

    def __init__(self, encode: Callable[[Game, int], np.ndarray]) -> None:
        self.encode = encode
        self.legal = hashlib.sha256()
        self.obs = hashlib.sha256()

    def __call__(self, g: Game, *_: object) -> None:
        seat = g.current_seat()
        self.legal.update(np.asarray(g.legal_actions(), dtype=np.int16).tobytes())
        for observer in (seat, (seat + 1) % g.config.players):
            self.obs.update(self.encode(g, observer).tobytes())

    def meta(self) -> dict[str, str]:
        return {"legal_sha256": self.legal.hexdigest(), "obs_sha256": self.obs.hexdigest()}


def main() -> int:
    sys.path.insert(0, str(HERE.parent.parent))
    from aoi_env.observation import encode
    from train.records import agent_seed, play_record, save

    for name, game, seed, kinds in GAMES:
        agents = [AGENTS[k](agent_seed(seed, i)) for i, k in enumerate(kinds)]
        digests = Digests(encode)
        rec = play_record(game, agents, seed=seed, on_decision=digests)
        rec.meta.update(digests.meta())
        save(rec, HERE / f"{name}.json")
        print(f"{name}: {rec.decisions} moves, scores {rec.scores}, factions {rec.factions}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
