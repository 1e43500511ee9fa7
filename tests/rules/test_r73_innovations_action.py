"""RULES.md §4.2.5: developing an innovation (R73, R20, OP-5, OP-6, OP-7, OP-39).

The 3-player display has two spaces per discipline column (spaces 0-3: Banking, Law,
Engineering, Medicine; 4-7 the same columns again); the 2- and 4-player displays add the two
mixed "2/4" spaces.  Innovations without a one-time effect (Trade Routes, Professors) are used so
only the cost shows.
"""

from __future__ import annotations

from aoi_env.core.pending import Kind
from aoi_env.core.state import G_INNOV_OWNER, P_BOOKS, P_COINS, P_INNOVATIONS, P_VP
from aoi_env.testing import Scenario, play

DISPLAY = ("trade_routes", "professors", "steel", "sewerage", "census", "communication", "colleges", "library")


def scenario(board: str = "desert", players: int = 3) -> Scenario:
    boards = [board, "lake", "forest"][:players] if board != "lake" else ["lake", "desert", "forest"][:players]
    factions = ["blessed", "felines", "monks"][:players]
    s = Scenario(f"aoi(players={players})", factions=factions, boards=boards)
    s.round(1, tile="T5")
    s.display_innovations(*DISPLAY[: len(s.g.innovation_space_cost)])
    s.set(0, coins=15)
    return s


def pay_count(g) -> int:  # noqa: ANN001
    """Pay 'any' books one at a time (law first, then medicine); returns how many were paid."""
    n = 0
    while g.pending_kind() == Kind.PAY_BOOKS:
        moves = g.legal_moves()
        play(g, "pay law" if "pay law" in moves else moves[0])
        n += 1
    return n


def innovations(g, seat: int = 0) -> list[str]:  # noqa: ANN001
    return [g.data.innovation_keys[int(t)] for t in g.state.players[seat, P_INNOVATIONS] if t >= 0]


# --------------------------------------------------------------------------------------------
# column and mixed costs


def test_r73_rulebook_example_banking_column_2_banking_3_any_and_5_coins() -> None:
    """R73 / R20, rulebook example: a Banking-column innovation costs 2 Banking books + 3 books of
    any discipline, plus 5 coins when the Palace is not built."""
    s = scenario()
    s.set(0, books=(2, 3, 0, 0))
    g = s.turn(0)
    play(g, "innovate")
    assert "innovation trade_routes" in g.legal_moves()  # Banking column
    play(g, "innovation trade_routes")
    assert pay_count(g) == 3
    p = g.state.players[0]
    assert list(p[P_BOOKS]) == [0, 0, 0, 0]  # 2 Banking + 3 Law
    assert p[P_COINS] == 15 - 5
    assert innovations(g) == ["trade_routes"]


def test_r73_column_needs_its_own_discipline_books() -> None:
    """R20: the 2 column books must be of the column's discipline; 5 books of other colours do not
    pay a Banking innovation."""
    s = scenario()
    s.set(0, books=(1, 4, 0, 0))
    g = s.turn(0)
    play(g, "innovate")
    assert "innovation trade_routes" not in g.legal_moves()  # 1 Banking only
    assert "innovation professors" in g.legal_moves()  # Law column: 2 Law + 3 any of 5


def test_r73_second_row_of_a_column_costs_the_same() -> None:
    """R20: the 3-player extension adds one more space per column at the normal column cost
    (space 4: Banking again)."""
    s = scenario()
    s.set(0, books=(2, 0, 0, 3))
    g = s.turn(0)
    play(g, "innovate")
    assert "innovation census" in g.legal_moves()  # DISPLAY[4]: second Banking space


def test_r73_mixed_space_costs_in_the_2_player_game() -> None:
    """R20 / OP-6: the '2/4' spaces cost 2 Banking + 1 any + 2 Law (left) and 2 Engineering + 1 any
    + 2 Medicine (right)."""
    s = scenario(players=2)  # spaces 0-3 columns, 4 left mixed (census), 5 right mixed (communication)
    s.set(0, books=(2, 3, 0, 0))
    g = s.turn(0)
    play(g, "innovate")
    assert "innovation census" in g.legal_moves()
    assert "innovation communication" not in g.legal_moves()
    play(g, "innovation census")
    assert pay_count(g) == 1
    assert list(g.state.players[0, P_BOOKS]) == [0, 0, 0, 0]  # 2 Bk + 2 La + the any book (Law)


def test_r73_right_mixed_space_in_the_4_player_game() -> None:
    """R20: the 4-player display also has the mixed spaces (right: 2 En + 1 any + 2 Me)."""
    s = Scenario("aoi(players=4)", factions=["blessed", "felines", "monks", "omar"],
                 boards=["desert", "lake", "forest", "swamp"])  # fmt: skip
    keys = ("trade_routes", "professors", "steel", "sewerage", "census", "communication", "colleges", "library",
            "architecture", "league_of_cities")  # fmt: skip
    s.display_innovations(*keys)  # 8 column spaces, then the two mixed spaces
    s.set(0, books=(0, 0, 2, 3), coins=15)
    g = s.turn(0)
    play(g, "innovate")
    # Engineering and Medicine columns (2 + 3 any of the 5) and the right mixed space; not the left one
    assert set(g.legal_moves()) == {
        f"innovation {k}" for k in ("steel", "sewerage", "colleges", "library", "league_of_cities")
    }
    play(g, "innovation league_of_cities")
    assert pay_count(g) == 1 and list(g.state.players[0, P_BOOKS]) == [0, 0, 0, 0]


# --------------------------------------------------------------------------------------------
# the 5 coins without a Palace (OP-39)


def test_r73_no_coin_surcharge_with_a_built_palace() -> None:
    """R73: with the Palace built no coins are paid."""
    s = scenario()
    s.build(0, "r7c6", "palace").palace_tile(0, 17).set(0, books=(2, 3, 0, 0))
    g = s.turn(0)
    play(g, "innovate", "innovation trade_routes")
    pay_count(g)
    assert g.state.players[0, P_COINS] == 15


def test_op39_neutral_palace_waives_the_coin_surcharge() -> None:
    """OP-39: a neutral Palace counts as a Palace for the 5 coins."""
    s = scenario()
    s.build(0, "r7c6", "palace", neutral=True).set(0, books=(2, 3, 0, 0))
    g = s.turn(0)
    play(g, "innovate", "innovation trade_routes")
    pay_count(g)
    assert g.state.players[0, P_COINS] == 15


def test_r73_five_coins_needed_without_palace() -> None:
    """R73: without a Palace and with fewer than 5 coins, no innovation can be developed."""
    s = scenario()
    s.set(0, books=(2, 3, 0, 0), coins=4)
    assert "innovate" not in s.turn(0).legal_moves()


# --------------------------------------------------------------------------------------------
# slot surcharges (OP-5)


def test_r73_slot_surcharges_0_1_2() -> None:
    """R73 / OP-5: the tile fills the lowest empty slot; slot 2 costs +1 any book, slot 3 +2."""
    s = scenario()
    s.set(0, books=(4, 10, 0, 0), coins=30)
    g = s.turn(0)
    play(g, "innovate", "innovation trade_routes")
    assert pay_count(g) == 3 + 0
    s2 = scenario().innovation(0, "steel").set(0, books=(2, 10, 0, 0))
    g = s2.turn(0)
    play(g, "innovate", "innovation trade_routes")
    assert pay_count(g) == 3 + 1
    assert innovations(g) == ["steel", "trade_routes"]  # second slot
    s3 = scenario().innovation(0, "steel", "sewerage").set(0, books=(2, 10, 0, 0))
    g = s3.turn(0)
    play(g, "innovate", "innovation trade_routes")
    assert pay_count(g) == 3 + 2
    assert innovations(g) == ["steel", "sewerage", "trade_routes"]


def test_r73_slot_surcharge_must_be_affordable() -> None:
    """R73: the surcharge is part of the cost: 5 books do not pay for a second innovation."""
    s = scenario().innovation(0, "steel").set(0, books=(2, 3, 0, 0))
    assert "innovate" not in s.turn(0).legal_moves()


def test_r73_wasteland_slots_0_0_2() -> None:
    """R73 / R87: on the Wasteland board the 2nd slot costs +0, the 3rd still +2."""
    s = scenario("wasteland").innovation(0, "steel").set(0, books=(2, 3, 0, 0))
    g = s.turn(0)
    play(g, "innovate", "innovation trade_routes")
    assert pay_count(g) == 3 + 0
    s = scenario("wasteland").innovation(0, "steel", "sewerage").set(0, books=(2, 5, 0, 0))
    g = s.turn(0)
    play(g, "innovate", "innovation trade_routes")
    assert pay_count(g) == 3 + 2


# --------------------------------------------------------------------------------------------
# limits and triggers


def test_r73_at_most_three_innovations() -> None:
    """R73: at most 3 innovations per player."""
    s = scenario().innovation(0, "steel", "sewerage", "census").set(0, books=(10, 10, 10, 10), coins=30)
    assert "innovate" not in s.turn(0).legal_moves()


def test_r73_each_tile_is_unique() -> None:
    """R73: each innovation tile is unique and not replaced once taken."""
    s = scenario().set(0, books=(2, 3, 0, 0)).set(1, books=(4, 6, 0, 0), coins=15)
    g = s.turn(0)
    play(g, "innovate", "innovation trade_routes")
    pay_count(g)
    play(g, "done")
    assert g.state.glob[G_INNOV_OWNER][g.data.innovation_keys.index("trade_routes")] == 0
    assert g.current_seat() == 1
    play(g, "innovate")
    assert "innovation trade_routes" not in g.legal_moves()


def test_r73_developing_scores_round_tile_t10() -> None:
    """R73 / R146: developing an innovation scores round tile T10 (5 VP)."""
    s = scenario().round(1, tile="T10").set(0, books=(2, 3, 0, 0))
    g = s.turn(0)
    play(g, "innovate", "innovation trade_routes")
    pay_count(g)
    assert g.state.players[0, P_VP] == 20 + 5


def test_r73_third_innovation_offered_with_two_never_a_fourth() -> None:
    """R73: at most 3 innovations per player.  Holding 2, the player is offered the action and
    takes a third (lowest empty slot); on her next turn, with books and coins for any space, the
    action is no longer offered.  Developing is the only way a player gains an innovation.
    Fails on: an engine limit of 4 (``INNOVATIONS_PER_PLAYER``).  The data's
    ``innovation_display.max_per_player`` must say the same: another value is refused at load
    (tests/test_data.py)."""
    s = scenario().innovation(0, "steel", "sewerage").set(0, books=(10, 10, 10, 10), coins=30)
    g = s.turn(0)
    assert "innovate" in g.legal_moves()
    play(g, "innovate", "innovation trade_routes")
    assert pay_count(g) == 3 + 2  # the third slot's surcharge
    assert innovations(g) == ["steel", "sewerage", "trade_routes"]
    assert list(g.state.players[0, P_BOOKS]) == [8, 5, 10, 10]  # 2 Banking + 5 any (Law first)
    play(g, "done")
    play(g, "pass", "bonus B1", "pass", "bonus B5")  # seats 1 and 2
    assert g.current_seat() == 0
    moves = g.legal_moves()
    assert "innovate" not in moves
    assert not [m for m in moves if m.startswith("innovation ")]
    assert len(innovations(g)) == 3
