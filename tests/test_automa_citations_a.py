"""Focused tests for AUTOMA.md §1-§4 where the citing tests could not fail on a section's own
edge cases (the random-game oracles aside).

Every expected value is copied from docs/AUTOMA.md (tables re-typed below), not read off the
engine.  Each test names the broken engine it was seen to fail on.
"""

from __future__ import annotations

import collections

import numpy as np
import pytest

from aoi_env import Game
from aoi_env.core import automa as am
from aoi_env.core.rules import scoring
from aoi_env.core.state import (
    G_AREA_TOKEN,
    G_FINAL_TILE,
    G_NEUTRAL_SCIENCE,
    G_ROUND,
    G_ROUND_TILES,
    G_SCHOLAR_SPACES,
    NEUTRAL_SEAT,
)

STARTERS = {1, 2, 3, 4, 5, 6}
ADVANCED = set(range(7, 15))

# AUTOMA.md §2.3: DL-VP by level, rounds 1..6
DL_VP = {1: (0, 0, 1, 1, 1, 1), 2: (1, 1, 2, 2, 3, 3), 3: (2, 2, 2, 2, 3, 3), 4: (2, 2, 3, 3, 3, 3),
         5: (3, 3, 4, 4, 4, 4)}  # fmt: skip

# AUTOMA.md §2.5: the Faction action; "DL+k" = max(DL + k, 0), None = no VP step
FACTION_VP = {"simpletons": 0, "kuddlers": 1, "druids": None, "racelings": None, "wanderers": -1, "mimics": 1,
              "powermongers": 0}  # fmt: skip

# AUTOMA.md §2.4: app tile -> (rounds 1-3 VP, rounds 4-6 VP); final tiles app # -> VP
ROUND_TILE_VP = {1: (3, 7), 2: (4, 4), 3: (3, 5), 4: (4, 4), 5: (2, 5), 6: (3, 5), 7: (3, 5), 8: (2, 5), 9: (0, 4),
                 10: (4, 4), 11: (3, 5), 12: (2, 5)}  # fmt: skip
FINAL_TILE_VP = {1: 8, 2: 6, 3: 7, 4: 7}


def _vp_steps(steps: list[tuple[int, int, int]]) -> list[int]:
    return [value for code, value, _ in steps if code == am.VP]


# ------------------------------------------------------------------------------------------------
# §2.3 / §2.5 the DL-VP table and the faction modifiers


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_automa_md_2_3_dl_vp_table_every_level_and_round(level: int) -> None:
    """AUTOMA.md §2.3 (with §4.4 steps 4-5): every "VP(DL)" step is worth the difficulty table's
    DL-VP of the level and round, all 30 cells; a 0 is dropped (level 1, rounds 1-2).  A fixed
    VP (card 8: 3) does not depend on level or round.

    Fails on: ``dl_vp`` reading the next round's cell (off by one) or another level's row."""
    for rnd in range(1, 7):
        dl = DL_VP[level][rnd - 1]
        for action in (1, 2, 11, 12, 14):  # the DL cards of §2.2
            assert _vp_steps(am.build_steps(action, 3, rnd, "simpletons", level)) == ([dl] if dl > 0 else []), (
                action,
                rnd,
            )
        assert _vp_steps(am.build_steps(8, 3, rnd, "simpletons", level)) == [3], rnd


@pytest.mark.parametrize("faction", sorted(FACTION_VP))
def test_automa_md_2_5_faction_action_vp_is_dl_plus_k_clipped_at_0(faction: str) -> None:
    """AUTOMA.md §2.5: the Faction action's VP step is DL+k = max(DL-VP(round) + k, 0), k = 0
    (Simpletons, Powermongers), +1 (Kuddlers, Mimics), -1 (Wanderers), and none at all for the
    Druids and Racelings; a step worth 0 is dropped.  Every level and round: Kuddlers at level 1
    round 1 score 1 (DL 0 + 1), Wanderers there score nothing (max(-1, 0) = 0).

    Fails on: ``dl_vp`` off by one round; the faction modifier ignored."""
    k = FACTION_VP[faction]
    for level in range(1, 6):
        for rnd in range(1, 7):
            got = _vp_steps(am.build_steps(5, 1, rnd, faction, level))  # *5: Faction action
            if k is None:
                assert got == [], (level, rnd)
            else:
                want = max(DL_VP[level][rnd - 1] + k, 0)
                assert got == ([want] if want > 0 else []), (level, rnd)


# ------------------------------------------------------------------------------------------------
# §2.4 the Automa VP of every round score tile and final tile


def test_automa_md_2_4_every_tile_pass_vp_on_both_sides_and_every_final_tile() -> None:
    """AUTOMA.md §2.4: all 12 Round Score tiles give their "rounds 1-3" VP in rounds 1-3 and
    their "rounds 4-6" VP in rounds 4-5; in round 6 the final tile's VP (#1 8, #2 6, #3 7, #4 7)
    whatever the 6th round tile.  (The worked example only sees 6 of the 12 tiles, one side each.)

    Fails on: a mistyped VP cell in automa.yaml (T12 rounds 4-6: 7 instead of 5)."""
    g = Game("aoi(players=1,automa=simpletons:3:lake,factions=goblins,boards=plains)", seed=0)
    data = am.automa_data()
    by_app = {row["app"]: key for key, row in data.round_tiles.items()}
    assert sorted(by_app) == list(range(1, 13))
    for app, (early, late) in ROUND_TILE_VP.items():
        for rnd in range(1, 6):
            g.state.glob[G_ROUND] = rnd
            g.state.glob[G_ROUND_TILES.start + rnd - 1] = g.data.round_tile_ids.index(by_app[app])
            assert am.pass_vp(g) == (early if rnd <= 3 else late), (app, rnd)
    g.state.glob[G_ROUND] = 6
    for app, vp in FINAL_TILE_VP.items():
        final = next(k for k, row in data.final_tiles.items() if row["app"] == app)
        g.state.glob[G_FINAL_TILE] = g.data.final_tile_ids.index(final)
        for tile in range(12):  # the 6th round tile does not matter
            g.state.glob[G_ROUND_TILES.start + 5] = tile
            assert am.pass_vp(g) == vp, (app, tile)


# ------------------------------------------------------------------------------------------------
# §3.1 no 2-player neutral faction against the Automa


@pytest.mark.parametrize("ruleset", ["", ",ruleset=v1.0"])
def test_automa_md_3_1_no_neutral_faction_with_an_automa(ruleset: str) -> None:
    """AUTOMA.md §3.1: 1 human + 1 Automa is a 2-seat game, but the base game's 2-player rules
    (neutral science markers, neutral scholars, the 2-player Area tile) do NOT apply, under both
    rulesets (docs/automa.md #32).  A plain 2-player game, for contrast, has them.

    Fails on: the neutral faction set up (or ``has_neutral_faction`` true) whenever 2 seats play."""
    for seed in range(5):
        g = Game(f"aoi(players=1,automa=simpletons:2{ruleset})", seed=seed)
        assert g.seats == 2
        assert not scoring.has_neutral_faction(g)
        assert int(g.state.glob[G_AREA_TOKEN]) == 0
        assert not g.state.glob[G_NEUTRAL_SCIENCE].any()
        assert NEUTRAL_SEAT not in g.state.glob[G_SCHOLAR_SPACES].tolist()
    g = Game(f"aoi(players=2{ruleset})", seed=0)
    assert scoring.has_neutral_faction(g) and g.state.glob[G_NEUTRAL_SCIENCE].any()
    assert NEUTRAL_SEAT in g.state.glob[G_SCHOLAR_SPACES].tolist()


# ------------------------------------------------------------------------------------------------
# §3.5 building the deck


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_automa_md_3_5_starting_deck_composition_and_reshuffle(level: int) -> None:
    """AUTOMA.md §3.5: deck = the 6 starters (level 1: without *3, which lies on top of the
    reserve) + 0 / 0 / 1 / 2 random advanced cards (level 5: card 13 + 1 random one); step 3
    shuffles the deck again, so the added advanced cards are not always at the bottom, and the
    random ones differ between games.

    Fails on: step 3 left out (the added cards stay at the bottom of the deck)."""
    extras = {1: 0, 2: 0, 3: 1, 4: 2, 5: 2}[level]
    positions: collections.Counter = collections.Counter()
    drawn: set[int] = set()
    for seed in range(60):
        deck, reserve = am.new_deck(level, np.random.default_rng(seed))
        assert sorted(deck + reserve) == list(range(1, 15))
        if level == 1:
            assert set(deck) == STARTERS - {3} and reserve[0] == 3
            continue
        assert set(deck) >= STARTERS and len(set(deck) & ADVANCED) == extras, deck
        if level == 5:
            assert 13 in deck
        for pos, card in enumerate(deck):
            if card in ADVANCED:
                positions[pos] += 1
                drawn.add(card)
    if extras:
        assert len(drawn - {13}) >= 4, drawn  # the random advanced cards vary
        tail = range(len(STARTERS), len(STARTERS) + extras)  # where they land without step 3
        assert sum(positions[p] for p in range(len(STARTERS))) > 0, positions
        assert sum(positions[p] for p in tail) < 60 * extras, positions


# ------------------------------------------------------------------------------------------------
# §3.6 the initial-Workshop card


def _setup_card(g: Game, seat: int) -> int:
    return int(am.record(g, seat)[am.A_SETUP_CARD])


def test_automa_md_3_6_setup_card_is_any_of_the_14_cards() -> None:
    """AUTOMA.md §3.6: the app picks one of the 14 cards uniformly, so the pair (marked, unmarked)
    is (A, B) with probability 5/14, (C, D) 5/14 and (E, F) 4/14; the marked letter is A, C or E.
    Over 280 games every card turns up and each pair's share is near its probability.

    Fails on: the setup card drawn from the 6 starter cards only (never E/F)."""
    cards = am.automa_data().cards
    seen: collections.Counter = collections.Counter()
    for seed in range(280):
        g = Game("aoi(players=1,automa=simpletons:3:lake,factions=goblins,boards=plains)", seed=seed)
        seen[_setup_card(g, 1)] += 1
    assert set(seen) == set(range(1, 15)), seen
    pairs: collections.Counter = collections.Counter()
    for card, n in seen.items():
        pairs[cards[card].setup] += n
    assert set(pairs) == {("A", "B"), ("C", "D"), ("E", "F")}
    for pair, p in ((("A", "B"), 5 / 14), (("C", "D"), 5 / 14), (("E", "F"), 4 / 14)):
        assert abs(pairs[pair] / 280 - p) < 0.1, pairs


def test_automa_md_3_6_two_automas_get_different_pairs() -> None:
    """AUTOMA.md §3.6: with 2 Automas the second gets a card with a different letter pair, and
    each places her marked / unmarked Workshops on her own card's letters of her terrain.

    Fails on: the second Automa's card drawn from all 14 cards (a pair may repeat)."""
    from aoi_env.core.state import H_BUILDING, H_MARK, H_OWNER
    from aoi_env.data.enums import Building

    cards = am.automa_data().cards
    for seed in range(60):
        g = Game("aoi(players=1,factions=goblins,boards=plains,automa=simpletons:2:lake+druids:2:swamp,"
                 "setup_choices=random)", seed=seed)  # fmt: skip
        first, second = cards[_setup_card(g, 1)].setup, cards[_setup_card(g, 2)].setup
        assert first != second, (seed, first, second)
        lookup = am.automa_data().initial_workshops[g.geo.name]
        for seat, terrain, pair in ((1, "lake", first), (2, "swamp", second)):
            for letter, marked in zip(pair, (1, 0), strict=True):
                r, c = lookup[letter][terrain]
                pos = r * 13 + c
                h = g.state.hexes
                assert (h[pos, H_OWNER], h[pos, H_BUILDING], h[pos, H_MARK]) == (seat, Building.WORKSHOP, marked)


# ------------------------------------------------------------------------------------------------
# §4.6 the deck for the next round


def test_automa_md_4_6_next_round_deck_takes_the_reserve_top_and_shuffles() -> None:
    """AUTOMA.md §4.6: the cards left in the deck and the discard pile, plus the TOP card of the
    (ordered) reserve, are shuffled into the new deck; the reserve keeps its order; the discard
    is empty.  With an empty reserve the deck does not grow.  The new deck is shuffled.

    Fails on: the reserve's bottom card taken instead of its top; the pool not shuffled."""
    orders = set()
    for seed in range(20):
        rng = np.random.default_rng(seed)
        deck, reserve, discard = am.next_round_deck([4, 5], [9, 7, 12, 8], [3, 2, 1], rng)
        assert sorted(deck) == [1, 2, 3, 4, 5, 9] and reserve == [7, 12, 8] and discard == []
        orders.add(tuple(deck))
        deck, reserve, discard = am.next_round_deck([6], [], [10, 2, 1, 3], rng)
        assert sorted(deck) == [1, 2, 3, 6, 10] and reserve == [] and discard == []
    assert len(orders) > 5


def test_automa_md_4_6_level_1_gets_card_3_back_in_round_2() -> None:
    """AUTOMA.md §4.6 (with §3.5 step 4): level 1's first added card is *3, so her round-2 deck
    is the 5 starters she played plus *3 (L1 decks 5, 6, 7, ...), and *3 has left the reserve.

    Fails on: the reserve's bottom card taken instead of its top."""
    for seed in range(5):
        g = Game("aoi(players=1,automa=simpletons:1:lake,factions=goblins,boards=plains)", seed=seed)
        rec = am.record(g, 1)
        reserve0 = am._pile(rec, am.A_RESERVE, am.A_RESERVE_LEN)
        assert reserve0[0] == 3
        for rnd in range(2, 7):
            am.start_round(g, 1, rnd)
            deck = am._pile(rec, am.A_DECK, am.A_DECK_LEN)
            assert sorted(deck) == sorted(STARTERS | set(reserve0[1 : rnd - 1]))
            assert am._pile(rec, am.A_RESERVE, am.A_RESERVE_LEN) == reserve0[rnd - 1 :]


# ------------------------------------------------------------------------------------------------
# §3.7 round bonus tiles and turn order


@pytest.mark.parametrize(
    ("game", "humans", "row_size"),
    [
        ("aoi(players=1,automa=simpletons:3:lake)", 1, 5),  # factions + 3
        ("aoi(players=1,automa=simpletons:3:lake+druids:2:swamp)", 1, 6),
        ("aoi(players=2,automa=simpletons:3:lake)", 2, 4),  # humans hold theirs: Automas + 3
    ],
)
def test_automa_md_3_7_each_automa_takes_the_leftmost_tile_and_humans_go_first(
    monkeypatch: pytest.MonkeyPatch, game: str, humans: int, row_size: int
) -> None:
    """AUTOMA.md §3.7: the Automa's tile is the LEFTMOST of the face-up row (one human: a row of
    factions + 3 tiles; two humans: Automas + 3), each Automa in turn; the 3 tiles left over get
    a coin each; round 1 is played humans first, then the Automa(s) in seat order.  A spy on
    ``take_bonus`` records the row just before each take.

    Fails on: the Automa taking another tile of the row than the leftmost."""
    from aoi_env.core import decisions
    from aoi_env.core.state import G_BONUS_COINS, G_ORDER, P_BONUS, bonus_row

    for seed in range(4):
        takes: list[tuple[int, list[int], int]] = []
        real = decisions.take_bonus

        def spy(g: Game, seat: int, *args: object, _real=real, _takes=takes, **kw: object) -> None:  # noqa: ANN401
            row = bonus_row(g.state.glob)
            _real(g, seat, *args, **kw)
            _takes.append((seat, row, int(g.state.players[seat, P_BONUS])))

        monkeypatch.setattr(decisions, "take_bonus", spy)
        g = Game(game.replace(")", ",setup_choices=random)"), seed=seed)
        while int(g.state.glob[G_ROUND]) < 1:
            g.apply_action(g.legal_actions()[0])
        monkeypatch.setattr(decisions, "take_bonus", real)
        automa_takes = [(seat, row, got) for seat, row, got in takes if seat >= humans]
        assert [seat for seat, _, _ in automa_takes] == list(range(humans, g.seats)), takes
        assert len(automa_takes[0][1]) == row_size, automa_takes
        for seat, row, got in automa_takes:
            assert got == row[0], (seed, seat, row, got)
        left = bonus_row(g.state.glob)
        assert len(left) == 3 and all(int(g.state.glob[G_BONUS_COINS.start + b]) == 1 for b in left)
        order = g.state.glob[G_ORDER][: g.seats].tolist()
        assert sorted(order[:humans]) == list(range(humans)) and order[humans:] == list(range(humans, g.seats))
