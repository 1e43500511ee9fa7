"""Spells S1-S6 and book actions BA1-BA6 (R75, R139, OP-25, OP-58).

Every position is 3 players: seat 0 Inventors on Desert, seat 1 Monks on Lake, seat 2 Psychics
on Forest.  Spells are paid by *spending* power: tokens move from bowl III to bowl I (R31).
Book actions are paid with books of any colour.  Round tile T10 (innovation) unless stated.
"""

from __future__ import annotations

import pytest

from aoi_env.core.board import parse_hex
from aoi_env.core.pending import Kind
from aoi_env.core.state import (
    G_BOOK_ACTIONS,
    G_BOOKS_USED,
    G_SPELLS_USED,
    H_BUILDING,
    H_TERRAIN,
    P_BOOKS,
    P_BOWLS,
    P_BRIDGES,
    P_BUILT,
    P_COINS,
    P_SCHOLAR_SUPPLY,
    P_SCHOLARS,
    P_SCIENCE,
    P_TOOLS,
    P_VP,
)
from aoi_env.data.enums import Building, Terrain
from aoi_env.testing import Scenario, play

GAME = "aoi(players=3)"
FACTIONS = ["inventors", "monks", "psychics"]
BOARDS = ["desert", "lake", "forest"]
BOOKS = P_BOOKS.start  # banking, law, engineering, medicine
BOOK_IDS = [f"BA{i}" for i in range(1, 7)]


def position(*, tile: str = "T10", book_actions: tuple[str, str, str] = ("BA1", "BA2", "BA3")) -> Scenario:
    """Neutral round bonus tiles (B9 / B10 / B3 held, B4 / B7 / B8 on display) and the given
    three book actions on the board (R8)."""
    sc = Scenario(GAME, factions=FACTIONS, boards=BOARDS).round(1, tile=tile)
    sc.bonus_tiles(("B9", "B10", "B3"), ("B4", "B7", "B8"))
    sc.state().glob[G_BOOK_ACTIONS] = sorted(BOOK_IDS.index(k) for k in book_actions)
    return sc


# ------------------------------------------------------------------------------------------
# spells


def test_r139_s1_bridge_spell_costs_3_power_and_joins_a_printed_location() -> None:
    """R139 S1: spend 3 P to build a bridge at a printed location where you have a building at
    one end; the two hexes become adjacent (R38)."""
    g = position().build(0, "r2c9", "workshop").set(0, bowls=(0, 5, 7)).turn(0)
    play(g, "spell S1")
    # r2c9 is one end of three printed spots: to r3c7, r3c10 and r4c9
    assert g.legal_moves() == ["bridge r2c9", "bridge r3c7", "bridge r3c10", "bridge r4c9"]
    play(g, "bridge r2c9")
    assert g.legal_moves() == ["bridge to r3c7", "bridge to r3c10", "bridge to r4c9"]
    play(g, "bridge to r4c9")
    p = g.state.players[0]
    assert list(p[P_BOWLS]) == [3, 5, 4]  # spend 3: bowl III 7 - 3 = 4, bowl I 0 + 3 = 3
    assert p[P_BRIDGES] == 1
    assert g.adjacency()[parse_hex("r2c9"), parse_hex("r4c9")]  # now adjacent (R38)


def test_op58_s1_needs_a_free_printed_location_at_an_own_building() -> None:
    """R139 S1 / OP-58: only printed locations with an own building at one end count: with a
    building on r1c4 (at no location) the spell is not offered, although another player has a
    building at a location."""
    sc = position().build(0, "r1c4", "workshop").build(1, "r2c9", "workshop").set(0, bowls=(0, 5, 7))
    g = sc.turn(0)
    assert "spell S1" not in g.legal_moves()
    assert "spell S2" in g.legal_moves()  # the power is there; only the location is missing


def test_op58_s1_not_offered_when_the_only_location_already_has_a_bridge() -> None:
    """R139 S1: no bridge may already be at the location."""
    sc = position().build(0, "r1c3", "workshop").bridge(1, "r1c3", "r2c2").set(0, bowls=(0, 5, 7))
    g = sc.turn(0)
    assert "spell S1" not in g.legal_moves()  # r1c3's only spot (to r2c2) is taken


def test_r40_s1_not_offered_with_all_three_bridges_built() -> None:
    """R40 / R3: each player has 3 bridges; with all 3 on the map S1 is not offered."""
    g = position().build(0, "r2c9", "workshop").set(0, bowls=(0, 5, 7)).turn(0)
    assert "spell S1" in g.legal_moves()
    g = position().build(0, "r2c9", "workshop").set(0, bowls=(0, 5, 7))
    for a, b in (("r0c2", "r1c0"), ("r0c8", "r1c6"), ("r0c11", "r1c12")):
        g.bridge(0, a, b)
    assert "spell S1" not in g.turn(0).legal_moves()


def test_r139_s2_scholar_spell() -> None:
    """R139 S2: spend 3 P, gain 1 scholar (from the personal supply, R3)."""
    g = position().set(0, bowls=(0, 5, 7)).turn(0)
    play(g, "spell S2")
    p = g.state.players[0]
    assert (p[P_SCHOLARS], p[P_SCHOLAR_SUPPLY]) == (1, 7 - 1)
    assert list(p[P_BOWLS]) == [3, 5, 4]  # 3 tokens III -> I


def test_op58_s2_not_offered_with_an_empty_personal_supply() -> None:
    """OP-58: an action needs its main effect; S2 with no scholar left in the supply has none."""
    g = position().set(0, bowls=(0, 5, 7), scholars=7, scholar_supply=0).turn(0)
    assert "spell S2" not in g.legal_moves()


def test_r139_s3_spade_spell_one_free_spade_plus_bought_ones() -> None:
    """R139 S3: spend 4 P for a TB with 1 free spade; missing spades may be bought with tools."""
    g = position().build(0, "r1c4", "workshop").set(0, bowls=(0, 4, 8), tools=10).turn(0)
    play(g, "spell S3", "target r1c5")  # Forest -> Desert: 3 spades
    assert g.legal_moves() == ["spades 1", "spades 2", "spades 3"]
    play(g, "spades 3", "workshop")
    p = g.state.players[0]
    assert p[P_TOOLS] == 10 - 2 * 3 - 1  # 2 bought spades at 3 tools + the Workshop's tool
    assert list(p[P_BOWLS]) == [4, 4, 4]  # 4 tokens III -> I
    assert p[P_BUILT.start + Building.WORKSHOP] == 2


def test_r139_s4_tools_spell() -> None:
    """R139 S4: spend 4 P, gain 2 tools."""
    g = position().set(0, bowls=(0, 4, 8)).turn(0)
    play(g, "spell S4")
    assert g.state.players[0, P_TOOLS] == 3 + 2
    assert list(g.state.players[0, P_BOWLS]) == [4, 4, 4]


def test_r139_s5_coins_spell() -> None:
    """R139 S5: spend 4 P, gain 7 coins (OP-25: the spell exists once; the [UA] list repeats it)."""
    g = position().set(0, bowls=(0, 4, 8)).turn(0)
    play(g, "spell S5")
    assert g.state.players[0, P_COINS] == 15 + 7
    assert list(g.state.players[0, P_BOWLS]) == [4, 4, 4]  # 4 tokens III -> I


def test_op25_exactly_six_spells_at_3_3_4_4_4_6() -> None:
    """OP-25: there are exactly 6 spells, printed left to right S1 S2 S4 S5 S3 S6 with costs
    3/3/4/4/4/6 (R139)."""
    g = position().set(0, bowls=(0, 0, 12)).build(0, "r2c9", "workshop").turn(0)
    spells = [m for m in g.legal_moves() if m.startswith("spell")]
    assert spells == ["spell S1", "spell S2", "spell S4", "spell S5", "spell S3", "spell S6"]
    assert list(g.tab.spell_cost) == [3, 3, 4, 4, 4, 6]


def test_r139_s6_two_free_spades_may_be_split_over_two_hexes() -> None:
    """R139 S6 / R63.3: spend 6 P for a TB with 2 free spades: once the first hex is native, the
    leftover spade may go to another hex in reach; the one Workshop goes on the first hex."""
    g = position().build(0, "r1c4", "workshop").set(0, bowls=(0, 6, 6)).turn(0)
    play(g, "spell S6", "target r2c5", "spades 1")  # Plains -> Desert: 1 spade, 1 left
    assert "spade r1c5" in g.legal_moves() and "workshop" in g.legal_moves()
    play(g, "spade r1c5", "workshop")  # Forest -> Mountain (one step toward Desert)
    h = g.state.hexes
    assert h[parse_hex("r1c5"), H_TERRAIN] == Terrain.MOUNTAIN  # one step, not yet native
    assert h[parse_hex("r2c5"), H_BUILDING] == Building.WORKSHOP
    assert list(g.state.players[0, P_BOWLS]) == [6, 6, 0]  # 6 tokens III -> I
    assert g.state.players[0, P_TOOLS] == 3 - 1  # only the Workshop's tool


def test_r75_a_spell_can_be_used_by_only_one_player_per_round() -> None:
    """R75: each spell can be used by only one player per round, then it is covered by an X."""
    sc = position().set(0, bowls=(0, 4, 8)).set(1, bowls=(0, 4, 8))
    g = sc.turn(0)
    play(g, "spell S4", "done")
    assert g.current_seat() == 1
    moves = g.legal_moves()
    assert "spell S4" not in moves  # X token
    assert "spell S5" in moves  # the other 4-power spells are free
    assert g.state.glob[G_SPELLS_USED.start + 2] == 1  # S4 is third in printed order


def test_r80_spell_x_tokens_are_removed_in_phase_iii() -> None:
    """R80.2: X tokens are removed from the spells in Phase III; S4 is usable again next round."""
    sc = position().set(0, bowls=(0, 0, 12))
    g = sc.turn(0)
    play(g, "spell S4", "done", "pass", "bonus B4", "pass", "bonus B7")
    play(g, "pass", "bonus B8")  # round 2, order 1, 2, 0
    assert g.state.glob[G_SPELLS_USED].sum() == 0
    play(g, "pass", "bonus B9", "pass", "bonus B10")
    assert g.current_seat() == 0
    assert "spell S4" in g.legal_moves()


def test_r75_spell_needs_the_full_cost_in_bowl_iii() -> None:
    """R31 / R75: a spell is paid by spending power, which needs the tokens in bowl III:
    with 3 tokens there S2 (3) is possible but S4 (4) is not; bowl II does not count."""
    g = position().set(0, bowls=(0, 9, 3)).turn(0)
    spells = [m for m in g.legal_moves() if m.startswith("spell")]
    assert spells == ["spell S2"]


def test_r75_no_spell_and_no_book_action_one_short_of_the_cheapest() -> None:
    """R75 / OP-25: with 2 tokens in bowl III (the cheapest spells cost 3) no spell is offered, and
    with no book (the cheapest book action costs 1) no book action, whatever else is full."""
    g = position().set(0, bowls=(0, 10, 2), books=(0, 0, 0, 0)).turn(0)
    assert not [m for m in g.legal_moves() if m.startswith(("spell", "book"))]
    g = position().set(0, bowls=(0, 9, 3), books=(0, 1, 0, 0)).turn(0)
    assert [m for m in g.legal_moves() if m.startswith("spell")] == ["spell S2"]
    assert [m for m in g.legal_moves() if m.startswith("book")]


def test_r92_illusionists_pay_one_power_less_per_spell() -> None:
    """R139 / R92: Illusionists pay 1 P less for S1-S6 (and score their per-spell VP: 1 VP with
    3 players in v1.2, OP-13)."""
    sc = Scenario(GAME, factions=["illusionists", "monks", "psychics"], boards=BOARDS).round(1, tile="T10")
    g = sc.set(0, bowls=(0, 9, 3)).turn(0)
    assert "spell S4" in g.legal_moves()  # costs 4 - 1 = 3
    play(g, "spell S4")
    p = g.state.players[0]
    assert list(p[P_BOWLS]) == [3, 9, 0]  # 3 tokens III -> I
    assert p[P_TOOLS] == 3 + 2
    assert p[P_VP] == 20 + 1


# ------------------------------------------------------------------------------------------
# book actions


def test_r139_ba1_one_book_for_5_power() -> None:
    """R139 BA1: return 1 book of any colour, gain 5 power."""
    g = position(book_actions=("BA1", "BA2", "BA3")).set(0, books=(0, 0, 1, 0)).turn(0)
    play(g, "book BA1")
    assert g.legal_moves() == ["pay engineering"]
    play(g, "pay engineering")
    p = g.state.players[0]
    assert list(p[P_BOOKS]) == [0, 0, 0, 0]
    assert list(p[P_BOWLS]) == [0, 12, 0]  # gain 5: I -> II five times (5/7/0 -> 0/12/0)


def test_op58_ba1_not_offered_when_no_power_can_be_gained() -> None:
    """OP-58: with every token in bowl III (capacity 0, R30) BA1 would have no effect."""
    g = position(book_actions=("BA1", "BA2", "BA3")).set(0, books=(1, 0, 0, 0), bowls=(0, 0, 12)).turn(0)
    assert "book BA1" not in g.legal_moves()


def test_r139_ba2_two_books_of_any_colours_for_6_coins() -> None:
    """R139 BA2 / R75: return 2 books in any combination of disciplines, gain 6 coins."""
    g = position(book_actions=("BA1", "BA2", "BA3")).set(0, books=(1, 0, 0, 1)).turn(0)
    play(g, "book BA2")
    assert g.pending_kind() == Kind.PAY_BOOKS
    assert g.legal_moves() == ["pay banking", "pay medicine"]  # any book the player holds
    play(g, "pay medicine", "pay banking")
    p = g.state.players[0]
    assert list(p[P_BOOKS]) == [0, 0, 0, 0]
    assert p[P_COINS] == 15 + 6


def test_r139_book_action_not_offered_without_enough_books() -> None:
    """R75: the book cost must be payable: 1 book is enough for BA1 but not for BA2 (2 books)."""
    g = position(book_actions=("BA1", "BA2", "BA3")).set(0, books=(0, 1, 0, 0)).turn(0)
    books = [m for m in g.legal_moves() if m.startswith("book")]
    assert books == ["book BA1"]


def test_r139_ba3_two_vp_per_guild() -> None:
    """R139 BA3: return 2 books, score 2 VP per Guild you have on the map (a neutral Guild is a
    Guild, R46.4)."""
    sc = position(book_actions=("BA1", "BA2", "BA3")).set(0, books=(0, 2, 0, 0))
    sc.build(0, "r1c4", "guild").build(0, "r1c5", "guild").build(0, "r2c5", "guild", neutral=True)
    g = sc.turn(0)
    play(g, "book BA3", "pay law", "pay law")
    assert g.state.players[0, P_VP] == 20 + 2 * 3  # 3 Guilds


def test_op58_ba3_not_offered_without_guilds() -> None:
    """OP-58: a book action cannot be taken merely to block it: BA3 with no Guild scores nothing
    and is not offered."""
    g = position(book_actions=("BA1", "BA2", "BA3")).set(0, books=(0, 2, 0, 0)).build(0, "r1c4", "workshop").turn(0)
    assert "book BA3" not in g.legal_moves()
    assert "book BA2" in g.legal_moves()


def test_op25_ba4_two_steps_in_one_discipline() -> None:
    """R139 BA4 / OP-25: return 1 book, advance 2 steps in ONE discipline of choice ([UA]'s
    "one terrain adjacent" is a garble)."""
    g = position(book_actions=("BA4", "BA5", "BA6")).set(0, books=(1, 0, 0, 0), science=(0, 2, 0, 0)).turn(0)
    play(g, "book BA4", "pay banking")
    assert g.legal_moves() == ["steps banking", "steps law", "steps engineering", "steps medicine"]
    play(g, "steps law")
    p = g.state.players[0]
    assert list(p[P_SCIENCE]) == [0, 4, 0, 0]  # 2 + 2 in Law
    assert list(p[P_BOWLS]) == [4, 8, 0]  # Law 3 reached on the way: 1 power (R49)


def test_r139_ba5_free_guild_upgrade_is_a_build() -> None:
    """R139 BA5: return 2 books, upgrade a Workshop to a Guild for free; it is a build (R55):
    round scoring T5 pays 3 VP and the neighbour gets a power offer."""
    sc = position(tile="T5", book_actions=("BA4", "BA5", "BA6")).set(0, books=(0, 1, 1, 0))
    sc.build(0, "r1c4", "workshop").build(1, "r1c5", "workshop")
    g = sc.turn(0)
    play(g, "book BA5", "pay law", "pay engineering")
    assert g.legal_moves() == ["upgrade r1c4"]
    play(g, "upgrade r1c4")
    p = g.state.players[0]
    assert (p[P_TOOLS], p[P_COINS]) == (3, 15)  # free: no tools or coins
    assert p[P_VP] == 20 + 3  # T5: +3 per Guild built
    assert p[P_BUILT.start + Building.GUILD] == 1 and p[P_BUILT.start + Building.WORKSHOP] == 0
    assert (g.pending_kind(), g.current_seat()) == (Kind.OFFER, 1)  # the Workshop on r1c5: 1 power


def test_r139_ba6_three_free_spades() -> None:
    """R139 BA6: return 3 books, a TB with 3 free spades: Forest -> Desert needs no tools."""
    sc = position(book_actions=("BA4", "BA5", "BA6")).set(0, books=(1, 1, 1, 0))
    g = sc.build(0, "r1c4", "workshop").turn(0)
    play(g, "book BA6", "pay banking", "pay law", "pay engineering", "target r1c5", "spades 3", "workshop")
    p = g.state.players[0]
    assert p[P_TOOLS] == 3 - 1  # 3 free spades; only the Workshop's tool
    assert p[P_COINS] == 15 - 2
    assert list(p[P_BOOKS]) == [0, 0, 0, 0]


def test_r139_ba6_spades_split_over_three_hexes() -> None:
    """R63.3 / R139 BA6: with 3 spades you may affect up to 3 hexes once the first is native;
    after the third spade none is left: only the Workshop or "done" is offered.
    Fails on: BA6 giving 4 free spades (``book_actions.BA6.effect.tb`` 3 -> 4)."""
    sc = position(book_actions=("BA4", "BA5", "BA6")).set(0, books=(0, 3, 0, 0))
    g = sc.build(0, "r1c4", "workshop").turn(0)
    play(g, "book BA6", "pay law", "pay law", "pay law", "target r2c5", "spades 1")  # Plains: 1
    play(g, "spade r0c4")  # Plains -> Desert: spade 2 of 3, one more may go anywhere
    assert g.legal_moves() == ["spade r0c5", "spade r1c3", "spade r1c5", "spade r2c4", "workshop", "done"]
    play(g, "spade r0c5")  # Wasteland -> Desert: spade 3 of 3, none left
    assert g.pending_kind() == Kind.TB_FINISH
    assert g.legal_moves() == ["workshop", "done"]
    assert g.state.players[0, P_TOOLS] == 3  # all three spades free
    play(g, "done")
    h = g.state.hexes
    assert all(h[parse_hex(x), H_TERRAIN] == Terrain.DESERT for x in ("r2c5", "r0c4", "r0c5"))
    assert h[parse_hex("r2c5"), H_BUILDING] == 0  # no Workshop wanted


def test_r75_book_action_once_per_round() -> None:
    """R75: each book action can be used by only one player per round (X token)."""
    sc = position(book_actions=("BA1", "BA2", "BA3")).set(0, books=(2, 0, 0, 0)).set(1, books=(2, 0, 0, 0))
    g = sc.turn(0)
    play(g, "book BA1", "pay banking", "done")
    assert g.current_seat() == 1
    books = [m for m in g.legal_moves() if m.startswith("book")]
    assert books == ["book BA2"]  # BA1 is covered; BA3 needs a Guild
    assert list(g.state.glob[G_BOOKS_USED]) == [1, 0, 0]


@pytest.mark.parametrize("book_actions", [("BA1", "BA2", "BA3"), ("BA4", "BA5", "BA6")])
def test_r8_only_the_three_book_actions_in_play_are_offered(book_actions: tuple[str, str, str]) -> None:
    """R8: 3 of the 6 book actions are in play; only those can be taken."""
    sc = position(book_actions=book_actions).set(0, books=(1, 1, 1, 0))
    sc.build(0, "r1c4", "guild").build(0, "r1c5", "workshop")
    g = sc.turn(0)
    books = [m.split()[1] for m in g.legal_moves() if m.startswith("book")]
    assert books == list(book_actions)
