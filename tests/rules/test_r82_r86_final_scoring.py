"""RULES.md §5: end of game and final scoring (R82-R86, R25, OP-60).

Scoring functions of ``aoi_env.core.rules.scoring`` are checked on Scenario positions, and a
round-6 position is played to the end to see the VP added.
"""

from __future__ import annotations

import numpy as np
import pytest

from aoi_env.core import hidden
from aoi_env.core.engine import Game
from aoi_env.core.rules import scoring, terrain
from aoi_env.core.rules.scoring import NEUTRAL, largest_area, resource_coins, shared_ranks
from aoi_env.core.state import (
    G_AREA_TOKEN,
    G_DECISIONS,
    G_NEUTRAL_SCIENCE,
    G_PHASE,
    G_ROUND,
    P_COINS,
    P_PALACE_TILE,
    P_VP,
    Phase,
)
from aoi_env.testing import Scenario, play, random_action


def scenario(players: int = 3, factions: list[str] | None = None, game: str | None = None) -> Scenario:
    names = factions or ["blessed", "felines", "monks", "omar"][:players]
    boards = ["desert", "lake", "forest", "swamp"][:players]
    s = Scenario(game or f"aoi(players={players})", factions=names, boards=boards)
    for seat, tile in enumerate(("B10", "B9", "B7", "B3")[:players]):
        s.bonus(seat, tile)
    s.round(6, tile="T10")
    return s


# --------------------------------------------------------------------------------------------
# R82 end of the game


def test_r82_game_ends_when_all_passed_in_round_6_and_final_scoring_is_added() -> None:
    """R82: the game ends as soon as every player has passed in round 6 (no Phase III); final
    scoring then adds area, science and resource VP."""
    s = scenario()
    s.build(0, "r7c6", "workshop").build(0, "r7c7", "workshop").build(0, "r8c7", "workshop")
    s.build(1, "r4c8", "workshop").build(1, "r4c9", "workshop")
    s.build(2, "r0c11", "workshop")
    s.set(0, science=(5, 0, 0, 0), coins=7, tools=2, bowls=(4, 5, 3))  # 7 + 2 + 3 + 5 // 2 = 14 coins
    s.set(1, science=(5, 3, 0, 0), coins=0, tools=0, bowls=(12, 0, 0))
    s.set(2, coins=4, tools=0, bowls=(12, 0, 0))
    g = s.turn(0)
    play(g, "pass", "pass")
    assert not g.is_over()
    play(g, "pass")
    assert g.is_over() and int(g.state.glob[G_PHASE]) == Phase.OVER and int(g.state.glob[G_ROUND]) == 7
    vp = [int(v) for v in g.state.players[:, P_VP]]
    # seat 0: area 18 (3) + Banking tie with seat 1 (8 + 4) / 2 = 6 + 14 coins // 5 = 2
    # seat 1: area 12 (2) + Banking 6 + Law alone 8 + 0
    # seat 2: area 6 (1) + science 0 (all levels 0) + 4 coins // 5 = 0
    assert vp == [20 + 18 + 6 + 2, 20 + 12 + 6 + 8, 20 + 6]


# --------------------------------------------------------------------------------------------
# R83 area


def test_r83_rulebook_example_area_tie_10_9_9_9() -> None:
    """R83, rulebook example: 10, 9, 9, 9 -> 18 for the first; the three tied share 12 + 6 + 0:
    18 / 3 = 6 each."""
    assert shared_ranks({0: 10, 1: 9, 2: 9, 3: 9}, [18, 12, 6]) == {0: 18, 1: 6, 2: 6, 3: 6}


def test_r83_tie_for_first_shares_and_rounds_down() -> None:
    """R83: tied players add up the payouts of the ranks they occupy and share them rounded down:
    two tied first share (18 + 12) / 2 = 15; three tied first (18 + 12 + 6) / 3 = 12; a tie of
    two for third with 4 players (6 + 0) / 2 = 3."""
    assert shared_ranks({0: 5, 1: 5, 2: 1}, [18, 12, 6]) == {0: 15, 1: 15, 2: 6}
    assert shared_ranks({0: 5, 1: 5, 2: 5}, [18, 12, 6]) == {0: 12, 1: 12, 2: 12}
    assert shared_ranks({0: 7, 1: 6, 2: 2, 3: 2}, [18, 12, 6]) == {0: 18, 1: 12, 2: 3, 3: 3}
    assert shared_ranks({0: 7, 1: 7, 2: 7, 3: 7}, [8, 4, 2]) == {0: 3, 1: 3, 2: 3, 3: 3}  # 14 / 4 = 3.5


def test_r83_area_is_the_largest_reach_connected_group_on_the_board() -> None:
    """R83: each player's largest group in which every building is in reach of another one
    (transitively); the payouts 18 / 12 / 6 follow the sizes."""
    s = scenario()
    s.build(0, "r7c6", "workshop").build(0, "r7c7", "guild").build(0, "r7c8", "workshop")  # a chain of 3
    s.build(0, "r8c11", "workshop")  # alone
    s.build(1, "r4c8", "workshop").build(1, "r4c9", "workshop")
    s.build(2, "r0c11", "workshop")
    g = s.turn(0)
    assert [largest_area(g, seat) for seat in range(3)] == [3, 2, 1]  # r7c6 and r7c8 are 2 apart
    parts = scoring.breakdown(g)
    assert parts["area"] == [18, 12, 6]


def test_r83_area_uses_final_sailing_but_not_the_b1_bonus() -> None:
    """R83 / OP-41: the final sailing value connects across rivers; round bonus B1's +1 does not
    count at final scoring."""
    s = scenario()
    s.build(0, "r7c6", "workshop").build(0, "r5c7", "workshop")  # one river hex apart
    s.bonus(0, "B1")
    g = s.turn(0)
    assert largest_area(g, 0) == 1  # sailing 0 (+1 from B1 ignored)
    s = scenario()
    s.build(0, "r7c6", "workshop").build(0, "r5c7", "workshop").set(0, sailing=1)
    assert largest_area(s.turn(0), 0) == 2


def test_r83_moles_tunnel_range_and_palace9_flight_range_connect() -> None:
    """R83: Moles buildings 2 apart (tunnel range) are connected; palace 9 connects buildings a
    flight apart (over 1 or 2 hexes); no tools or scholars needed."""
    s = scenario(factions=["moles", "felines", "monks"])
    s.build(0, "r7c6", "workshop").build(0, "r7c8", "workshop")
    assert largest_area(s.turn(0), 0) == 2
    s = scenario()
    s.build(0, "r7c6", "palace").palace_tile(0, 9).build(0, "r8c9", "workshop")  # 3 steps apart
    assert largest_area(s.turn(0), 0) == 2
    s = scenario()
    s.build(0, "r7c6", "palace").build(0, "r8c9", "workshop")  # no palace 9: not connected
    assert largest_area(s.turn(0), 0) == 1


def _matrix_largest_area(g, seat: int, own: np.ndarray) -> int:
    """The reference: ``Geometry.area_relation`` (a 117 x 117 relation) and ``Geometry.groups``."""
    if not own.any():
        return 0
    bridges = g.state.built_bridges() if g.is_player(seat) else scoring.NO_BRIDGES
    rel = g.geo.area_relation(terrain.sailing(g, seat, final=True), bridges, scoring.area_jump(g, seat))
    return max(len(grp) for grp in g.geo.groups([int(q) for q in np.flatnonzero(own)], rel))


def test_r83_bit_set_area_equals_the_matrix_relation_over_random_games() -> None:
    """R83 (issue 10): ``largest_area`` finds its groups on bit sets; at every decision of random
    games (both board sides, Moles, the Automa, bridges) it equals the 117 x 117 relation
    reference for the map's buildings, for random hypothetical building sets, and with palace 9
    (flight range 3) given to the seat."""
    flight = next(i for i, flags in enumerate(Game("aoi(players=2)", seed=0).tab.palace_flags) if flags["flight"])
    rng = np.random.default_rng(8)
    checked = 0
    for config, seed in (("aoi(players=4,factions=moles+felines+monks+omar)", 1), ("aoi(players=3,map=1-3)", 2),
                         ("aoi(players=1,automa=simpletons:1)", 3)):  # fmt: skip
        g = Game(config, seed=seed)
        while not g.is_over():
            if g.state.glob[G_DECISIONS] % 3 == 0:
                for seat in range(g.seats):
                    own = terrain.own_mask(g, seat)
                    guess = g.geo.land & (rng.random(117) < 0.25)
                    assert largest_area(g, seat) == _matrix_largest_area(g, seat, own)
                    assert largest_area(g, seat, guess) == _matrix_largest_area(g, seat, guess)
                    if g.is_player(seat):
                        probe = g.clone()
                        probe.state.players[seat, P_PALACE_TILE] = flight
                        assert largest_area(probe, seat, guess) == _matrix_largest_area(probe, seat, guess)
                    checked += 1
            g.apply_action(random_action(g, rng))
    assert checked > 500


def test_r83_neutral_buildings_count_pavilions_do_not() -> None:
    """R83: only the number of buildings counts; neutral buildings count, Pavilions do not."""
    s = scenario()
    s.build(0, "r7c6", "workshop").build(0, "r7c7", "tower", neutral=True).pavilion("r7c6")
    assert largest_area(s.turn(0), 0) == 2


def test_r25_two_players_neutral_faction_takes_an_area_rank() -> None:
    """R25 / R83: with 2 players the neutral faction competes for area with the token's size
    (here 3); it scores nothing and its share is lost."""
    s = scenario(players=2, game="aoi(players=2,area_tokens=3)")
    for hex_ in ("r0c1", "r0c2", "r0c3", "r0c4"):
        s.build(0, hex_, "workshop")
    s.build(1, "r4c8", "workshop").build(1, "r4c9", "workshop")
    g = s.turn(0)
    parts = scoring.breakdown(g)
    assert parts["area_size"] == [4, 2]
    assert parts["area"] == [18, 6]  # the neutral faction (3) takes the 12
    s = scenario(players=2, game="aoi(players=2,area_tokens=3)")
    s.build(0, "r0c1", "workshop").build(0, "r0c2", "workshop")
    s.build(1, "r4c8", "workshop").build(1, "r4c9", "workshop").build(1, "r4c10", "workshop")
    parts = scoring.breakdown(s.turn(0))
    assert parts["area"] == [6, 15]  # seat 1 ties the neutral 3: (18 + 12) / 2 = 15, neutral share lost


# --------------------------------------------------------------------------------------------
# R84 science


def test_r84_rulebook_example_blue_first_yellow_red_tied_black_zero() -> None:
    """R84, rulebook example: Blue highest -> 8; Yellow and Red tied second -> (4 + 2) / 2 = 3
    each; Black (level 0) -> 0."""
    s = scenario(players=4)  # seats: 0 Yellow (desert), 1 Blue (lake), 2 Green (forest), 3 Black (swamp)
    s.set(1, science=(9, 0, 0, 0)).set(0, science=(5, 0, 0, 0)).set(2, science=(5, 0, 0, 0))
    parts = scoring.breakdown(s.turn(0))
    assert parts["science"] == [3, 8, 3, 0]


def test_r84_each_track_separately() -> None:
    """R84: each of the 4 tracks is ranked on its own and the VP added up."""
    s = scenario()
    s.set(0, science=(6, 1, 0, 12)).set(1, science=(3, 2, 4, 11)).set(2, science=(1, 3, 0, 2))
    parts = scoring.breakdown(s.turn(0))
    # Banking 8/4/2; Law 2/4/8; Engineering seat 1 alone 8; Medicine 8/4/2
    assert parts["science"] == [8 + 2 + 0 + 8, 4 + 4 + 8 + 4, 2 + 8 + 0 + 2]


def test_r84_level_0_scores_nothing_even_with_three_players() -> None:
    """R84: a marker at level 0 scores nothing, even when fewer markers are above it than there
    are payouts."""
    s = scenario()
    s.set(0, science=(3, 0, 0, 0))
    parts = scoring.breakdown(s.turn(0))
    assert parts["science"] == [8, 0, 0]


def test_r25_two_players_neutral_markers_take_science_ranks() -> None:
    """R25 / R84: with 2 players the neutral status markers take part; a rank they take is lost;
    a real player at level 0 still scores nothing."""
    s = scenario(players=2)
    s.state().glob[G_NEUTRAL_SCIENCE] = [5, 5, 2, 2]
    s.set(0, science=(7, 5, 0, 0)).set(1, science=(3, 0, 0, 1))
    g = s.turn(0)
    parts = scoring.breakdown(g)
    # Banking: seat 0 8, neutral 4, seat 1 2.  Law: seat 0 ties the neutral (8 + 4) / 2 = 6, seat 1
    # at 0 nothing.  Engineering: neutral alone 8.  Medicine: neutral 8, seat 1 4.
    assert parts["science"] == [8 + 6, 2 + 4]
    assert shared_ranks({0: 5, NEUTRAL: 5, 1: 0}, [8, 4, 2]) == {0: 6, NEUTRAL: 6, 1: 0}


# --------------------------------------------------------------------------------------------
# R85 resources


def test_r85_resource_coins_formula() -> None:
    """R85 / OP-60: coins + tools + books + scholars in holdings + bowl III + floor(bowl II / 2)
    (sacrifice, then 1 P -> 1 C); 1 VP per 5 coins, rounded down."""
    s = scenario()
    s.set(0, coins=3, tools=2, books=(1, 0, 2, 0), scholars=1, scholar_supply=6, bowls=(4, 5, 2))
    g = s.turn(0)
    p = g.state.players[0]
    assert resource_coins(p) == 3 + 2 + 3 + 1 + 2 + 5 // 2  # = 13
    assert scoring.breakdown(g)["resources"][0] == 13 // 5


def test_r85_bowl_i_and_the_personal_supply_are_worth_nothing() -> None:
    """R85: power in bowl I and scholars in the personal supply are worth nothing."""
    s = scenario()
    s.set(0, coins=0, tools=0, scholars=0, scholar_supply=7, bowls=(12, 0, 0))
    assert resource_coins(s.turn(0).state.players[0]) == 0


def test_r85_odd_bowl_ii_token_is_worth_nothing() -> None:
    """R85: an odd token in bowl II cannot be sacrificed into bowl III: 5 tokens in II -> 2 coins."""
    s = scenario()
    s.set(0, coins=0, tools=0, bowls=(7, 5, 0))
    assert resource_coins(s.turn(0).state.players[0]) == 2


def test_r85_conversions_agree_with_the_formula() -> None:
    """R85 / OP-60: converting by hand with the R79 conversions reaches exactly the formula."""
    s = scenario()
    s.set(0, coins=3, tools=2, books=(1, 0, 0, 0), scholars=1, bowls=(4, 5, 2))
    s.set(1, passed=1).set(2, passed=1)
    g = s.turn(0)
    formula = resource_coins(g.state.players[0])
    while True:  # burn, then turn everything into coins
        moves = [m for m in g.legal_moves() if m in ("convert burn", "convert scholar tool", "convert tool coin",
                                                      "convert book banking coin", "convert 1pw coin")]  # fmt: skip
        if not moves:
            break
        play(g, moves[0])
    assert int(g.state.players[0, P_COINS]) == formula


# --------------------------------------------------------------------------------------------
# R86 winner


def test_r86_ties_are_shared_no_tiebreaker() -> None:
    """R86: the highest VP wins; tied players share the win (the environment's "win" reward gives
    each of k tied winners 1 / k)."""
    from aoi_env.env import final_rewards

    s = scenario()
    s.set(0, vp=50).set(1, vp=50).set(2, vp=40)
    g = s.turn(0)
    play(g, "pass", "pass", "pass")
    scores = g.scores()
    assert scores[0] == scores[1] > scores[2]  # nothing breaks the tie
    assert list(final_rewards(np.asarray([50, 50, 40]), "win")) == [0.5, 0.5, -1.0]


# --------------------------------------------------------------------------------------------
# OP-11: the 2-player area token values (an unverified placeholder, pinned as the engine plays it)

AREA_TOKEN_SEEDS = range(40)  # enough setups to draw each of the 4 tokens


def two_player_round_6(seed: int) -> Scenario:
    """A 2-player round-6 position (the area token face up, R25) set up with ``seed``."""
    s = Scenario("aoi(players=2)", factions=["blessed", "felines"], boards=["desert", "lake"], seed=seed)
    s.bonus(0, "B10").bonus(1, "B9")
    s.round(6, tile="T10")
    return s


LINE_OF_16 = [f"r7c{c}" for c in range(2, 10)] + [f"r8c{c}" for c in range(10, 2, -1)]
"""16 land hexes of the 1-3 board side, each next to the one before: the first n form one area of n."""
PIECES_16 = ["workshop"] * 9 + ["guild"] * 4 + ["school"] * 3  # a player's pieces, no Palace or University


def test_op11_r24_two_player_area_token_is_one_of_12_13_14_15_hidden_until_round_6() -> None:
    """R24 / OP-11: a 2-player game draws its neutral area token at random from the values 12, 13,
    14 and 15 (every one of them drawn over 40 setups, nothing else); it lies face down until round
    6 (R25), and the search's redraw of hidden information (``hidden.resample``) draws from the
    same 4 values.  A 3-player game has no token.
    Fails on: ``two_player.area_tokens.0`` 12 -> 13, ``.1`` 13 -> 14, ``.2`` 14 -> 15 or ``.3``
    15 -> 16."""
    games = [Game("aoi(players=2)", seed=seed) for seed in AREA_TOKEN_SEEDS]
    assert {int(g.state.glob[G_AREA_TOKEN]) for g in games} == {12, 13, 14, 15}
    assert all(scoring.visible_area_token(g) is None for g in games)  # round 1: face down
    rng = np.random.default_rng(11)
    redrawn = {int(hidden.resample(games[0], rng).state.glob[G_AREA_TOKEN]) for _ in range(40)}
    assert redrawn == {12, 13, 14, 15}
    assert int(Game("aoi(players=3)", seed=0).state.glob[G_AREA_TOKEN]) == 0


@pytest.mark.parametrize("token", [12, 13, 14, 15])
def test_op11_r25_each_area_token_ranks_as_an_area_of_its_value(token: int) -> None:
    """R25 / R83 / OP-11: the neutral faction competes for area with the drawn token's value, seen
    face up in round 6: for each of the tokens 12, 13, 14 and 15, a player whose area is one
    smaller comes second (12 VP), one of the same size ties it ((18 + 12) / 2 = 15), one larger
    wins (18); the other player's 1 building comes third (6) every time.
    Fails on: ``two_player.area_tokens.0`` 12 -> 13, ``.1`` 13 -> 14, ``.2`` 14 -> 15 or ``.3``
    15 -> 16 (no setup draws that token any more)."""
    seed = next((k for k in AREA_TOKEN_SEEDS if int(two_player_round_6(k).state().glob[G_AREA_TOKEN]) == token), None)
    assert seed is not None, f"no setup draws the {token} token"
    for size, vp in ((token - 1, 12), (token, 15), (token + 1, 18)):
        s = two_player_round_6(seed)
        for hex_, piece in zip(LINE_OF_16[:size], PIECES_16, strict=False):
            s.build(0, hex_, piece)
        s.build(1, "r0c1", "workshop")
        g = s.turn(0)
        assert scoring.visible_area_token(g) == token
        parts = scoring.breakdown(g)
        assert parts["area_size"] == [size, 1]
        assert parts["area"] == [vp, 6], f"token {token}, area {size}"
