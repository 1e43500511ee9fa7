"""Fast paths of the move generator (issue 10) against the functions they stand in for.

The goldens (tests/test_golden.py) pin the legal ids of whole games; these tests compare each
shortcut with its reference at every decision of random games, so a difference is reported at
the function that caused it.
"""

from __future__ import annotations

import numpy as np

from aoi_env.core.decisions import can_upgrade, upgrade_targets
from aoi_env.core.engine import Game
from aoi_env.core.pending import UP_ACTION
from aoi_env.data.enums import Building

UPGRADED = (Building.GUILD, Building.SCHOOL, Building.UNIVERSITY, Building.PALACE)


def _positions(configs: tuple[tuple[str, int], ...]):
    rng = np.random.default_rng(4)
    for config, seed in configs:
        g = Game(config, seed=seed)
        while not g.is_over():
            yield g
            legal = g.legal_actions()
            g.apply_action(legal[int(rng.integers(len(legal)))])


def test_r66_r70_can_upgrade_equals_a_non_empty_target_list() -> None:
    """R66-R70 (R67: the Guild's price depends on the neighbours): ``can_upgrade`` answers
    exactly ``bool(upgrade_targets(..., UP_ACTION))`` for every seat and building type."""
    checked = seen_true = 0
    configs = (("aoi(players=4)", 1), ("aoi(players=2,map=1-3)", 2), ("aoi(players=3,distribution=draft)", 3))
    for g in _positions(configs):
        for seat in range(g.config.players):
            for new in UPGRADED:
                expected = bool(upgrade_targets(g, seat, new, UP_ACTION))
                assert can_upgrade(g, seat, new) == expected, (seat, new)
                seen_true += expected
                checked += 1
    assert checked > 2000 and seen_true > 100


def test_r54_r39_building_index_equals_the_hexes() -> None:
    """R54 (pieces on the map) / R39 (reach starts from every own building, neutral ones too):
    the one-pass building index behind ``own_positions`` and the reach bit sets lists exactly
    the hexes' buildings per seat and type, ascending."""
    from aoi_env.core.rules import terrain
    from aoi_env.core.state import H_BUILDING, H_NEUTRAL, H_OWNER

    checked = 0
    for g in _positions((("aoi(players=5)", 5), ("aoi(players=1,automa=simpletons:2)", 6))):
        h = g.state.hexes
        for seat in range(g.seats):
            mine = (h[:, H_OWNER] == seat) & (h[:, H_NEUTRAL] == 0)
            for btype in range(1, 8):
                expected = np.flatnonzero(mine & (h[:, H_BUILDING] == btype)).tolist()
                assert terrain.own_positions(g, seat, btype) == expected
            owned = np.flatnonzero((h[:, H_OWNER] == seat) & (h[:, H_BUILDING] > 0)).tolist()
            assert terrain._index(g).owned.get(seat, []) == owned
            checked += 1
    assert checked > 1000
