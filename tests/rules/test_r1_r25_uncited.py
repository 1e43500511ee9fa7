"""Ids with no effect beyond what other tests show get a test here, so that every id of RULES.md
is cited by one: R9 (the turn-order and science boards at setup), R3 / OP-23 (unlimited coins,
tools and books),
OP-28 (the round-tile placement procedure) and OP-63 (the solo Automa).  R4, R10, OP-4, OP-8,
OP-24 and OP-26 are cited by the tests that show them (test_setup.py, test_r47_r52_science.py,
test_r78_pass.py)."""

from __future__ import annotations

import numpy as np

from aoi_env.core.engine import Game
from aoi_env.core.pending import Kind
from aoi_env.core.setup import draw_round_tiles
from aoi_env.core.state import G_ORDER, G_SCHOLAR_SPACES, P_BOOKS, P_COINS, P_TOOLS
from aoi_env.data import load
from aoi_env.testing import Scenario, play

DATA = load()
DISC = [DATA.round_tiles[t]["science"]["discipline"] for t in range(12)]
SPADE = DATA.round_tile_ids.index("T2")


def test_r9_turn_order_and_science_boards_are_set_up_empty() -> None:
    """R9: at the first action the turn-order board holds round 1's order (every seat once) and
    no scholar stands on the science board yet."""
    g = Game("aoi(players=4,setup_choices=random)", seed=5)
    while g.pending_kind() != Kind.MAIN:
        g.apply_action(g.legal_actions()[0])
    assert sorted(g.state.glob[G_ORDER][:4].tolist()) == [0, 1, 2, 3]
    assert (g.state.glob[G_SCHOLAR_SPACES] < 0).all()


def test_op23_books_are_unlimited() -> None:
    """OP-23 (v1.2): the book supply is unlimited: with all 48 books of the box already held,
    a player still gains one."""
    s = Scenario("aoi(players=3)", factions=["blessed", "felines", "monks"], boards=["desert", "lake", "forest"])
    s.round(1, tile="T10")
    for seat in range(3):
        s.set(seat, books=(4, 4, 4, 4))
    g = s.set(0, bowls=(0, 0, 12)).turn(0)
    play(g, "convert 5pw book banking")
    assert g.state.players[0, P_BOOKS].tolist() == [5, 4, 4, 4]


def test_r3_coins_and_tools_are_unlimited() -> None:
    """R3 "Unlimited: coins, tools and books": far beyond anything printed (1,000 of each), a gain
    of coins or tools is still paid in full, and a conversion that spends one to gain the other
    works as at 0."""
    s = Scenario("aoi(players=3)", factions=["blessed", "felines", "monks"], boards=["desert", "lake", "forest"])
    g = s.round(1, tile="T10").set(0, bowls=(0, 0, 12), coins=1000, tools=1000).turn(0)
    play(g, "convert 3pw tool", "convert 1pw coin", "convert tool coin")
    assert int(g.state.players[0, P_TOOLS]) == 1000 + 1 - 1
    assert int(g.state.players[0, P_COINS]) == 1000 + 1 + 1


class FixedReveal:
    """Stands in for numpy's Generator: the first permutation reveals ``order`` (the pile is
    popped from the end, so it is stored reversed); later shuffles keep the pile as it is."""

    def __init__(self, order: list[int]) -> None:
        self.first: list[int] | None = list(reversed(order))

    def permutation(self, n: int) -> np.ndarray:
        first, self.first = self.first, None
        return np.array(first if first is not None else range(n))


def test_op28_a_tile_rejected_by_the_discipline_rule_stays_out_of_the_game() -> None:
    """OP-28 / R6(b): revealed x (round 6, another discipline), then a, b (rounds 5, 4,
    discipline d), then c, the third tile of d with no d on round 6: c leaves the game and the
    next tile fills round 4's neighbour, round 3."""
    g = Game("aoi(players=3)", seed=0)
    d = next(disc for disc in set(DISC) if sum(t != SPADE and DISC[t] == disc for t in range(12)) == 3)
    a, b, c = [t for t in range(12) if DISC[t] == d]
    x = next(t for t in range(12) if DISC[t] != d and t != SPADE)
    rest = [t for t in range(12) if t not in (a, b, c, x, SPADE)]
    tiles = draw_round_tiles(g, FixedReveal([x, a, b, c, *rest, SPADE]))
    assert (tiles[5], tiles[4], tiles[3]) == (x, a, b)
    assert c not in tiles
    assert tiles[2] == rest[0]


def test_op28_spade_tile_among_the_first_two_is_shuffled_back() -> None:
    """OP-28 / R6(a): the spade tile revealed first is set aside, rounds 6 and 5 get other
    tiles, then it returns to the pile (here on top, by the identity shuffle) and fills round 4."""
    g = Game("aoi(players=3)", seed=0)
    others = [t for t in range(12) if t != SPADE]
    # no three of a discipline among the first tiles: take them in discipline round robin
    by_disc = {disc: [t for t in others if DISC[t] == disc] for disc in dict.fromkeys(DISC[t] for t in others)}
    mixed = [t for group in zip(*by_disc.values(), strict=False) for t in group]
    mixed += [t for t in others if t not in mixed]
    tiles = draw_round_tiles(g, FixedReveal([SPADE, *mixed]))
    assert (tiles[5], tiles[4]) == (mixed[0], mixed[1])
    assert tiles[3] == SPADE


def test_op63_a_solo_game_against_the_automa_is_played_from_automa_md() -> None:
    """OP-63: the rulebooks leave the Automa out; the engine plays it from AUTOMA.md (details in
    tests/test_automa.py): in a 1-player game only seat 0 ever decides and both seats score."""
    g = Game("aoi(players=1,automa=simpletons:1)", seed=2)
    while not g.is_over():
        assert g.current_seat() == 0
        g.apply_action(g.legal_actions()[0])
    assert len(g.scores()) == 2
