"""The solo Automa (AUTOMA.md, docs/automa.md): deck, steps, hex choices, passing, scoring, games.

Positions use the 1-3 board side (1 human + 1 Automa).  Grid excerpt (DATA.md frame)::

           0  1  2  3  4  5  6  7
    r0     .  F  M  D  P  .  L  F
    r1      .  S  L  S  W  .  S  P
    r2     ?  .  P  M  F  .  .  D
"""

from __future__ import annotations

import numpy as np
import pytest

from aoi_env.core import automa as am
from aoi_env.core import pending
from aoi_env.core.board import parse_hex
from aoi_env.core.config import GameConfig
from aoi_env.core.engine import Game
from aoi_env.core.invariants import check
from aoi_env.core.pending import Kind
from aoi_env.core.rules import buildings, scoring
from aoi_env.core.state import (
    G_BONUS_COINS,
    G_BONUS_ROW,
    G_BONUS_STATE,
    G_BOOKS_USED,
    G_DEPTH,
    G_INNOV_OWNER,
    G_INNOV_SPACES,
    G_NEXT_ORDER,
    G_ORDER,
    G_ROUND,
    G_ROUND_TILES,
    G_SCHOLAR_SPACES,
    G_SPELLS_USED,
    G_TURN,
    H_BUILDING,
    H_MARK,
    H_OWNER,
    H_TERRAIN,
    P_BONUS,
    P_BOWLS,
    P_BUILT,
    P_FACTION,
    P_INNOVATIONS,
    P_PASSED,
    P_SAILING,
    P_SCHOLAR_SUPPLY,
    P_SCIENCE,
    P_VP,
)
from aoi_env.data.enums import Building, Terrain
from aoi_env.testing import Scenario, biased_random_action, play_random, random_action

AUTOMA = 1  # seat of the Automa in "1 human + 1 Automa"
CARDS = am.automa_data().cards


def solo(spec: str = "simpletons:3:lake", **kw) -> Scenario:
    return Scenario(f"aoi(players=1,automa={spec})", factions=["goblins"], boards=["plains"], **kw)


def mark(g: Game, hex_: str) -> None:
    g.state.hexes[parse_hex(hex_), H_MARK] = 1


def automas_turn(g: Game) -> None:
    """Make it the Automa's turn (§4.3): her END_TURN alone on the stack, for steps resolved by
    hand, so that a decision they push (the human's power offer) sits where a game puts it."""
    s = g.state
    s.glob[G_TURN] = s.glob[G_ORDER].tolist().index(AUTOMA)
    s.glob[G_DEPTH] = 0
    pending.push(s, Kind.END_TURN, AUTOMA)


# ------------------------------------------------------------------------------------------------
# configuration


def test_automa_spec_and_player_count_errors() -> None:
    """AUTOMA.md §3.1/§2.5: 1-2 humans, 1-2 Automas, at most 3 factions; supported factions only."""
    assert GameConfig.parse("aoi(players=1,automa=simpletons:3)").seats == 2
    with pytest.raises(ValueError, match="is not supported"):
        GameConfig.parse("aoi(players=1,automa=symbionts:3)")
    with pytest.raises(ValueError, match="unknown Automa faction 'nobody'"):
        GameConfig.parse("aoi(players=1,automa=nobody:3)")
    with pytest.raises(ValueError, match="level must be 1..5"):
        GameConfig.parse("aoi(players=1,automa=simpletons:6)")
    with pytest.raises(ValueError, match="at most 3 factions"):
        GameConfig.parse("aoi(players=3,automa=simpletons:3)")
    with pytest.raises(ValueError, match="draft variant is not used"):
        GameConfig.parse("aoi(players=1,distribution=draft,automa=simpletons:3)")
    with pytest.raises(ValueError, match="players must be 2..5"):
        GameConfig.parse("aoi(players=1)")


def test_automa_solo_setup_board_side_displays_and_palaces() -> None:
    """§3.2: board side, innovation display and palace tiles by the number of factions."""
    g = Game("aoi(players=1,automa=simpletons:3)", seed=3)
    assert g.geo.name == "1-3" and len(g.innovation_space_cost) == 6
    from aoi_env.core.state import G_PALACE_STATE

    available = [t + 1 for t in range(17) if g.state.glob[G_PALACE_STATE][t] == -1]
    assert 17 in available and len(available) == 3  # 2 factions + #17
    g3 = Game("aoi(players=2,automa=simpletons:3)", seed=3)
    assert g3.geo.name == "3-5" and len(g3.innovation_space_cost) == 8


def test_automa_solo_distribution_three_cards_with_two_factions() -> None:
    """§3.3: one human picks one of 6 factions on 3 planning cards and takes that card's board."""
    g = Game("aoi(players=1,automa=simpletons:3)", seed=5)
    moves = g.legal_moves()
    assert len(moves) == 6 and all(m.startswith("take ") for m in moves)
    terrains = {m.split()[2] for m in moves}
    assert len(terrains) == 3
    choice = moves[0]
    g.apply_move(choice)
    faction, terrain = choice.split()[1:]
    from aoi_env.core.state import P_BOARD, P_FACTION

    assert g.state.players[0, P_FACTION] == ["blessed", "felines", "goblins", "illusionists", "inventors", "lizards",
                                              "moles", "monks", "navigators", "omar", "philosophers",
                                              "psychics"].index(faction)  # fmt: skip
    assert Terrain(int(g.state.players[0, P_BOARD])).name.lower() == terrain
    assert g.state.players[AUTOMA, P_BOARD] != g.state.players[0, P_BOARD]  # §3.3: a different terrain


@pytest.mark.parametrize(
    "game",
    [
        "aoi(players=1,automa=simpletons:3:lake)",  # §3.3: the human's three planning cards
        "aoi(players=2,automa=druids:2:lake)",  # the two humans' sets (R15)
        "aoi(players=1,factions=goblins,automa=druids:2:lake+mimics:1:plains)",  # a random board
    ],
)
def test_automa_requested_terrain_is_kept_from_the_humans(game: str) -> None:
    """§3.3: her terrain differs from every human's; a terrain asked for in the spec is not
    offered to the humans (no planning card, set or random board of it), so she always gets it."""
    from aoi_env.core.state import P_BOARD

    wanted = {Terrain[spec.split(":")[2].upper()] for spec in GameConfig.parse(game).automa}
    rng = np.random.default_rng(0)
    for seed in range(40):
        g = Game(game, seed=seed)
        while g.state.players[0, P_BOARD] < 0 or g.pending_kind() in (Kind.PICK_BUNDLE, Kind.SOLO_PICK):
            assert not any(m.split()[-1].upper() in Terrain.__members__ and Terrain[m.split()[-1].upper()] in wanted
                           for m in g.legal_moves()), g.legal_moves()  # fmt: skip
            g.apply_action(random_action(g, rng))
        play_random(g, rng, lambda g: g.state.players[-1, P_BOARD] >= 0)
        humans = g.config.players
        assert not {int(b) for b in g.state.players[:humans, P_BOARD]} & wanted
        assert {int(b) for b in g.state.players[humans:, P_BOARD]} == wanted


@pytest.mark.parametrize("side", ["1-3", "3-5"])
def test_automa_initial_workshop_table_lies_on_her_terrain(side: str) -> None:
    """§3.6 / Appendix A: each letter A-F names one hex of each of the 7 terrains, and that hex is
    a land hex of that terrain on the board side (so a mistyped cell cannot pass silently)."""
    from aoi_env.core.board import geometry
    from aoi_env.data.enums import Terrain

    table = am.automa_data().initial_workshops[side]
    terrain = geometry(side).terrain
    assert sorted(table) == list("ABCDEF")
    for letter, row in table.items():
        assert sorted(row) == sorted(t.name.lower() for t in Terrain if t < Terrain.RIVER), letter
        for name, (r, c) in row.items():
            assert terrain[r * 13 + c] == Terrain[name.upper()], (side, letter, name)


def test_automa_setup_bonus_row_initial_workshops_and_order() -> None:
    """§3.6, §3.7: she takes the leftmost of 5 bonus tiles, places a marked and an unmarked
    Workshop on her card's lettered hexes, and the human goes first in round 1."""
    g = Game("aoi(players=1,automa=simpletons:3:lake,factions=goblins,boards=plains,setup_choices=random)", seed=2)
    rec = am.record(g, AUTOMA)
    card = CARDS[int(rec[am.A_SETUP_CARD])]
    lookup = am.automa_data().initial_workshops["1-3"]
    h = g.state.hexes
    for letter, marked in zip(card.setup, (1, 0), strict=True):
        r, c = lookup[letter]["lake"]
        pos = r * 13 + c
        assert h[pos, H_OWNER] == AUTOMA and h[pos, H_BUILDING] == Building.WORKSHOP and h[pos, H_MARK] == marked
    assert g.state.players[AUTOMA, P_BONUS] >= 0 and g.state.players[0, P_BONUS] >= 0
    row = [int(t) for t in g.state.glob[G_BONUS_ROW] if t >= 0]
    assert len(row) == 3  # 5 tiles: one for her, one for the human, 3 left with a coin
    from aoi_env.core.state import G_ORDER

    assert list(g.state.glob[G_ORDER][:2]) == [0, 1]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_automa_bonus_row_with_two_humans(seed: int) -> None:
    """§3.7, two humans: they hold their tiles from the 3-player-style selection; then 4 random
    tiles form a row, the Automa takes the first and the 3 left over get a coin each."""
    g = Game("aoi(players=2,automa=simpletons:3)", seed=seed)
    while g.state.glob[G_ROUND] < 1:
        g.apply_action(g.legal_actions()[0])
    state = g.state.glob[G_BONUS_STATE].tolist()
    coins = g.state.glob[G_BONUS_COINS].tolist()
    held = g.state.players[:, P_BONUS].tolist()
    assert len(set(held)) == 3 and min(held) >= 0  # two humans and the Automa, different tiles
    assert [state[b] for b in held] == [0, 1, 2]
    display = [b for b in range(10) if state[b] == -1]
    assert len(display) == 3 and all(coins[b] == 1 for b in display)
    assert sorted(t for t in g.state.glob[G_BONUS_ROW].tolist() if t >= 0) == display
    assert state.count(-2) == 10 - 3 - 3  # the rest are out of the game


# ------------------------------------------------------------------------------------------------
# the deck (§3.5, §4.3, §4.6)


@pytest.mark.parametrize(("level", "deck", "reserve"), [(1, 5, 9), (2, 6, 8), (3, 7, 7), (4, 8, 6), (5, 8, 6)])
def test_automa_deck_size_per_level(level: int, deck: int, reserve: int) -> None:
    """§2.3/§3.5: starting deck / reserve sizes; L1 puts card *3 on top of the reserve; L5 has 13."""
    for seed in range(10):
        d, r = am.new_deck(level, np.random.default_rng(seed))
        assert (len(d), len(r)) == (deck, reserve)
        assert sorted(d + r) == list(range(1, 15))
        if level == 1:
            assert r[0] == 3 and 3 not in d
        if level == 2:
            assert sorted(d) == [1, 2, 3, 4, 5, 6]
        if level == 5:
            assert 13 in d


def test_automa_deck_grows_by_one_card_per_round() -> None:
    """§4.6: rest of the deck + the reserve's top card + discard = the next deck (L1: 5, 6, ..., 10)."""
    rng = np.random.default_rng(0)
    deck, reserve = am.new_deck(1, rng)
    sizes = [len(deck)]
    for _ in range(5):
        discard, deck = deck[:-2], deck[-2:]  # two cards left undrawn
        deck, reserve, discard = am.next_round_deck(deck, reserve, discard, rng)
        sizes.append(len(deck))
    assert sizes == [5, 6, 7, 8, 9, 10]


def test_automa_pass_check_worked_examples() -> None:
    """§4.3: deck [*1 *2 *3 *5]: three action turns, then a pass; [*1 *2 *4 *5] passes at turn 2."""
    deck = [1, 2, 3, 5]
    turns = 0
    while True:
        deck.pop(0)  # draw the support card
        if am.is_pass(deck):
            break
        turns += 1
    assert turns == 3
    deck = [1, 2, 4, 5]
    deck.pop(0)
    assert not am.is_pass(deck)  # action *2 with 3 cards left
    deck.pop(0)
    assert am.is_pass(deck)  # action *4 shows the pass icon and 2 cards remain


@pytest.mark.parametrize(
    ("human_building", "bowls", "answer", "advanced"),
    [
        ("guild", (5, 7, 0), "leech decline", 1),  # 2 power offered: she advances, accepted or not
        ("guild", (5, 7, 0), "leech accept", 1),
        ("workshop", (5, 7, 0), "leech accept", 0),  # only 1 power offered
        ("guild", (0, 0, 12), None, 0),  # bowls full: no offer at all (R42.5)
    ],
)
def test_automa_powermongers_advance_after_an_offer_of_2_power(
    human_building: str, bowls: tuple[int, int, int], answer: str | None, advanced: int
) -> None:
    """§7 Powermongers / §10 #13: after her build she advances 1 level if the human was offered
    at least 2 power, whether or not they accept; R42.5: the offer is what the human could gain,
    so a human whose bowls cannot take power is offered nothing."""
    sc = Scenario("aoi(players=1,automa=powermongers:3:lake)", factions=["goblins"], boards=["plains"])
    sc.build(AUTOMA, "r1c2", "workshop").build(AUTOMA, "r7c7", "workshop")
    sc.build(0, "r0c4", human_building, terrain=False).set(0, bowls=bowls, vp=30)
    g = sc.turn(0)
    g.state.hexes[parse_hex("r1c2"), H_MARK] = 1
    before = g.state.players[AUTOMA, P_SCIENCE].tolist()
    am.resolve_tb(g, AUTOMA, CARDS[1], faction_step=False, anywhere=False)
    (new,) = set(np.flatnonzero(g.state.hexes[:, H_OWNER] == AUTOMA).tolist()) - {parse_hex("r1c2"), parse_hex("r7c7")}
    assert buildings.offers(g, AUTOMA, new) == [(0, 2 if human_building == "guild" else 1)]  # next to the human
    g._refresh()  # resolve_tb pushed the offer itself
    if answer is None:
        assert g.pending_kind() != Kind.OFFER
    else:
        assert g.pending_kind() == Kind.OFFER
        g.apply_move(answer)
    am.resolve_step(g, AUTOMA, am.PM_ADVANCE, 1, 0, 1)
    assert sum(g.state.players[AUTOMA, P_SCIENCE].tolist()) - sum(before) == advanced


def test_automa_build_steps_worked_examples() -> None:
    """§4.4: the app's examples of action + support cards as step lists."""
    # action *1 with support *2, level 3, round 1: Upgrade, then +2 VP (DL)
    assert am.build_steps(1, 2, 1, "simpletons", 3) == [(am.UPGRADE, 0, 0), (am.VP, 2, 0)]
    # action *5 with support *1 as Powermongers, level 2, round 1: faction T&B, conditional advance, +1 VP
    assert am.build_steps(5, 1, 1, "powermongers", 2) == [
        (am.TB, 0, am.FACTION_FLAG),
        (am.PM_ADVANCE, 1, 0),
        (am.VP, 1, am.FACTION_FLAG),
    ]
    # action 11 with support *1 as Powermongers, level 2, round 3: Upgrade, advance, +2 VP
    assert am.build_steps(11, 1, 3, "powermongers", 2) == [(am.UPGRADE, 0, 0), (am.PM_ADVANCE, 1, 0), (am.VP, 2, 0)]
    # *6: Take Innovation only from round 3 (§4.4.5); VP steps of 0 are dropped (Automalein round 1)
    assert am.build_steps(6, 1, 2, "simpletons", 2) == [(am.ADVANCE, 1, 0)]
    assert am.build_steps(6, 1, 3, "simpletons", 2) == [(am.INNOVATION, 0, 0), (am.ADVANCE, 1, 0)]
    assert am.build_steps(2, 1, 1, "simpletons", 1) == [(am.BLOCK, 0, 0)]
    # faction VP = max(DL + modifier, 0): Wanderers DL-1, Kuddlers DL+1 (level 2 round 1: DL 1)
    assert am.build_steps(5, 1, 1, "wanderers", 2) == [(am.TB_ANYWHERE, 0, am.FACTION_FLAG)]
    assert am.build_steps(5, 1, 1, "kuddlers", 2) == [(am.TB, 0, am.FACTION_FLAG), (am.VP, 2, am.FACTION_FLAG)]
    assert am.build_steps(5, 1, 1, "druids", 2) == [(am.TB, 0, am.FACTION_FLAG), (am.ADVANCE, 2, am.FACTION_FLAG)]


def test_automa_turns_in_a_round_follow_the_deck() -> None:
    """§4.3: with a round deck of N cards she takes between N-3 and N-1 action turns, then passes
    (every turn draws one card; the last draw is the pass)."""
    for seed in range(8):
        g = Game("aoi(players=1,automa=simpletons:2,setup_choices=random)", seed=seed)
        size = int(am.record(g, AUTOMA)[am.A_DECK_LEN])
        rng = np.random.default_rng(seed)
        while not g.state.players[AUTOMA, P_PASSED]:
            g.apply_action(biased_random_action(g, rng))
        draws = size - int(am.record(g, AUTOMA)[am.A_DECK_LEN])
        assert size - 3 <= draws - 1 <= size - 1


# ------------------------------------------------------------------------------------------------
# hex-level choices (§5, §10)


def test_automa_directional_selection() -> None:
    """§10 #1: RD = reading order, LU = its reverse, the n-th option wrapping around."""
    options = [parse_hex(h) for h in ("r2c3", "r0c4", "r1c1")]
    assert am.directional(options, "RD", 1) == parse_hex("r0c4")
    assert am.directional(options, "RD", 2) == parse_hex("r1c1")
    assert am.directional(options, "LU", 1) == parse_hex("r2c3")
    assert am.directional(options, "RD", 4) == parse_hex("r0c4")  # (4 - 1) mod 3 = 0


def test_automa_tb_atp_then_closest_then_build_marked() -> None:
    """§5.2: valid hexes in Reach of her marked building, best ATP rank, then closest to the
    human; the hex becomes her terrain, a marked Workshop goes on it, the human gets an offer."""
    sc = solo()
    sc.build(AUTOMA, "r1c2", "workshop").build(AUTOMA, "r7c7", "workshop")  # r1c2 lake: marked
    sc.build(0, "r0c4", "workshop")  # the human's plains Workshop
    g = sc.turn(0)
    automas_turn(g)
    mark(g, "r1c2")
    # neighbours of r1c2: r1c1 S, r1c3 S, r0c2 M, r0c3 D, r2c2 P, r2c3 M (ship level 1 adds nothing:
    # r1c2 touches no river).  Lake ATP side A: lake, swamp, forest, plains, ... -> the swamps r1c1
    # and r1c3 tie; r1c3 is next to the human's r0c4 (distance 1), r1c1 is 3 away.
    am.resolve_tb(g, AUTOMA, CARDS[1], faction_step=False, anywhere=False)  # card *1: M, ATP A, RD 2
    pos = parse_hex("r1c3")
    h = g.state.hexes
    assert h[pos, H_OWNER] == AUTOMA and h[pos, H_TERRAIN] == Terrain.LAKE and h[pos, H_MARK] == 1
    assert g.pending_kind().name == "OFFER" and g.current_seat() == 0  # R42: power 1 for the human
    check(g)


def test_automa_tb_unmarked_bring_together() -> None:
    """§5.1/§10 #5: UR keeps the hexes that shrink the marked-unmarked distance."""
    sc = solo()
    sc.build(AUTOMA, "r1c2", "workshop").build(AUTOMA, "r1c7", "workshop")
    sc.build(0, "r8c3", "workshop")
    g = sc.turn(0)
    mark(g, "r1c2")
    # unmarked r1c7 (plains): its reach (ship 1) ... only hexes closer than d0 = dist(r1c2, r1c7) = 5
    # to the marked r1c2 stay; the choice must be closer to r1c2 than r1c7 is.
    dist = am._cube_distance()
    d0 = int(dist[parse_hex("r1c2"), parse_hex("r1c7")])
    options = am.valid_hexes(g, AUTOMA, "UR")
    assert options and all(dist[p, parse_hex("r1c2")] < d0 for p in options)
    plain = am.valid_hexes(g, AUTOMA, "U")
    assert set(options) < set(plain)


def test_automa_no_workshop_left_upgrades_instead() -> None:
    """§5.2.1: with no Workshop in her supply the T&B becomes an Upgrade."""
    sc = solo()
    hexes = ["r1c2", "r1c6", "r1c7", "r1c8", "r3c8", "r3c9", "r4c6", "r4c7", "r4c8"]
    for x in hexes:
        sc.build(AUTOMA, x, "workshop")
    g = sc.turn(0)
    mark(g, "r1c2")
    am.resolve_tb(g, AUTOMA, CARDS[1], faction_step=False, anywhere=False)
    p = g.state.players[AUTOMA]
    assert p[P_BUILT.start + Building.WORKSHOP] == 8 and p[P_BUILT.start + Building.GUILD] == 1


def test_automa_upgrade_prefers_workshops_next_to_humans_then_least_power() -> None:
    """§5.3 (German text, §10 #10, #11): Workshops next to a human building; least power to give."""
    sc = solo()
    sc.build(AUTOMA, "r1c2", "workshop").build(AUTOMA, "r1c6", "workshop").build(AUTOMA, "r7c7", "workshop")
    sc.build(0, "r0c3", "guild", terrain=False)  # next to r1c2 (power 2)
    sc.build(0, "r1c7", "workshop")  # next to r1c6 (power 1)
    g = sc.turn(0)
    am.resolve_upgrade(g, AUTOMA, CARDS[1])
    h = g.state.hexes
    assert h[parse_hex("r1c6"), H_BUILDING] == Building.GUILD  # gives the human 1 power, not 2
    assert h[parse_hex("r1c2"), H_BUILDING] == Building.WORKSHOP
    # a Guild becomes the Palace while hers is in supply (§10 #11)
    am.resolve_upgrade(g, AUTOMA, CARDS[1])
    am.resolve_upgrade(g, AUTOMA, CARDS[1])
    am.resolve_upgrade(g, AUTOMA, CARDS[1])  # r1c6: guild -> palace
    assert (h[:, H_BUILDING] == Building.PALACE).sum() == 1


def test_automa_block_covers_a_spell_and_a_book_action() -> None:
    """§5.4, §10 #18: card *2 is LU 1: the rightmost uncovered spell (S6) and book-action space."""
    g = solo().turn(0)
    am.resolve_block(g, AUTOMA, CARDS[2])
    assert list(g.state.glob[G_SPELLS_USED]) == [0, 0, 0, 0, 0, 1]
    assert list(g.state.glob[G_BOOKS_USED]) == [0, 0, 1]


def test_automa_send_scholar_scoring_tile_then_catch_up() -> None:
    """§5.5: SCORE = the round tile's Automa discipline; the "3" space first; 1 level without a space."""
    sc = solo().round(1, tile="T3")  # T3: Automa icon banking
    g = sc.turn(0)
    am.resolve_scholar(g, AUTOMA, CARDS[3])  # card *3: SCORE
    p = g.state.players[AUTOMA]
    assert p[P_SCIENCE.start + 0] == 3 and g.state.glob[G_SCHOLAR_SPACES.start + 0] == AUTOMA
    assert p[P_SCHOLAR_SUPPLY] == 6
    am.resolve_scholar(g, AUTOMA, CARDS[3])
    assert p[P_SCIENCE.start + 0] == 5  # a "2" space: 3 + 2


def test_automa_catch_up_selection() -> None:
    """§5.1 catch-up: at 0, then closest to the human's marker, then directional."""
    sc = solo()
    sc.set(AUTOMA, science=(1, 0, 2, 0)).set(0, science=(3, 1, 5, 4))
    g = sc.turn(0)
    # at 0: law and medicine; |0 - 1| = 1 (law) beats |0 - 4| = 4 (medicine)
    assert am.catch_up(g, AUTOMA, CARDS[2]) == 1
    g.state.players[AUTOMA, P_SCIENCE] = (7, 7, 7, 12)  # 7 without a key and 12 cannot advance
    assert am.catch_up(g, AUTOMA, CARDS[2]) is None


def test_automa_takes_an_innovation_without_effect() -> None:
    """§5.7, §10 #19: by directional selection over the display in reading order; no effect.
    With 2 factions the two wide "2/4" spaces lie on top (R20), so RD 1 takes the left wide one
    (engine space 4), not the Banking column space (engine space 0)."""
    g = solo().round(3).turn(0)
    tiles = g.state.glob[G_INNOV_SPACES].tolist()
    assert len(g.innovation_space_cost) == 6 and g.innovation_space_cost[4][1] == 1  # 2 Bk + 2 La + 1 any
    am.resolve_innovation(g, AUTOMA, CARDS[6])  # card *6: RD 1
    assert g.state.glob[G_INNOV_OWNER.start + tiles[4]] == AUTOMA
    assert g.state.players[AUTOMA, P_INNOVATIONS.start] == tiles[4]
    assert g.state.players[AUTOMA, P_VP] == 20


@pytest.mark.parametrize(
    ("card", "space"),
    [(6, 4), (1, 5), (3, 0), (2, 3), (5, 2), (7, 1)],  # RD 1, RD 2, RD 3, LU 1, LU 2, RD 4
)
def test_automa_innovation_display_reading_order(card: int, space: int) -> None:
    """§10 #19, §10 #1: reading order over a 2-faction display is wide left, wide right, then the
    Banking, Law, Engineering and Medicine columns; RD counts from the front, LU from the back."""
    g = solo().round(3).turn(0)
    tiles = g.state.glob[G_INNOV_SPACES].tolist()
    am.resolve_innovation(g, AUTOMA, CARDS[card])
    assert g.state.players[AUTOMA, P_INNOVATIONS.start] == tiles[space]


def test_automa_innovation_reading_order_skips_taken_spaces() -> None:
    """§5.1: taken tiles are not options; RD 1 then takes the next free space in reading order."""
    g = solo().round(3).turn(0)
    tiles = g.state.glob[G_INNOV_SPACES].tolist()
    g.state.glob[G_INNOV_OWNER.start + tiles[4]] = 0  # the human took the left wide tile
    am.resolve_innovation(g, AUTOMA, CARDS[6])
    assert g.state.players[AUTOMA, P_INNOVATIONS.start] == tiles[5]


def test_automa_pass_vp_and_bonus_tile_slot() -> None:
    """§4.5: the Automa VP of the round tile once (T3 in rounds 1-3: 3), the bonus tile of the
    support card's slot, coins back to the supply."""
    sc = solo().round(2, tile="T3")
    g = sc.turn(0)
    row = [int(t) for t in g.state.glob[G_BONUS_ROW] if t >= 0]
    am.automa_pass(g, AUTOMA, 2)  # card *2: middle
    p = g.state.players[AUTOMA]
    assert p[P_VP] == 20 + 3 and p[P_PASSED] == 1
    assert p[P_BONUS] == row[1]
    assert g.state.glob[G_NEXT_ORDER.start] == AUTOMA


def test_automa_racelings_double_pass_vp_when_first() -> None:
    """§7 Racelings: passing first in a round doubles the round tile's Automa VP."""
    g = solo("racelings:3:lake").round(4, tile="T1").turn(0)  # T1 rounds 4-6: 4 VP
    am.automa_pass(g, AUTOMA, 2)
    assert g.state.players[AUTOMA, P_VP] == 20 + 8


def test_automa_final_scoring_has_no_resources_and_wanderers_bonus() -> None:
    """§8: area and science only; Wanderers +2 VP per building."""
    sc = solo("wanderers:3:lake")
    for x in ("r1c2", "r1c6", "r7c7"):
        sc.build(AUTOMA, x, "workshop")
    g = sc.turn(0)
    g.state.players[AUTOMA, P_BOWLS] = (0, 0, 9)
    parts = scoring.breakdown(g)
    assert parts["resources"][AUTOMA] == 0
    assert parts["faction"][AUTOMA] == 2 * 3


def test_automa_area_scoring_ignores_bridges_like_her_reach() -> None:
    """AUTOMA.md §10 #3 / R83: she has no bridges and a human's bridge does not connect her
    buildings, for her builds and her final area alike; for the human the bridge connects."""
    sc = solo("simpletons:1:lake")
    sc.build(AUTOMA, "r0c6", "workshop").build(AUTOMA, "r1c4", "workshop")
    sc.bridge(0, "r0c6", "r1c4")  # a human bridge across the river between them (1-3 side)
    g = sc.turn(0)
    g.state.players[AUTOMA, P_SAILING] = 0  # ship level 0: only the bridge could join them
    assert scoring.largest_area(g, AUTOMA) == 1
    sc = solo("simpletons:1:lake").build(0, "r0c6", "workshop").build(0, "r1c4", "workshop")
    g = sc.bridge(0, "r0c6", "r1c4").set(0, sailing=0).turn(0)
    assert scoring.largest_area(g, 0) == 2


def test_automa_round_tile_table_matches_the_app_groups() -> None:
    """docs/automa.md: every round tile has an Automa discipline equal to its science discipline."""
    data = am.automa_data()
    g = solo().turn(0)
    for tid, row in data.round_tiles.items():
        t = g.data.round_tile_ids.index(tid)
        assert row["discipline"] == g.tab.round_science[t]["discipline"]
    assert data.round_tiles["T2"]["app"] == 7  # the spade tile is app tile 7


# ------------------------------------------------------------------------------------------------
# whole games


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_automa_solo_games_finish_at_every_level(level: int) -> None:
    """Issue 6: solo games finish at every level, with the invariants holding (200 per level)."""
    factions = list(am.automa_data().faction_names)
    for seed in range(200):
        spec = f"{factions[seed % len(factions)]}:{level}"
        g = Game(f"aoi(players=1,automa={spec},setup_choices=random)", seed=seed)
        play_random(g, np.random.default_rng(seed))
        assert g.state.players[AUTOMA, P_VP] >= 20


def test_automa_games_with_two_players_or_two_automas_keep_the_invariants() -> None:
    for game in ("aoi(players=2,automa=simpletons:3)", "aoi(players=1,automa=druids:2+powermongers:4)"):
        for seed in range(8):
            g = Game(game, seed=seed)
            rng = np.random.default_rng(seed)
            while not g.is_over():
                check(g)
                g.apply_action(biased_random_action(g, rng))
            check(g)


def test_automa_round_tiles_keep_the_spade_rule() -> None:
    """§2.4: tile T2 is never on round 5 or 6 in an Automa game either (R6)."""
    for seed in range(50):
        g = Game("aoi(players=1,automa=simpletons:3)", seed=seed)
        tiles = [g.data.round_tile_ids[int(t)] for t in g.state.glob[G_ROUND_TILES]]
        assert "T2" not in tiles[4:]


def test_automa_seat_reads_no_faction_abilities() -> None:
    """The Automa has no planning-board faction (P_FACTION = -1): the faction tables end with an
    empty row, so a lookup by her faction index finds no ability (not the Psychics', the last)."""
    g = Game("aoi(players=1,automa=simpletons:3)", seed=0)
    faction = int(g.state.players[AUTOMA, P_FACTION])
    assert faction == -1
    assert not any(g.tab.faction_flags[faction].values())
    assert g.tab.faction_special[faction] == {} and g.tab.faction_events[faction] == {}
    assert g.tab.faction_income[faction] == {} and g.tab.faction_start[faction] == {}
    assert len(g.tab.faction_special) == 12 + 1 and g.tab.faction_special[11] == {"power": 5, "second_action": 1}


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("factions", "druids", "faction_action"), ["tb", "advanse2"], "factions.druids.faction_action"),
        (("factions", "kuddlers", "tie_breakers"), ["closest", "human_apt"], "factions.kuddlers.tie_breakers"),
        (("factions", "druids", "vp_modifier"), 1, "factions.druids.vp_modifier"),
        (("factions", "druids", "colour"), "green", "factions.druids: unknown field"),
        (("factions", "druids", "steps"), {"alchemy": 2}, "factions.druids.steps"),
        (("cards", 3, "actions"), ["scholar", "shout"], "cards.3.actions"),
        (("cards", 3, "vp"), 2, "cards.3"),
        (("cards", 1, "vp"), "LD", "cards.1.vp"),
        (("cards", 4, "structure"), "X", "cards.4.structure"),
        (("cards", 4, "bonus"), "top", "cards.4.bonus"),
        (("cards", 4, "count"), 0, "cards.4.count"),
        (("cards", 4, "setup"), ["A", "Z"], "cards.4.setup"),
        (("round_tiles", "T3", "discipline"), "alchemy", "round_tiles.T3.discipline"),
        (("schema_version",), 2, "schema_version"),
    ],
)
def test_automa_md_a_misspelt_automa_yaml_is_refused_naming_the_entry(path, value, message):
    """AUTOMA.md §2.2, §2.5, §7: every card action, Faction-action step and tie-breaker named in
    automa.yaml is one the code acts on; before this check a misspelt step (``advanse2``) was
    dropped in silence and the game started without it."""
    import copy

    import yaml

    from aoi_env.core.automa import check_automa_yaml
    from aoi_env.data import DATA_DIR, DataError

    raw = yaml.safe_load((DATA_DIR / "automa.yaml").read_text(encoding="utf-8"))
    check_automa_yaml(raw)  # the shipped file passes
    edited = copy.deepcopy(raw)
    node = edited
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    with pytest.raises(DataError, match=f"automa.yaml: {message}"):
        check_automa_yaml(edited)


def test_automa_md_card_and_faction_steps_come_from_the_step_tables():
    """AUTOMA.md §4.4: every printed action but faction / innovation / vp is one step of
    ``PRINTED_STEPS``; the Faction action's parts come from ``FACTION_STEPS`` with the faction flag."""
    from aoi_env.core import automa as am

    assert am.build_steps(4, 1, 1, "simpletons", 2)[0] == (am.TB, 0, 0)  # card 4: [tb]
    assert am.build_steps(3, 1, 1, "simpletons", 2) == [(am.SCHOLAR, 0, 0)]
    druids = am.build_steps(5, 1, 1, "druids", 2)  # card 5: [faction]; druids: [tb, advance2]
    assert druids == [(am.TB, 0, am.FACTION_FLAG), (am.ADVANCE, 2, am.FACTION_FLAG)]
    wanderers = am.build_steps(5, 1, 4, "wanderers", 5)  # [tb_anywhere, vp], DL(5, round 4) - 1
    assert wanderers == [(am.TB_ANYWHERE, 0, am.FACTION_FLAG), (am.VP, 4 - 1, am.FACTION_FLAG)]
