"""The observation encoding (issue 5 item 2): layout, bounds, egocentric rotation, pending context."""

from __future__ import annotations

import numpy as np
import pytest

import aoi_env.observation as ob
from aoi_env import Game
from aoi_env.core.board import geometry, parse_hex
from aoi_env.core.pending import Kind
from aoi_env.core.rules.terrain import reach
from aoi_env.core.state import G_AREA_TOKEN, G_BONUS_ROW, G_ROUND
from aoi_env.data.enums import Faction, Terrain
from aoi_env.env import raw_env
from aoi_env.observation import LAYOUT, OBS_SIZE, SLICES, encode, layout, views
from aoi_env.testing import Scenario, biased_random_action, play, play_random, random_action

PLAYER_BLOCKS = [b.name for b in LAYOUT if b.name.startswith("player_")]


def rotation_position() -> Game:
    """3 players: seat 0 Lake Workshop r4c9, seat 1 Forest Guild r3c5 (35 VP), seat 2 Desert
    Workshop r6c3 with 30 coins and a bridge r6c3-r7c4; seat 0's main action is pending."""
    return (
        Scenario("aoi(players=3)", factions=["blessed", "felines", "goblins"], boards=["lake", "forest", "desert"])
        .build(0, "r4c9", "workshop")
        .build(1, "r3c5", "guild")
        .build(2, "r6c3", "workshop")
        .bridge(2, "r6c3", "r7c4")
        .set(1, vp=35)
        .set(2, coins=30)
        .turn(0)
    )


def offer_position() -> Game:
    """Seat 0 (Lake) builds on r4c10 (swamp, 1 spade) next to seat 1's Workshop on r4c11."""
    g = (
        Scenario("aoi(players=3)", factions=["blessed", "felines", "goblins"], boards=["lake", "forest", "desert"])
        .build(0, "r4c9", "workshop")
        .build(1, "r4c11", "workshop")
        .build(2, "r6c3", "workshop")
        .terrain("r4c10", "swamp")
        .set(0, tools=9)
        .turn(0)
    )
    return g


# -- layout -----------------------------------------------------------------------------------


def test_style14_layout_named_slices_are_contiguous_and_cover_obs_size() -> None:
    """STYLE §5.14: one flat buffer; the named slices follow each other and end at OBS_SIZE."""
    names = [name for name, _, _ in layout()]
    assert len(set(names)) == len(names) == len(LAYOUT)
    cursor = 0
    for name, sl, shape in layout():
        assert sl.start == cursor and sl.stop - sl.start == int(np.prod(shape)), name
        cursor = sl.stop
    assert cursor == OBS_SIZE == 7437
    obs = np.arange(OBS_SIZE, dtype=np.float32)
    v = views(obs)
    assert v["hex_terrain"].shape == (9, 117)
    assert v["hex_terrain"][1, 0] == 117  # plane 1 (plains), position 0 -> flat index 1 * 117 + 0
    v["pending_acquisition"][1] = -1.0  # views, not copies
    assert obs[OBS_SIZE - 1] == -1.0
    with pytest.raises(ValueError, match=r"an observation has shape \(7437,\)"):
        views(obs[:-1])


def test_style14_layout_writer_must_fill_exactly_obs_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """STYLE §5.14: the encoder checks that the block writers end exactly at OBS_SIZE."""
    g = Game("aoi(players=2)", seed=0)

    def short_write(game: Game, observer: int, w: ob._Writer, cached: object) -> None:
        w("hex_terrain")

    monkeypatch.setattr(ob, "_write", short_write)
    numpy_encoder = ob.ObservationEncoder(compiled=False)  # the compiled twin has no block writer
    with pytest.raises(AssertionError, match="observation writer stopped at 1053, expected OBS_SIZE = 7437"):
        numpy_encoder.encode(g, 0)

    def wrong_order(game: Game, observer: int, w: ob._Writer, cached: object) -> None:
        w("hex_building")

    monkeypatch.setattr(ob, "_write", wrong_order)
    with pytest.raises(AssertionError, match="'hex_building' written out of order"):
        numpy_encoder.encode(g, 0)


def test_style14_cached_sections_equal_a_fresh_encoding() -> None:
    """The numpy encoder caches the map section per observer and the displays for all observers;
    over random games (and across games sharing one encoder) every observation equals a fresh
    encoding."""
    enc = ob.ObservationEncoder(compiled=False)
    for players, seed in ((2, 21), (4, 22)):
        g = Game(f"aoi(players={players},distribution=draft)", seed=seed)
        rng = np.random.default_rng(seed)
        while not g.is_over():
            for seat in range(players):
                fresh = ob.ObservationEncoder(compiled=False).encode(g, seat)
                np.testing.assert_array_equal(enc.encode(g, seat), fresh)
            g.apply_action(random_action(g, rng))
    assert {key for key, _ in enc._cache} == {"map"} and set(enc._shared) == {"map", "displays"}


def test_style14_an_out_of_range_value_writes_only_inside_its_own_block() -> None:
    """The one-hot values go through precomputed destination tables (issue 10); a value outside
    a table's range (a corrupted state) is clipped into its own entry's row, so it can change its
    own block at most, never another block."""
    from aoi_env.core.state import G_ROUND_TILES, P_BONUS, P_FACTION

    g = rotation_position()
    clean = encode(g, 0)
    for field, value, block in ((P_FACTION, 40, "player_faction"), (P_BONUS, -7, "player_bonus")):
        bad = g.clone()
        bad.state.players[1, field] = value
        obs = encode(bad, 0)
        outside = np.ones(OBS_SIZE, dtype=bool)
        outside[SLICES[block]] = False
        np.testing.assert_array_equal(obs[outside], clean[outside])
    bad = g.clone()
    bad.state.glob[G_ROUND_TILES.start + 5] = 99
    obs = encode(bad, 0)
    outside = np.ones(OBS_SIZE, dtype=bool)
    outside[SLICES["round_tiles"]] = False
    np.testing.assert_array_equal(obs[outside], clean[outside])


def test_a13_observations_are_float32_in_bounds_in_random_games() -> None:
    """A13 / P8: every observation is finite float32 inside the declared Box (all seats)."""
    for players in (2, 3, 4, 5):
        e = raw_env(num_players=players)
        e.reset(seed=players)
        space = e.observation_space("player_0")
        rng = np.random.default_rng(players)
        step = 0
        while not e.game.is_over():
            for agent in e.possible_agents if step % 25 == 0 else [e.agent_selection]:
                obs = e.observe(agent)
                assert obs["observation"].dtype == np.float32
                assert space.contains(obs), f"{agent} at step {step}"
            e.step(random_action(e.game, rng))
            step += 1
        assert space.contains(e.observe("player_0"))


def test_design6_hex_terrain_is_one_hot_with_river_and_off_planes() -> None:
    """Every grid position has exactly one terrain plane; river and off match the board side."""
    for side, game in (("3-5", "aoi(players=3)"), ("1-3", "aoi(players=2)")):
        v = views(encode(Game(game, seed=1), 0))
        geo = geometry(side)
        assert (v["hex_terrain"].sum(axis=0) == 1).all()
        assert v["hex_terrain"][Terrain.RIVER].sum() == geo.river.sum()
        assert v["hex_terrain"][Terrain.OFF].sum() == 117 - geo.river.sum() - geo.land.sum()
        assert v["game_map"][0] == (side == "1-3")


# -- egocentric rotation ---------------------------------------------------------------------


def test_design6_egocentric_rotation_on_a_scenario_position() -> None:
    """DESIGN §6: the observer is relative seat 0 and the seat after it relative seat 1; seen by
    seat 1 of 3, seat 2 is relative seat 1 and seat 0 relative seat 2."""
    g = rotation_position()
    v = views(encode(g, 1))
    r4c9, r3c5, r6c3, r7c4 = (parse_hex(x) for x in ("r4c9", "r3c5", "r6c3", "r7c4"))
    # owners: seat 0 -> rel 2, seat 1 -> rel 0, seat 2 -> rel 1
    assert v["hex_owner"][:, r4c9].tolist() == [0, 0, 1, 0, 0]
    assert v["hex_owner"][:, r3c5].tolist() == [1, 0, 0, 0, 0]
    assert v["hex_owner"][:, r6c3].tolist() == [0, 1, 0, 0, 0]
    assert v["hex_building"][0, r4c9] == 1 and v["hex_building"][1, r3c5] == 1  # workshop, guild planes
    assert v["hex_terrain"][Terrain.LAKE, r4c9] == 1  # built on seat 0's home terrain
    assert v["hex_bridge_dirs"][1, 0, r6c3] == 1  # seat 2's bridge r6c3 - r7c4: next row far right
    assert v["hex_bridge_dirs"].sum() == 1 and r7c4 > r6c3
    # player rows: row 0 = seat 1 (felines, forest), row 1 = seat 2 (goblins, desert), row 2 = seat 0
    assert v["player_present"].tolist() == [1, 1, 1, 0, 0]
    assert np.flatnonzero(v["player_faction"][0])[0] == Faction.FELINES
    assert np.flatnonzero(v["player_board"][1])[0] == Terrain.DESERT
    assert np.flatnonzero(v["player_board"][2])[0] == Terrain.LAKE
    assert v["player_resources"][0, 0] == pytest.approx(35 / 200)  # seat 1's VP
    assert v["player_resources"][1, 1] == pytest.approx(30 / 100)  # seat 2's coins
    assert v["player_resources"][2, 1] == pytest.approx(15 / 100)  # seat 0's printed 15 coins
    assert v["player_buildings"][0].tolist() == [0, 0.25, 0, 0, 0]  # 1 of 4 guilds
    assert v["player_counts"][1, 1] == pytest.approx(1 / 3)  # seat 2: 1 of 3 bridges
    # turn order 0, 1, 2: seat 0 (rel 2) first, seat 1 (rel 0) second, seat 2 (rel 1) third
    assert np.argmax(v["player_order"], axis=1)[:3].tolist() == [1, 2, 0]
    # seat 0 decides its main action: relative seat 2
    assert v["pending_seat"].tolist() == [0, 0, 1, 0, 0]
    assert ob.DECISION_KINDS[int(np.argmax(v["pending_kind"]))] == Kind.MAIN
    # the reach plane is the observer's (seat 1, sailing 0): the Guild's land neighbours
    np.testing.assert_array_equal(v["hex_reach"][0], reach(g, 1))
    assert v["hex_reach"][0, parse_hex("r3c4")] == 1 and v["hex_reach"][0, r4c9] == 0
    # seen by seat 0 the same facts sit in other rows
    v0 = views(encode(g, 0))
    assert v0["hex_owner"][:, r4c9].tolist() == [1, 0, 0, 0, 0]
    assert v0["player_resources"][2, 1] == pytest.approx(30 / 100)
    assert v0["pending_seat"].tolist() == [1, 0, 0, 0, 0]


@pytest.mark.parametrize("players", [2, 4, 5])
def test_design6_egocentric_rotation_is_one_function_of_the_seat(players: int) -> None:
    """Row r of every player block seen by seat o is row (o + r) % n seen by seat 0."""
    g = Game(f"aoi(players={players})", seed=3)
    rng = np.random.default_rng(3)
    for _ in range(80):  # into round 2 or 3, with buildings, passes and a new turn order
        g.apply_action(random_action(g, rng))
    base = views(encode(g, 0))
    for o in range(1, players):
        v = views(encode(g, o))
        order = ob.relative_order(o, players)
        for name in [*PLAYER_BLOCKS, "hex_owner", "hex_bridge_dirs"]:
            if name in ("player_order", "player_next_order"):
                continue  # rows rotate; the columns are turn-order positions
            np.testing.assert_array_equal(v[name][:players], base[name][order], err_msg=name)
        for name in ("player_order", "player_next_order"):
            np.testing.assert_array_equal(v[name][:players], base[name][order], err_msg=name)
        np.testing.assert_array_equal(v["hex_terrain"], base["hex_terrain"])


# -- pending-decision context ------------------------------------------------------------------


def test_r63_pending_context_names_the_first_hex_and_tb_flags() -> None:
    """R63: after choosing the first hex of a Terraform & Build, the spade decision carries that
    hex as a one-hot plane, no free spades and the buy/Workshop flags."""
    g = offer_position()
    g.apply_move("build")
    g.apply_move("target r4c10")
    assert g.pending_kind() == Kind.TB_SPADES
    v = views(encode(g, 0))
    assert v["hex_pending"][0].sum() == 1 and v["hex_pending"][0, parse_hex("r4c10")] == 1
    assert ob.DECISION_KINDS[int(np.argmax(v["pending_kind"]))] == Kind.TB_SPADES
    assert v["pending_count"][0] == 0.0  # paid with tools: 0 free spades
    assert v["pending_flags"].tolist() == [1, 1, 0, 0]  # buy spades, Workshop allowed


def test_r42_pending_context_of_a_power_offer() -> None:
    """R42: the offer decision shows the offered seat, the builder and the power (1 for a
    Workshop) relative to the observer."""
    g = offer_position()
    for move in ("build", "target r4c10", "spades 1", "workshop"):
        g.apply_move(move)
    assert g.pending_kind() == Kind.OFFER and g.current_seat() == 1
    v = views(encode(g, 1))
    assert ob.DECISION_KINDS[int(np.argmax(v["pending_kind"]))] == Kind.OFFER
    assert v["pending_seat"].tolist() == [1, 0, 0, 0, 0]  # the observer decides
    assert v["pending_builder"].tolist() == [0, 0, 1, 0, 0]  # seat 0 = relative seat 2 of seat 1
    assert v["pending_count"][0] == pytest.approx(1 / 16)  # Workshop power value 1 (power / OFFER_SCALE)


def test_a9_action_mask_only_for_the_agent_to_move() -> None:
    """A9: the mask is the legal ids for the deciding agent and all zeros for the others."""
    e = raw_env(num_players=3)
    e.reset(options={"game": offer_position()})
    masks = {a: e.observe(a)["action_mask"] for a in e.possible_agents}
    assert masks["player_0"].dtype == np.int8
    assert np.flatnonzero(masks["player_0"]).tolist() == e.game.legal_actions()
    assert masks["player_1"].sum() == 0 and masks["player_2"].sum() == 0


def test_a3_state_is_the_observation_of_seat_0() -> None:
    """state(): the global view = seat 0's observation (relative seat r = seat r)."""
    e = raw_env(num_players=4)
    e.reset(seed=8)
    assert e.state_space.contains(e.state())
    np.testing.assert_array_equal(e.state(), e.observe("player_0")["observation"])
    np.testing.assert_array_equal(e.state(), encode(e.game, 0))


def test_r24_r25_two_player_neutral_faction_is_observed_and_its_token_is_hidden_until_round_6() -> None:
    """R24: with 2 players the neutral science markers are part of the view and the neutral
    scholars sit on the '2' space of every discipline; the area token lies face down (R24.2) and
    is observed only from the start of round 6 on (R25), by both seats."""
    g = Game("aoi(players=2)", seed=4)
    v = views(encode(g, 0))
    token = int(g.state.glob[G_AREA_TOKEN])
    assert token in (12, 13, 14, 15)
    assert v["neutral_faction"][0] == 0.0  # face down: nothing about its value is visible
    assert v["neutral_faction"][1:].max() > 0
    assert v["scholar_spaces"][:, 5].tolist() == [0, 1, 0, 0] * 4  # neutral column, space index 1
    assert v["game_players"].tolist() == [1, 0, 0, 0]
    encoder = ob.ObservationEncoder()  # the cached display section must notice the reveal
    play_random(g, np.random.default_rng(0), lambda g: int(g.state.glob[G_ROUND]) >= 5)
    assert views(encoder.encode(g, 1))["neutral_faction"][0] == 0.0
    play_random(g, np.random.default_rng(0), lambda g: int(g.state.glob[G_ROUND]) >= 6)
    for seat in (0, 1):
        assert views(encoder.encode(g, seat))["neutral_faction"][0] == pytest.approx(token / 15)
        assert views(encode(g, seat))["neutral_faction"][0] == pytest.approx(token / 15)


def test_r15_setup_pools_are_observed_during_setup_only() -> None:
    """R15: while sets are picked their factions and bonus tiles are visible; afterwards empty."""
    g = Game("aoi(players=3)", seed=2)
    v = views(encode(g, 0))
    assert g.pending_kind() == Kind.PICK_BUNDLE
    assert v["setup_bundle_faction"].sum() == 7 and v["setup_bundle_bonus"].sum() == 7
    assert v["round"][0] == 1 and v["phase"][0] == 1
    g = Game("aoi(players=3,setup_choices=random)", seed=2)
    v = views(encode(g, 0))
    assert v["setup_bundle_faction"].sum() == 0 and v["round"][1] == 1


def test_style12_layout_table_lists_every_block() -> None:
    """The generated layout table has one row per block with its slice."""
    rows = ob.layout_table().splitlines()[2:]
    assert len(rows) == len(LAYOUT)
    for row, block in zip(rows, LAYOUT, strict=True):
        sl = SLICES[block.name]
        assert row.startswith(f"| {sl.start}:{sl.stop} | `{block.name}` |")


# -- context a decision needs (added after an audit found positions with equal observations
#    and different legal moves) ----------------------------------------------------------------


def both_encoders(g: Game, seat: int) -> dict[str, np.ndarray]:
    """The observation's views, checked equal between the numpy and the compiled encoder."""
    numpy_obs = ob.ObservationEncoder(compiled=False).encode(g, seat)
    from aoi_env import observation_jit

    if observation_jit.AVAILABLE:
        assert np.array_equal(ob.ObservationEncoder(compiled=True).encode(g, seat), numpy_obs)
    return views(numpy_obs)


def test_r42_offer_in_another_players_turn_shows_whose_turn_it_is() -> None:
    """R42, R79 / OP-59: decisions also come in other players' turns (power offers, city tiles
    after another player's bridge), and what is legal can depend on it (conversions only in
    one's own turn): ``pending_turn`` is the seat whose turn it is, relative."""
    g = offer_position()
    v = both_encoders(g, 0)
    assert v["pending_turn"].tolist() == [1, 0, 0, 0, 0]  # the observer's own turn
    for move in ("build", "target r4c10", "spades 1", "workshop"):
        g.apply_move(move)
    v = both_encoders(g, 1)
    assert v["pending_seat"].tolist() == [1, 0, 0, 0, 0]  # seat 1 decides ...
    assert v["pending_turn"].tolist() == [0, 0, 1, 0, 0]  # ... in seat 0's turn (relative 2)


def test_r42_power_offer_above_eight_is_not_clipped() -> None:
    """R42: an offer is the sum of the neighbours' power values (pavilions add 1, OP-50); one of
    10 must not read as 8."""
    sc = Scenario("aoi(players=3)", factions=["blessed", "felines", "goblins"], boards=["lake", "forest", "desert"])
    sc.build(0, "r4c9", "workshop").terrain("r4c10", "swamp").set(0, tools=9)
    for h, building in (("r4c11", "palace"), ("r3c10", "university"), ("r5c10", "guild")):
        sc.build(1, h, building)
    sc.pavilion("r4c11").pavilion("r3c10")  # +1 power each (C6, OP-50)
    g = sc.build(2, "r6c3", "workshop").set(1, bowls=(12, 0, 0)).turn(0)
    for move in ("build", "target r4c10", "spades 1", "workshop"):
        g.apply_move(move)
    assert g.pending_kind() == Kind.OFFER
    assert both_encoders(g, 1)["pending_count"][0] == pytest.approx(10 / ob.OFFER_SCALE)  # 3 + 3 + 2 + 2 pavilions


def test_r94_lizards_workshop_decision_names_the_terraformed_hex() -> None:
    """R94 / OP-53: the Lizards' free Workshop may go on the hex just terraformed even out of
    reach (a palace 9 flight), so ``hex_pending`` names it."""
    sc = Scenario("aoi(players=3)", factions=["lizards", "goblins", "omar"], boards=["swamp", "desert", "lake"])
    sc.round(1, tile="T1").build(0, "r8c5", "palace").palace_tile(0, 9).build(0, "r8c6", "guild")
    sc.build(0, "r8c7", "workshop").terrain("r8c8", "swamp").set(0, scholars=2, scholar_supply=5, tools=5, coins=10)
    g = sc.turn(0)
    for move in ("build", "target r8c8", "city K1", "fly", "fly r5c4", "spades 1"):
        g.apply_move(move)
    assert g.pending_kind() == Kind.LIZARD_BUILD
    v = both_encoders(g, 0)
    assert np.flatnonzero(v["hex_pending"][0]).tolist() == [parse_hex("r5c4")]
    # its flags too (p1: buy spades, Lizards; a mutation audit dropped LIZARD_BUILD from the flag kinds)
    assert v["pending_flags"].tolist() == [1.0, 0.0, 1.0, 0.0]


def test_r55_reward_order_shows_the_number_of_city_rewards_and_the_acquisition() -> None:
    """R55.4: ``first competency`` and ``first palace`` share one id, so the observation says
    which acquisition waits under the city rewards, and how many city rewards there are."""
    sc = Scenario("aoi(players=3)", factions=["inventors", "monks", "illusionists"], boards=["plains", "lake", "swamp"])
    sc.round(2, tile="T9").build(0, "r7c6", "school").build(0, "r7c7", "workshop").build(0, "r7c5", "guild")
    g = sc.build(0, "r8c6", "workshop").set(0, tools=5, coins=8).turn(0)
    g.apply_move("upgrade university")
    g.apply_move("upgrade r7c6")
    assert g.legal_moves() == ["first city", "first competency"]
    v = both_encoders(g, 0)
    assert v["pending_acquisition"].tolist() == [1, 0]
    assert v["pending_count"][0] == pytest.approx(1 / ob.COUNT_SCALE)


def test_op19_palace15_city_tiles_waiting_are_counted() -> None:
    """OP-19: while palace 15's parts resolve, ``player_counts`` shows 1 + the city tiles that
    wait (v1.2); before, a flag could not tell 0 from 2 waiting tiles."""
    sc = Scenario("aoi(players=3)", factions=["inventors", "monks", "illusionists"], boards=["plains", "lake", "swamp"])
    sc.round(2, tile="T9").build(0, "r8c6", "guild").build(0, "r6c6", "workshop").build(0, "r7c5", "guild")
    g = sc.offer_palace(15, 17).set(0, tools=5, coins=8).turn(0)
    for move in ("upgrade palace", "upgrade r7c5", "palace 15"):
        g.apply_move(move)
    assert both_encoders(g, 0)["player_counts"][0, 4] == pytest.approx(1 / ob.DEFER_SCALE)
    for move in ("part spades", "target r7c6", "spades 1", "workshop"):
        g.apply_move(move)
    assert g.pending_kind() == Kind.PALACE15  # the city is founded, its tile waits
    assert both_encoders(g, 0)["player_counts"][0, 4] == pytest.approx(2 / ob.DEFER_SCALE)


def test_solo_pick_shows_which_faction_comes_with_which_planning_card() -> None:
    """AUTOMA.md 3.3: the solo player picks one of three planning cards with two factions each;
    ``setup_solo_pairs`` holds the pairs (the draft pools alone lose them)."""
    g = Game("aoi(players=1,automa=simpletons:3)", seed=3)
    assert g.pending_kind() == Kind.PICK_BUNDLE or all(m.startswith("take ") for m in g.legal_moves())
    pairs = both_encoders(g, 0)["setup_solo_pairs"]
    offered = {(Faction[f.upper()], Terrain[t.upper()]) for f, t in (m.split()[1:] for m in g.legal_moves())}
    assert {(int(f), int(t)) for f, t in zip(*np.nonzero(pairs), strict=True)} == {(int(f), int(t)) for f, t in offered}


def test_automa_public_cards_and_bonus_row_are_observed() -> None:
    """AUTOMA.md 3.7, 4.3: the Automa's deck and reserve sizes, her face-up discard pile and the
    bonus-tile row she takes from at pass are on the table; the observation holds them."""
    from aoi_env.core import automa

    g = Game("aoi(players=1,automa=simpletons:3)", seed=2)
    play_random(g, np.random.default_rng(0), lambda g: int(automa.record(g, 1)[automa.A_DISCARD_LEN]) >= 2)
    rec = automa.record(g, 1)
    v = both_encoders(g, 0)
    cards = v["player_automa_cards"][1]  # relative seat 1 = the Automa
    assert cards[0] == pytest.approx(rec[automa.A_DECK_LEN] / 14) and cards[1] == pytest.approx(
        rec[automa.A_RESERVE_LEN] / 14
    )
    discard = sorted(int(c) for c in rec[automa.A_DISCARD][: rec[automa.A_DISCARD_LEN]])
    assert (np.flatnonzero(cards[2:]) + 1).tolist() == discard
    row = [int(t) for t in g.state.glob[G_BONUS_ROW] if t >= 0]
    assert [int(np.argmax(r)) for r in v["automa_bonus_row"][: len(row)]] == row
    assert not v["automa_bonus_row"][len(row) :].any() and not v["player_automa_cards"][0].any()


def test_automa_deck_order_and_reserve_content_stay_hidden() -> None:
    """AUTOMA.md 3.5 / 4.3: her deck and reserve are face down, so shuffling them or swapping a
    card between them changes no seat's observation (both encoders)."""
    from aoi_env.core import automa

    g = Game("aoi(players=1,automa=druids:4)", seed=3)
    rng = np.random.default_rng(1)
    for _ in range(40):
        g.apply_action(random_action(g, rng))
    rec = automa.record(g, 1)
    deck, reserve = int(rec[automa.A_DECK_LEN]), int(rec[automa.A_RESERVE_LEN])
    open_top = int(automa.open_action_card(rec) != 0)  # her face-up action card stays (AUTOMA.md 4.3)
    assert deck >= 2 + open_top and reserve >= 1
    other = g.clone()
    r2 = automa.record(other, 1)
    face_down = slice(automa.A_DECK.start + open_top, automa.A_DECK.start + deck)
    r2[face_down] = rec[face_down][::-1]
    a, b = automa.A_DECK.start + open_top, automa.A_RESERVE.start
    r2[a], r2[b] = rec[b], rec[a]  # a card moved from the deck to the reserve and back
    assert not np.array_equal(rec, r2)
    for seat in range(2):  # both encoders (checked equal to each other by both_encoders)
        for name, view in both_encoders(g, seat).items():
            np.testing.assert_array_equal(view, both_encoders(other, seat)[name], err_msg=name)


def test_automa_support_and_face_up_action_card_are_observed_and_kept_by_resample() -> None:
    """AUTOMA.md 4.3: each draw puts her support card face up on the discard pile and looks at
    the action card, which stays on top of her deck and is her next support card; everyone knows
    both until the deck is reshuffled before the next round (4.6).  The observation shows them,
    swapping that top card with a face-down one changes it, and ``hidden.resample`` keeps it."""
    from aoi_env.core import automa
    from aoi_env.core.hidden import resample

    g = Game("aoi(players=1,automa=powermongers:3)", seed=5)
    play_random(
        g,
        np.random.default_rng(2),
        lambda g: bool(automa.open_action_card(automa.record(g, 1))) and g.current_seat() == 0,
    )
    rec = automa.record(g, 1)
    support, action = int(rec[automa.A_DISCARD.start]), automa.open_action_card(rec)
    assert action == int(rec[automa.A_DECK.start]) and int(rec[automa.A_DECK_LEN]) >= 2
    seen = both_encoders(g, 0)["player_automa_open"][1]  # relative seat 1 = the Automa
    assert (np.flatnonzero(seen[0]) + 1).tolist() == [support] and (np.flatnonzero(seen[1]) + 1).tolist() == [action]
    swapped = g.clone()
    r2 = automa.record(swapped, 1)
    top, below = automa.A_DECK.start, automa.A_DECK.start + 1
    r2[top], r2[below] = rec[below], rec[top]
    assert not np.array_equal(
        both_encoders(swapped, 0)["player_automa_open"], both_encoders(g, 0)["player_automa_open"]
    )
    for k in range(20):
        assert automa.open_action_card(automa.record(resample(g, np.random.default_rng(k)), 1)) == action
    fresh = Game("aoi(players=1,automa=powermongers:3)", seed=5)  # before her first draw: nothing open
    assert not both_encoders(fresh, 0)["player_automa_open"].any()


def test_the_deciding_seats_observation_determines_its_legal_ids() -> None:
    """DESIGN §6: in random games, one observation of the deciding seat never stands for two
    different sets of legal ids (hidden information aside, which never changes them)."""
    seen: dict[bytes, frozenset[int]] = {}
    for game in ("aoi(players=2)", "aoi(players=3,distribution=draft)", "aoi(players=1,automa=mimics:3)"):
        for seed in range(2):
            g = Game(game, seed=seed)
            rng = np.random.default_rng(seed)
            while not g.is_over():
                legal = frozenset(g.legal_actions())
                key = encode(g, g.current_seat()).tobytes()
                assert seen.setdefault(key, legal) == legal, (game, seed)
                g.apply_action(biased_random_action(g, rng))
    assert len(seen) > 1000


def test_r38_r40_the_observation_tells_which_hexes_a_bridge_joins() -> None:
    """R38 / R40: a bridge makes its two ends adjacent (the Guild price, R67, reads it).  Two
    bridges over the same four hexes, paired differently, give different legal upgrades, so the
    observation must show the pairs, not only the hexes they touch (hex_bridge_dirs)."""
    from aoi_env.core.pending import BR_SPELL

    def position(moves: list[str]) -> Game:
        sc = Scenario("aoi(players=3)", skip_forced=True, factions=["moles", "felines", "omar"],
                      boards=["lake", "forest", "desert"])  # fmt: skip
        sc.build(0, "r4c3", "workshop").build(0, "r5c4", "workshop").build(0, "r2c4", "workshop")
        sc.build(1, "r3c4", "workshop").set(0, coins=4, tools=5)
        play(sc.decide(Kind.BRIDGE_END, 0, BR_SPELL, 2), *moves)
        return play(sc.turn(0), "upgrade guild")

    a = position(["bridge r4c3", "bridge to r3c4", "bridge r5c4", "bridge to r6c3"])
    b = position(["bridge r5c4", "bridge to r3c4", "bridge r4c3", "bridge to r6c3"])
    assert a.legal_moves() == ["upgrade r2c4", "upgrade r4c3"]  # r4c3 is next to seat 1's r3c4
    assert b.legal_moves() == ["upgrade r2c4", "upgrade r5c4"]
    assert not np.array_equal(encode(a, 0), encode(b, 0))
    va, vb = views(encode(a, 0)), views(encode(b, 0))
    r3c4 = parse_hex("r3c4")
    assert va["hex_bridge_dirs"][0, 1, r3c4] == 1 and vb["hex_bridge_dirs"][0, 2, r3c4] == 1  # far left / down


@pytest.mark.parametrize("side", ["3-5", "1-3"])
def test_r40_every_bridge_is_one_of_the_three_encoded_directions(side: str) -> None:
    """Every printed bridge spot and every Moles bridge (OP-47) has a direction in
    board.BRIDGE_DIRECTIONS, so hex_bridge_dirs can show any bridge."""
    from aoi_env.core.board import BRIDGE_DIRECTIONS, bridge_direction, geometry

    geo = geometry(side)
    seen = {bridge_direction(a, b)[1] for a, b in (*geo.bridge_spots, *geo.bridge_geometry)}
    assert seen == set(range(len(BRIDGE_DIRECTIONS)))


def test_a13_observation_action_mask_is_the_deciding_seats_legal_ids_and_zeros_for_the_others() -> None:
    """``observation.action_mask(g, seat)`` (exported for users who encode observations without
    the env): the legal ids of the pending decision for the seat that decides, all zeros for
    every other seat, as the env's ``observe`` gives them."""
    g = Game("aoi(players=3)", seed=4)
    for _ in range(40):
        deciding = g.current_seat()
        for seat in range(3):
            mask = ob.action_mask(g, seat)
            assert mask.dtype == np.int8 and mask.shape == (g.action_mask().shape[0],)
            expected = g.action_mask() if seat == deciding else np.zeros_like(mask)
            assert np.array_equal(mask, expected)
        assert np.flatnonzero(ob.action_mask(g, deciding)).tolist() == g.legal_actions()
        g.apply_action(g.legal_actions()[-1])
