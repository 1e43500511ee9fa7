"""Fast paths of the move generator (issue 10) against the functions they stand in for.

The goldens (tests/test_golden.py) pin the legal ids of whole games; these tests compare each
shortcut with its reference at every decision of random games, so a difference is reported at
the function that caused it.
"""

from __future__ import annotations

import numpy as np
import pytest

from aoi_env.core import decisions, turn
from aoi_env.core.config import GameConfig
from aoi_env.core.decisions import can_upgrade, upgradable, upgrade_targets
from aoi_env.core.engine import Game
from aoi_env.core.moves import FLY, NUM_ACTIONS, SPECIAL_WORDS, TUNNEL
from aoi_env.core.pending import UP_ACTION
from aoi_env.core.state import G_DECISIONS, P_COMPETENCIES, P_INNOVATIONS, P_PALACE_TILE, P_SPECIALS_USED
from aoi_env.data.enums import Building
from aoi_env.testing import random_action

UPGRADED = (Building.GUILD, Building.SCHOOL, Building.UNIVERSITY, Building.PALACE)


def _positions(configs: tuple[tuple[str | GameConfig, int], ...]):
    rng = np.random.default_rng(4)
    for config, seed in configs:
        g = Game(config, seed=seed)
        while not g.is_over():
            yield g
            g.apply_action(random_action(g, rng))


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


def test_r66_r70_upgradable_lists_the_upgrade_actions_in_order() -> None:
    """R66-R70: ``upgradable`` (the MAIN legality's table of upgrade rows) lists, in
    ``decisions.UPGRADES`` order, exactly the buildings with a non-empty ``upgrade_targets`` list
    (the reference: it prices every candidate hex, R67's Guild price included)."""
    seen = set()
    configs = (("aoi(players=3)", 5), ("aoi(players=5,ruleset=v1.0)", 6))
    for g in _positions(configs):
        seat = g.current_seat()
        if 0 <= seat < g.config.players:
            got = upgradable(g, seat)
            assert got == [new for new in decisions.UPGRADES if upgrade_targets(g, seat, new, UP_ACTION)]
            seen.update(got)
    assert seen == set(decisions.UPGRADES)


def test_r76_unused_specials_equal_special_gain() -> None:
    """R76: the memoised (special action, gain) pairs of MAIN legality equal ``special_gain`` of
    every special action, for every seat at every decision (palace tiles, innovations 'Deus ex
    machina' / 'Professors', competency C7, bonus tiles, faction actions, used this round)."""
    seen = set()

    def check(g: Game, seat: int) -> None:
        pl = g.state.players[seat].tolist()
        expected = [(sp, turn.special_gain(g, seat, sp)) for sp in range(len(SPECIAL_WORDS))]
        assert list(turn._unused_specials(g, pl)) == [(sp, gain) for sp, gain in expected if gain is not None]
        seen.update(sp for sp, _ in turn._unused_specials(g, pl))

    configs = (("aoi(players=3,distribution=draft)", 8), ("aoi(players=2,ruleset=v1.0)", 9), ("aoi(players=5)", 11))
    for g in _positions(configs):
        for seat in range(g.config.players):
            check(g, seat)
    # the innovations and palace tiles with a special action are rare in random play: give them to a seat
    g = Game("aoi(players=3)", seed=12)
    p = g.state.players[0]
    keys = g.data.innovation_keys
    p[P_PALACE_TILE] = next(i for i, gain in enumerate(g.tab.palace_special) if gain)
    for used in (0, 1 << turn.SP_DEUS, 1 << turn.SP_PROFESSORS, 1 << turn.SP_PALACE):
        p[P_INNOVATIONS] = (keys.index("deus_ex_machina"), keys.index("professors"), -1)
        p[P_SPECIALS_USED] = used
        check(g, 0)
    assert seen >= {
        turn.SP_PALACE,
        turn.SP_DEUS,
        turn.SP_PROFESSORS,
        turn.SP_COMPETENCY,
        turn.SP_BONUS,
        turn.SP_FACTION,
    }


def test_action_mask_marks_exactly_the_legal_ids_in_a_new_array() -> None:
    """The mask is int8[NUM_ACTIONS], 1 exactly at the legal ids, writable, and a new array each
    call (a caller may modify it without touching the game or the next mask).  The engine keeps
    the ids in the order its handlers list them (MAIN, OFFER, DRAFT_PICK and SOLO_PICK list them
    out of order; issue 10: the mask needs no sort), and ``legal_actions`` / ``legal_moves`` /
    ``VectorGame.random_actions`` still give id order."""
    from aoi_env.vector import VectorGame

    configs = (
        ("aoi(players=3)", 10),
        ("aoi(players=3,distribution=draft)", 11),
        ("aoi(players=1,automa=mimics:2)", 12),
    )
    out_of_order = 0
    for i, g in enumerate(_positions(configs)):
        mask = g.action_mask()
        assert mask.dtype == np.int8 and mask.shape == (NUM_ACTIONS,)
        assert np.flatnonzero(mask).tolist() == g.legal_actions()
        out_of_order += g._legal != g.legal_actions()
        if i % 50 == 0:
            mask[:] = 1
            assert np.flatnonzero(g.action_mask()).tolist() == g.legal_actions()
            assert g.legal_moves() == [g.move_str(a) for a in g.legal_actions()]
    assert out_of_order > 100  # the handlers' order does differ: the sorts above are tested
    vector = VectorGame("aoi(players=3,distribution=draft)", 6, seed=3)
    for _ in range(200):
        picks = np.random.default_rng(7).integers([len(g.legal_actions()) for g in vector.games]).tolist()
        expected = [g.legal_actions()[k] for g, k in zip(vector.games, picks, strict=True)]
        actions = vector.random_actions(np.random.default_rng(7))
        assert actions.tolist() == expected
        vector.step(actions)


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
            assert terrain.owned_positions(g, seat) == owned == np.flatnonzero(terrain.own_mask(g, seat)).tolist()
            checked += 1
    assert checked > 1000


def test_r60_r61_has_tb_target_equals_the_target_masks() -> None:
    """R60-R61 (Terraform & Build; R95 tunnel, R129 flight): ``has_tb_target`` answers exactly
    whether the plain, tunnel or flight target masks hold a hex, and TB_TARGET's legal ids from
    the bit sets equal those masks' hexes and jumps, for free spades and flag sets of every
    caller, at decisions of random games (Moles, and palace 9 given to a seat)."""
    from aoi_env.core import terraform
    from aoi_env.core.pending import TB_BUILD, TB_BUY, TB_LIZARD, TB_NO_JUMP
    from aoi_env.core.state import P_PALACE_TILE

    cases = ((0, TB_BUY | TB_BUILD), (1, TB_BUILD), (0, TB_BUY), (2, TB_BUY | TB_BUILD | TB_NO_JUMP),
             (0, TB_BUY | TB_BUILD | TB_LIZARD), (1, 0), (0, TB_BUILD))  # fmt: skip
    flight = None
    checked = seen_true = 0
    seen_jumps: set[int] = set()
    for step, g in enumerate(_positions((("aoi(players=3,factions=moles+lizards+monks)", 7), ("aoi(players=4)", 8)))):
        if step % 3:
            continue
        if flight is None:
            flight = next(i for i, flags in enumerate(g.tab.palace_flags) if flags["flight"])
        for seat in range(g.config.players):
            probe = g.clone()
            probe.state.players[seat, P_PALACE_TILE] = flight if step % 2 else probe.state.players[seat, P_PALACE_TILE]
            for free, flags in cases:
                masks = (terraform._plain_targets, terraform._tunnel_targets, terraform._fly_targets)
                expected = any(bool(m(probe, seat, free, flags).any()) for m in masks)
                assert terraform.has_tb_target(probe, seat, free, flags) == expected, (seat, free, flags)
                # TB_TARGET's legal ids: the first hexes from the bit sets, then the jumps
                pl = probe.state.players[seat].tolist()
                hexes = terraform._hexes(terraform._plain_targets(probe, seat, free, flags))
                assert terraform._reach_target_ids(probe, seat, free, flags, pl) == hexes, (seat, free, flags)
                jumps = [jump for jump, m in ((TUNNEL, masks[1]), (FLY, masks[2])) if m(probe, seat, free, flags).any()]
                assert terraform._jumps(probe, seat, free, flags, pl) == jumps, (seat, free, flags)
                seen_jumps.update(jumps)
                seen_true += expected
                checked += 1
    assert checked > 2000 and seen_true > 500 and seen_jumps == {TUNNEL, FLY}


def test_r73_affordable_innovations_equal_innovation_cost() -> None:
    """R73: ``affordable_innovations`` lists exactly the display spaces with an available tile
    whose ``innovation_cost`` (specific books, any books, coins without a Palace) the seat can
    pay, also with random books handed out so that innovations become affordable."""
    from aoi_env.core.decisions import affordable_innovations, innovation_cost
    from aoi_env.core.state import G_INNOV_OWNER, G_INNOV_SPACES, P_BOOKS, P_COINS, P_INNOVATIONS

    rng = np.random.default_rng(9)
    checked = found = 0
    for g in _positions((("aoi(players=3)", 9), ("aoi(players=5,ruleset=v1.0)", 10))):
        probe = g.clone()
        probe.state.players[:, P_BOOKS] = rng.integers(0, 5, size=(probe.seats, 4))
        for game in (g, probe):
            glob = game.state.glob
            for seat in range(game.config.players):
                p = game.state.players[seat]
                expected = []
                if np.count_nonzero(p[P_INNOVATIONS] >= 0) < 3:
                    for space, tile in enumerate(glob[G_INNOV_SPACES].tolist()):
                        if tile < 0 or glob[G_INNOV_OWNER.start + tile] != -1:
                            continue
                        spec, any_books, coins = innovation_cost(game, seat, space)
                        books = p[P_BOOKS]
                        if (books >= spec).all() and books.sum() - spec.sum() >= any_books and p[P_COINS] >= coins:
                            expected.append((space, tile))
                assert affordable_innovations(game, seat) == expected
                found += len(expected)
                checked += 1
    assert checked > 2000 and found > 100


def test_r35_r61_land_bits_equal_empty_land_by_spade_distance() -> None:
    """R35 / R61: ``land_bits`` (from terrain bit sets shared by every seat, issue 10) is exactly
    (empty land at spade distance > 0, empty land at distance 0) of the seat's native terrain."""
    from aoi_env.core.rules import terrain

    checked = 0
    for g in _positions((("aoi(players=4)", 11), ("aoi(players=2,map=1-3,distribution=draft)", 12))):
        for seat in range(g.config.players):
            empty, dist = terrain.empty_land(g), terrain.distances_to_native(g, seat)
            expected = (terrain.bits(empty & (dist > 0)), terrain.bits(empty & (dist == 0)))
            assert terrain.land_bits(g, seat) == expected
            checked += 1
    assert checked > 1000


def test_r35_spades_to_native_equals_the_distance_array_at_every_hex() -> None:
    """R35: ``spades_to_native`` (one hex, plain ints, issue 10) is ``distances_to_native`` at
    every position, for every seat: players, Automa seats (no planning board, -1) and seats
    before the distribution."""
    from aoi_env.core.rules import terrain

    checked = 0
    for g in _positions((("aoi(players=3)", 21), ("aoi(players=1,automa=simpletons:2)", 22))):
        if g.state.glob_ints[G_DECISIONS] % 7:
            continue  # every seventh position: the hexes change slowly
        for seat in range(g.seats):
            dist = terrain.distances_to_native(g, seat).tolist()
            assert [terrain.spades_to_native(g, seat, pos) for pos in range(len(dist))] == dist
            checked += 1
    assert checked > 100


def test_r43_qualifies_from_the_hexes_bytes_equals_the_array_formula() -> None:
    """R43 / C6 / palace 8: ``cities.qualifies`` reads the buildings and pavilions from the hexes'
    bytes (issue 10); for every group of every seat (and a random set of anyone's buildings) it
    gives what the founding rule gives for the same group read from the array."""
    from aoi_env.core.rules import cities, terrain
    from aoi_env.core.state import H_BUILDING, H_PAVILION

    def by_array(g: Game, seat: int, group: list[int]) -> bool:
        rows = g.state.hexes[group]
        return cities.meets_requirements(g, seat, rows[:, H_BUILDING].tolist(), int(rows[:, H_PAVILION].sum()))

    rng = np.random.default_rng(25)
    checked, founding = 0, 0
    for g in _positions((("aoi(players=4)", 23), ("aoi(players=2,map=1-3)", 24))):
        hexes = g.state.hexes.tobytes()
        built = np.flatnonzero(g.state.hexes[:, H_BUILDING] > 0)
        for seat in range(g.config.players):
            groups = cities.connected_groups(g, terrain.owned_positions(g, seat))
            if len(built) >= 2:  # random play founds few cities: also groups of anyone's buildings
                size = rng.integers(2, min(len(built), 7) + 1)
                groups.append(sorted(rng.choice(built, size, replace=False).tolist()))
            for group in groups:
                expected = by_array(g, seat, group)
                assert cities.qualifies(g, seat, group) == cities.qualifies(g, seat, group, hexes) == expected
                founding += expected
                checked += 1
    assert checked > 1000 and founding > 100


def _city_check_by_array(g: Game, seat: int) -> int:
    """``cities.check`` as it was before issue 10's eleventh pass: the seat's buildings from a
    mask, the city column as a list, a fancy write per group, the founding rule from the array."""
    from aoi_env.core import pending
    from aoi_env.core.pending import Kind
    from aoi_env.core.rules import cities
    from aoi_env.core.state import H_BUILDING, H_CITY, H_OWNER, H_PAVILION

    h = g.state.hexes
    own = np.flatnonzero((h[:, H_OWNER] == seat) & (h[:, H_BUILDING] > 0)).tolist()
    city = h[:, H_CITY].tolist()
    fresh = []
    for group in cities.connected_groups(g, own):
        if any(city[q] for q in group):
            h[group, H_CITY] = 1
            for q in group:
                city[q] = 1
        else:
            fresh.append(group)
    founded = 0
    for group in fresh:
        kinds, pavilions = h[group, H_BUILDING].tolist(), int(h[group, H_PAVILION].sum())
        if not any(city[q] for q in group) and cities.meets_requirements(g, seat, kinds, pavilions):
            h[group, H_CITY] = 1
            for q in group:
                city[q] = 1
            founded += 1
    if cities.river_city_options(g, seat):
        pending.push(g.state, Kind.RIVER_CITY, seat)
    for _ in range(founded):
        pending.push(g.state, Kind.CHOOSE_CITY, seat, 0)
    return founded


AUTOMA_GAMES = (
    GameConfig(players=1, automa=("simpletons:3",)),
    GameConfig(players=1, automa=("kuddlers:2", "powermongers:4")),
    GameConfig(players=2, automa=("druids:4",)),
)
"""A solo game, two Automas, two humans with an Automa: the Automa's fast paths are compared in each."""


def _automa_positions(first_seed: int):
    return _positions(tuple((config, first_seed + k) for k, config in enumerate(AUTOMA_GAMES)))


def _automa_clones(first_seed: int):
    """Clones of every third of ``_automa_positions`` (for tests that shuffle their fields), each
    with the positions of its buildings."""
    from aoi_env.core.state import H_BUILDING

    for g in _automa_positions(first_seed):
        if g.state.glob_ints[G_DECISIONS] % 3 == 0:
            yield g.clone(), np.flatnonzero(g.state.hexes[:, H_BUILDING] > 0)


def test_r43_r44_op21_city_check_equals_the_array_version() -> None:
    """R43 / R44 / OP-21 / C6: ``cities.check`` (the hexes read from their cache key, only the
    city flags that change written, issue 10) joins, founds and pushes exactly what the array
    version does, on positions of random play whose buildings are handed to one seat with random
    types (University and Monument included), pavilions and city flags (random play alone founds
    few cities)."""
    from aoi_env.core.rules import cities
    from aoi_env.core.state import H_BUILDING, H_CITY, H_NEUTRAL, H_OWNER, H_PAVILION

    rng = np.random.default_rng(43)
    checked = joined = founded = 0
    for g in _positions((("aoi(players=4)", 43), ("aoi(players=2,map=1-3)", 44))):
        if g.state.glob_ints[G_DECISIONS] % 3:
            continue
        mine, theirs = g.clone(), g.clone()
        seat = int(rng.integers(g.config.players))
        h = mine.state.hexes
        built = np.flatnonzero((h[:, H_BUILDING] > 0) & (h[:, H_NEUTRAL] == 0))
        if len(built):
            given = built[rng.random(len(built)) < 0.9]
            h[given, H_OWNER] = seat
            h[given, H_BUILDING] = rng.integers(Building.WORKSHOP, Building.MONUMENT + 1, len(given))
            h[given, H_PAVILION] = rng.random(len(given)) < 0.1
            h[built, H_CITY] = rng.random(len(built)) < (0.15 if rng.random() < 0.5 else 0.0)
        theirs.state.hexes[:] = h
        city_before = h[:, H_CITY].copy()
        got = cities.check(mine, seat)
        assert got == _city_check_by_array(theirs, seat)
        assert mine.state.to_bytes() == theirs.state.to_bytes()
        joined += int((mine.state.hexes[:, H_CITY] != city_before).any()) and not got
        founded += got
        checked += 1
    assert checked > 100 and joined > 10 and founded > 10


def test_r38_r40_neighbour_lists_equal_the_adjacency_with_bridges_and_are_shared() -> None:
    """R38 / R40: ``Game.neighbours`` (made once per board side and set of bridges for the whole
    process, each from the lists without its last bridge, issue 10) lists exactly
    ``adjacency()``'s neighbours, edges plus built bridges, in the order a build from scratch
    gives; games with the same bridges share one object."""
    from aoi_env.core.state import G_NUM_BRIDGES

    with_bridges = 0
    for g in _positions((("aoi(players=4)", 31), ("aoi(players=5)", 33), ("aoi(players=3,map=1-3)", 34))):
        if g.state.glob_ints[G_DECISIONS] % 5:
            continue
        adjacency = [np.flatnonzero(row).tolist() for row in g.adjacency()]
        assert [sorted(q) for q in g.neighbours()] == adjacency
        with_bridges += g.state.glob_ints[G_NUM_BRIDGES] > 0
        fresh = Game(g.config, seed=0)
        fresh.state.bridges[:] = g.state.bridges
        fresh.state.glob_ints[G_NUM_BRIDGES] = g.state.glob_ints[G_NUM_BRIDGES]
        assert fresh.neighbours() is g.neighbours()
        scratch = [list(q) for q in g.geo.neighbors]  # from scratch, each bridge appended in turn
        for a, b in g.state.built_bridges().tolist():
            scratch[a] += [] if b in scratch[a] else [b]
            scratch[b] += [] if a in scratch[b] else [a]
        assert [list(q) for q in g.neighbours()] == scratch  # derived bridge by bridge: the same order
    assert with_bridges > 20


def test_r39_r40_r54_values_derived_from_the_previous_hexes_equal_a_fresh_cache() -> None:
    """R54 / R35 / R39 / R40: after a change of the hexes the building index and the terrain bit
    sets are updated from the previous hexes at the changed positions, reach comes from a
    per-game memo and the free bridge spots are cached (issue 10); each equals the value a game
    without any cache computes, at every decision (Moles' bridges and the 1-3 side included)."""
    from aoi_env.core.rules import terrain

    checked = updated = 0
    configs = (("aoi(players=4)", 13), ("aoi(players=2,factions=moles+lizards)", 14), ("aoi(players=3,map=1-3)", 15))
    for g in _positions(configs):
        fresh = g.clone()
        for name in ("_hex_cache", "_reach_memo"):
            fresh.__dict__.pop(name, None)
        cache = terrain._index(g)
        updated += terrain._changed(cache) is not None
        assert cache.typed == terrain._index(fresh).typed
        assert cache.owned == terrain._index(fresh).owned
        assert terrain._terrain_bits(g, terrain.hex_cache(g)) == terrain._terrain_bits(fresh, terrain.hex_cache(fresh))
        for seat in range(g.seats):
            assert terrain.reach_bits(g, seat) == terrain.reach_bits(fresh, seat), seat
            for moles in (False, True):
                assert g.free_bridge_spots(seat, moles) == fresh.free_bridge_spots(seat, moles), (seat, moles)
        checked += 1
    assert checked > 500 and updated > 100


def test_r71_r72_track_limits_table_is_the_boards_data() -> None:
    """R71 / R72: ``tracks.limits`` (read by the MAIN legality and ``tracks.at_max``) holds each
    planning board's sailing maximum, top terraforming level and the cost of one step of each."""
    from aoi_env.core.rules import tracks
    from aoi_env.data import load

    boards = load().boards
    assert len(tracks.limits()) == len(boards)
    for board, row in zip(boards, tracks.limits(), strict=True):
        sail = tuple(board.sailing_cost.get(r, 0) for r in ("coins", "tools", "scholars"))
        dig = tuple(board.terraforming_cost.get(r, 0) for r in ("coins", "tools", "scholars"))
        assert row == (board.sailing_max, *sail, len(board.terraforming_tools) - 1, *dig)


def test_r76_r141_owned_specials_are_every_special_used_or_not() -> None:
    """R76 / R141: ``owned_specials`` (the heuristic's count of special actions to come) lists the
    seat's special actions whether used this round or not, each once under its own action id:
    the Deus ex machina and Professors innovations each under theirs (the heuristic's own copy
    filed any other innovation under Deus), C7 as the data's only competency with a special."""
    assert Game("aoi(players=3)", seed=0).data.competency_ids.index("C7") == turn.COMPETENCY_C7
    g = Game("aoi(players=3)", seed=12)
    p = g.state.players[0]
    keys = g.data.innovation_keys
    p[P_PALACE_TILE] = next(i for i, gain in enumerate(g.tab.palace_special) if gain)
    p[P_INNOVATIONS] = (keys.index("professors"), keys.index("deus_ex_machina"), -1)
    p[P_COMPETENCIES] = 1 << turn.COMPETENCY_C7
    unused = dict(turn.owned_specials(g, p.tolist()))
    assert set(unused) >= {turn.SP_PALACE, turn.SP_DEUS, turn.SP_PROFESSORS, turn.SP_COMPETENCY}
    assert unused[turn.SP_PROFESSORS] == g.tab.innovation_special[keys.index("professors")]
    p[P_SPECIALS_USED] = (1 << len(SPECIAL_WORDS)) - 1  # every special used this round
    assert turn.owned_specials(g, p.tolist()) == list(unused.items())
    assert turn._unused_specials(g, p.tolist()) == ()


def test_issue10_the_game_sequence_step_is_flow_step() -> None:
    """``_advance`` runs the game sequence through the ``engine.SEQUENCE`` registry (no import per
    empty stack): the registered step is ``flow.step``, and a game runs it through the registry
    from the setup (R21) to the end of the six rounds (R56)."""
    from aoi_env.core import engine, flow
    from aoi_env.core.state import G_PHASE, Phase

    assert engine.SEQUENCE["step"] is flow.step and len(engine.SEQUENCE) == 1
    calls = []
    engine.SEQUENCE["step"] = lambda g: (calls.append(int(g.state.glob[G_PHASE])), flow.step(g))
    try:
        g = Game("aoi(players=2)", seed=1)
        rng = np.random.default_rng(1)
        while not g.is_over():
            g.apply_action(random_action(g, rng))
    finally:
        engine.SEQUENCE["step"] = flow.step
    assert calls[0] == Phase.SETUP and {Phase.INCOME, Phase.ACTIONS, Phase.SCIENCE} <= set(calls)


def test_r47_r74_scholar_ids_equal_the_free_scholar_spaces() -> None:
    """R47 / R74: the scholar actions MAIN offers (``turn._scholar_ids``, cached by the spaces' bytes,
    issue 10) are, per discipline, the "3" space and a "2" space exactly when ``scholar_space``
    finds one free, and form 2 (no space) always, at every decision of random games."""
    from aoi_env.core.moves import SCHOLAR_BASE
    from aoi_env.core.state import G_SCHOLAR_SPACES

    patterns = set()
    configs = (("aoi(players=4)", 5), ("aoi(players=2)", 6), ("aoi(players=5,ruleset=v1.0)", 7))
    for g in _positions(configs):
        key = g.state.glob_ints[G_SCHOLAR_SPACES].tobytes()
        patterns.add(key)
        expected = [
            SCHOLAR_BASE + d * 3 + form
            for d in range(4)
            for form in range(3)
            if form == 2 or turn.scholar_space(g, d, form) >= 0
        ]
        assert list(turn._scholar_ids(key)) == expected
    assert len(patterns) > 10  # the spaces fill up during the games


def test_r54_changed_hexes_are_found_from_the_cache_keys() -> None:
    """The incremental hex caches (R39 reach, R54 buildings, R35 land) start from the hexes that
    changed since the previous cache: ``terrain._changed`` finds them from the two keys' bits
    (issue 10), ascending, exactly the positions whose fields differ, and None for more than
    ``_MAX_CHANGED`` (then everything is derived afresh)."""
    from aoi_env.core.rules import terrain
    from aoi_env.core.state import HEX_FIELDS

    rng = np.random.default_rng(11)
    g = Game("aoi(players=3)", seed=2)
    positions = g.state.hexes.shape[0]
    for trial in range(300):
        before = terrain.hex_cache(g)
        k = int(rng.integers(0, terrain._MAX_CHANGED + 4))
        picked = rng.choice(positions, size=k, replace=False)
        for pos in picked.tolist():  # any field, the first and the last position included
            field = int(rng.integers(HEX_FIELDS))
            g.state.hexes[pos, field] = (int(g.state.hexes[pos, field]) + int(rng.integers(1, 100))) % 120
        if trial % 50 == 0:
            g.state.hexes[0, 0] += 1
            g.state.hexes[positions - 1, HEX_FIELDS - 1] += 1
        after = terrain.hex_cache(g)
        if after is before:
            continue
        assert after.prev is before
        old_hexes = np.frombuffer(before.key, np.int8).reshape(positions, HEX_FIELDS)
        want = np.flatnonzero((g.state.hexes != old_hexes).any(axis=1)).tolist()  # ascending
        got = terrain._changed(after)
        assert got == (want if len(want) <= terrain._MAX_CHANGED else None), (trial, want, got)
        for pos in want:
            assert terrain._previous_hex(after, pos) == tuple(old_hexes[pos].tolist())


def _write_rare_by_arrays(g: Game, observer: int, buf: np.ndarray) -> None:
    """``observation._write_rare`` as it was before issue 10's twelfth pass: numpy views of each
    block, the Automa records as numpy rows, one-hot rows by fancy indexing."""
    from aoi_env.core import automa
    from aoi_env.core.state import (
        G_BONUS_ROW,
        G_BUNDLE_BONUS,
        G_BUNDLE_FACTION,
        G_DRAFT_BOARDS,
        G_DRAFT_FACTIONS,
        G_DRAFT_PALACES,
        G_PHASE,
        Phase,
    )
    from aoi_env.observation import SHAPES, SLICES, relative_seat

    def view(name: str) -> np.ndarray:
        return buf[SLICES[name]].reshape(SHAPES[name])

    def one_hot_rows(v: np.ndarray, index: np.ndarray) -> None:
        rows = np.flatnonzero(index >= 0)
        v[rows, index[rows]] = 1.0

    n = g.seats
    glob = g.state.glob
    if g.config.players < n:
        player, cards, open_cards = view("player_automa"), view("player_automa_cards"), view("player_automa_open")
        for seat in range(g.config.players, n):
            r = relative_seat(seat, observer, n)
            rec = automa.record(g, seat)
            player[r, 0] = automa.level_of(g, seat) / 5.0
            player[r, 1 + int(rec[automa.A_FACTION])] = 1.0
            cards[r, 0] = rec[automa.A_DECK_LEN] / automa.NUM_CARDS
            cards[r, 1] = rec[automa.A_RESERVE_LEN] / automa.NUM_CARDS
            cards[r, 1 + rec[automa.A_DISCARD][: rec[automa.A_DISCARD_LEN]]] = 1.0
            for row, card in enumerate((automa.support_card(rec), automa.open_action_card(rec))):
                if card:
                    open_cards[r, row, card - 1] = 1.0
        one_hot_rows(view("automa_bonus_row"), glob[G_BONUS_ROW])
    if glob[G_PHASE] == Phase.SETUP:
        one_hot_rows(view("setup_bundle_faction"), glob[G_BUNDLE_FACTION])
        one_hot_rows(view("setup_bundle_bonus"), np.where(glob[G_BUNDLE_FACTION] >= 0, glob[G_BUNDLE_BONUS], -1))
        draft = view("setup_draft")
        for offset, field in ((0, G_DRAFT_BOARDS), (7, G_DRAFT_FACTIONS), (19, G_DRAFT_PALACES)):
            ids = glob[field]
            draft[offset + ids[ids >= 0]] = 1.0
        if g.config.automa and g.config.players == 1:
            factions, boards = glob[G_DRAFT_FACTIONS], glob[G_DRAFT_BOARDS]
            offered = (factions >= 0) & (boards >= 0)
            view("setup_solo_pairs")[factions[offered], boards[offered]] = 1.0


def test_issue10_automa_and_setup_blocks_equal_the_array_version() -> None:
    """AUTOMA.md §4.3 / §4.6 (her level, faction, card counts, discard pile, open cards), the
    Automa bonus row and R7-R12's setup pools: ``observation._write_rare`` (plain ints, the Automa
    part memoised on her records, issue 10) writes exactly what the array version writes, for
    every observer at every decision of solo, two-Automa, 2-human-with-Automa and drafted games,
    whether its memo hits or not."""
    from aoi_env import observation
    from aoi_env.core.state import G_PHASE, Phase

    configs = (
        (GameConfig(players=1, automa=("simpletons:3",)), 1),
        (GameConfig(players=1, automa=("kuddlers:2", "powermongers:4")), 2),
        (GameConfig(players=2, automa=("druids:4",)), 3),
        (GameConfig(players=1, automa=("racelings:5",), ruleset="v1.0"), 4),
        (GameConfig(players=3), 5),
    )
    checked = setup = 0
    game = None
    for g in _positions(configs):
        if g is not game:  # a new game: the memo starts empty, then keeps what earlier positions left
            observation._AUTOMA_ENTRIES.clear()
            game = g
        for observer in [*range(g.seats), *range(g.seats)]:  # a miss of the memo or a hit, then a hit
            got, want = np.zeros(observation.OBS_SIZE, np.float32), np.zeros(observation.OBS_SIZE, np.float32)
            observation._write_rare(g, observer, got)
            _write_rare_by_arrays(g, observer, want)
            assert got.tobytes() == want.tobytes()
            checked += 1
            setup += g.state.glob_ints[G_PHASE] == Phase.SETUP
    assert checked > 1000 and setup > 20


def _human_mask_by_arrays(g: Game) -> np.ndarray:
    """The humans' buildings as a mask of the hexes: the array form ``automa._human_bits`` replaced."""
    from aoi_env.core.state import H_BUILDING, H_OWNER

    h = g.state.hexes
    return np.isin(h[:, H_OWNER], [s for s in range(g.seats) if g.is_player(s)]) & (h[:, H_BUILDING] > 0)


def test_issue10_automa_power_and_distance_to_humans_equal_the_per_position_formulas() -> None:
    """AUTOMA.md §5.1 / §10 #12 (power a build would offer the humans) and the "closest" tie
    breaker: ``power_to_humans_everywhere`` (one pass over the neighbour lists, issue 10) equals the sum over each
    position's neighbours, and ``closest_to_humans`` keeps exactly the options at the least
    distance computed option by option, in solo, two-Automa and two-human games."""
    from aoi_env.core import automa

    rng = np.random.default_rng(12)
    checked = powered = 0
    for g in _automa_positions(6):
        if g.state.glob_ints[G_DECISIONS] % 2:
            continue
        humans = _human_mask_by_arrays(g)
        values = automa.buildings.power_values(g)
        adjacency = g.adjacency()
        want = [int(values[adjacency[pos] & humans].sum()) for pos in range(len(humans))]
        assert automa.power_to_humans_everywhere(g) == want
        options = sorted(rng.choice(len(humans), size=int(rng.integers(1, 12)), replace=False).tolist())
        targets = np.flatnonzero(humans)
        if len(targets):
            dist = [int(automa._cube_distance()[p, targets].min()) for p in options]
            assert automa.closest_to_humans(g, options) == [
                p for p, d in zip(options, dist, strict=True) if d == min(dist)
            ]
        checked += 1
        powered += any(want)
    assert checked > 100 and powered > 50


def _valid_hexes_by_masks(g: Game, seat: int, structure: str) -> list[int]:
    """``automa.valid_hexes`` as it was before issue 10's twelfth pass: masks of her (un)marked
    buildings, ``Geometry.reach_from`` without bridges, ``np.flatnonzero``."""
    from aoi_env.core import automa
    from aoi_env.core.rules.terrain import empty_land
    from aoi_env.core.state import H_BUILDING, H_MARK, H_OWNER

    h = g.state.hexes
    mine = (h[:, H_OWNER] == seat) & (h[:, H_BUILDING] > 0)
    marked, unmarked = mine & (h[:, H_MARK] == 1), mine & (h[:, H_MARK] == 0)
    base = marked if structure.startswith("M") else unmarked
    ship = automa._ship(g, seat)
    area = g.geo.reach_from(base, ship, np.zeros((0, 2), dtype=np.intp)) & empty_land(g)
    options = [int(p) for p in np.flatnonzero(area)]
    linked = marked.any() and g.geo.reach[min(ship, g.geo.reach.shape[0] - 1)][marked][:, unmarked].any()
    if structure.endswith("R") and options and marked.any() and unmarked.any() and not linked:
        dist = automa._cube_distance()
        m, u = np.flatnonzero(marked), np.flatnonzero(unmarked)
        d0 = int(dist[np.ix_(m, u)].min())
        other = u if structure == "MR" else m
        options = [p for p in options if int(dist[p, other].min()) < d0] or options
    return options


def test_issue10_automa_valid_hexes_equal_the_mask_version() -> None:
    """AUTOMA.md §5.1 / §10 #5 (structure selection, Bring together): ``automa.valid_hexes`` from
    her building positions and the reach rows as bits (issue 10) equals the mask version for every
    structure code, on positions of solo and two-Automa games whose building marks are shuffled
    (random play marks few), and ``terrain.positions`` inverts ``terrain.bits``."""
    from aoi_env.core import automa
    from aoi_env.core.rules import terrain
    from aoi_env.core.state import H_MARK

    rng = np.random.default_rng(5)
    checked = together = 0
    for g, built in _automa_clones(9):
        g.state.hexes[built, H_MARK] = rng.random(len(built)) < 0.5
        for seat in range(g.config.players, g.seats):
            for structure in ("M", "U", "MR", "UR"):
                got = automa.valid_hexes(g, seat, structure)
                assert got == _valid_hexes_by_masks(g, seat, structure)
                together += structure.endswith("R") and got != automa.valid_hexes(g, seat, structure[0])
            checked += 1
        empty = terrain.empty_land(g)
        assert terrain.positions(terrain.empty_land_bits(g)) == np.flatnonzero(empty).tolist()
    assert checked > 100 and together > 5


def test_issue10_automa_distances_as_bits_equal_the_distance_table() -> None:
    """AUTOMA.md §10 #4 (every hex step counts): ``automa._nearest`` (the distance table as bit
    sets per position and radius, issue 10) is the least ``_cube_distance`` to a set of positions,
    for random positions and sets of every size; an empty set is a ValueError."""
    from aoi_env.core import automa
    from aoi_env.data import NUM_POSITIONS

    dist = automa._cube_distance()
    rng = np.random.default_rng(4)
    for _ in range(3000):
        pos = int(rng.integers(NUM_POSITIONS))
        targets = rng.choice(NUM_POSITIONS, size=int(rng.integers(1, 12)), replace=False)
        assert automa._nearest(pos, sum(1 << int(q) for q in targets)) == int(dist[pos, targets].min())
    with pytest.raises(ValueError, match="no target"):
        automa._nearest(0, 0)


def _upgrade_candidates_by_arrays(g: Game, seat: int) -> list[tuple[int, int]]:
    """``automa.upgrade_candidates`` as it was before the thirteenth pass of issue 10: a mask of
    the humans' buildings and the adjacency matrix."""
    from aoi_env.core.rules import buildings
    from aoi_env.core.state import H_BUILDING, H_OWNER

    h = g.state.hexes
    mine = np.flatnonzero((h[:, H_OWNER] == seat) & (h[:, H_BUILDING] > 0)).tolist()
    upgradable = []
    for p in mine:
        for new in {1: (2,), 2: (5, 3), 3: (4,)}.get(int(h[p, H_BUILDING]), ()):
            if buildings.pieces_left(g, seat, new) > 0:
                upgradable.append((p, new))
                break
    if buildings.pieces_left(g, seat, Building.GUILD) > 0:
        near = g.adjacency()[:, _human_mask_by_arrays(g)].any(axis=1)
        workshops = [(p, new) for p, new in upgradable if h[p, H_BUILDING] == Building.WORKSHOP and near[p]]
        if workshops:
            return workshops
    return upgradable


def _can_advance_by_arrays(g: Game, seat: int, d: int) -> bool:
    """``automa.can_advance`` (§10 #14) from the numpy player rows."""
    from aoi_env.core.rules import science
    from aoi_env.core.state import P_SCIENCE

    level, top = int(g.state.players[seat, P_SCIENCE][d]), science.MAX_LEVEL
    if level >= top or (level == science.KEY_LEVEL - 1 and science.keys_available(g.state.players[seat]) <= 0):
        return False
    return not (level == top - 1 and (np.delete(g.state.players[:, P_SCIENCE][:, d], seat) >= top).any())


def test_issue10_automa_upgrade_candidates_and_catch_up_equal_the_array_version() -> None:
    """AUTOMA.md §5.3 / §10 #9-#11 (what she upgrades, Workshops next to a human first) and the
    §5.1 science catch-up: ``automa.upgrade_candidates`` (the humans' buildings as bits and the
    neighbour lists) and ``automa.catch_up`` (science levels as plain ints, issue 10) equal the
    array versions, on positions whose building types and science levels are shuffled (random
    play upgrades and advances little)."""
    from aoi_env.core import automa
    from aoi_env.core.state import H_BUILDING, P_SCIENCE

    rng = np.random.default_rng(13)
    checked = near = caught_up = 0
    for g, built in _automa_clones(13):
        h = g.state.hexes
        h[built, H_BUILDING] = rng.choice([1, 1, 2, 3, 4, 5], size=len(built))
        g.state.players[:, P_SCIENCE] = rng.integers(0, 13, size=(g.seats, 4))
        for seat in range(g.config.players, g.seats):
            got = automa.upgrade_candidates(g, seat)
            assert got == _upgrade_candidates_by_arrays(g, seat)
            near += bool(got) and all(h[p, H_BUILDING] == Building.WORKSHOP for p, _ in got)
            for card in (1, 5, 9):
                support = automa.automa_data().cards[card]
                levels = g.state.players[seat, P_SCIENCE].tolist()
                options = [d for d in range(4) if _can_advance_by_arrays(g, seat, d)]
                options = [d for d in options if levels[d] == 0] or options
                top = g.state.players[: g.config.players, P_SCIENCE].max(axis=0).tolist()
                if len(options) > 1:
                    best = min(abs(levels[d] - top[d]) for d in options)
                    options = [d for d in options if abs(levels[d] - top[d]) == best]
                want = automa.directional(options, support.direction, support.count) if options else None
                assert automa.catch_up(g, seat, support) == want
                caught_up += want is not None
            checked += 1
    assert checked > 100 and near > 20 and caught_up > 100
