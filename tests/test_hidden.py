"""Which Automa cards nobody has seen, and redrawing them (AUTOMA.md §3.5, §4.3, §4.6).

Her deck holds cards everyone knows to be there (the starter cards, level 5's card 13, every
card once drawn) and face-down reserve cards nobody has seen (§3.5 step 2's extra cards, §4.6's
card that joins each round).  ``automa.unseen_cards`` tracks the second kind, and
``hidden.resample`` redraws them together with her reserve, so that a lookahead cannot learn
which reserve card went into her deck.
"""

from __future__ import annotations

import numpy as np
import pytest

from aoi_env import Game
from aoi_env.core import automa, hidden
from aoi_env.core.invariants import violations
from aoi_env.core.state import G_ROUND, State
from aoi_env.testing import play_random


def _pile(g: Game, field: slice, length: int) -> list[int]:
    return automa._pile(automa.record(g, 1), field, length)


def _deck(g: Game) -> list[int]:
    return _pile(g, automa.A_DECK, automa.A_DECK_LEN)


def _reserve(g: Game) -> list[int]:
    return _pile(g, automa.A_RESERVE, automa.A_RESERVE_LEN)


def _starters() -> set[int]:
    return {c for c, card in automa.automa_data().cards.items() if card.starter}


@pytest.mark.parametrize(("level", "extra"), [(1, 0), (2, 0), (3, 1), (4, 2), (5, 1)])
def test_automa_3_5_the_decks_random_reserve_cards_are_unseen(level: int, extra: int) -> None:
    """§3.5 step 2: levels 3 / 4 / 5 move 1 / 2 / 1 random reserve cards into her deck, face down
    (level 5's card 13 is taken on purpose, so it is known); the starter cards are known."""
    for seed in range(4):
        g = Game(f"aoi(players=1,automa=druids:{level})", seed=seed)
        unseen = automa.unseen_cards(automa.record(g, 1))
        assert len(unseen) == extra
        assert set(unseen) <= set(_deck(g)) - _starters() - {13 if level == 5 else 0}


def test_automa_4_3_a_drawn_card_and_the_action_card_looked_at_are_seen() -> None:
    """§4.3: her draw turns the support card face up and looks at the action card below it, so
    neither is unseen any more; the rest of the deck stays as it was."""
    g = Game("aoi(players=1,automa=druids:4)", seed=1)
    before = automa.unseen_cards(automa.record(g, 1))
    assert len(before) == 2
    g = play_random(g, np.random.default_rng(0), lambda g: automa.open_action_card(automa.record(g, 1)) != 0)
    rec = automa.record(g, 1)
    seen = {automa.support_card(rec), automa.open_action_card(rec)}
    assert automa.unseen_cards(rec) == [c for c in before if c not in seen]


def test_automa_4_6_the_reserve_card_that_joins_her_deck_is_unseen() -> None:
    """§4.6 step 2: each new round the reserve's top card joins her deck face down; at level 1 the
    first such card is *3, which everyone knows (§3.5 step 4)."""
    for level, known in ((2, False), (1, True)):
        g = play_random(
            Game(f"aoi(players=1,automa=simpletons:{level})", seed=4),
            np.random.default_rng(0),
            lambda g: g.state.glob[G_ROUND] >= 1,
        )
        g = play_random(
            g,
            np.random.default_rng(0),
            lambda g: g.state.glob[G_ROUND] < 1 or automa.open_action_card(automa.record(g, 1)) != 0,
        )
        joining = _reserve(g)[0]
        left_unseen = automa.unseen_cards(automa.record(g, 1))  # round 1's cards not drawn or looked at
        g = play_random(g, np.random.default_rng(0), lambda g: g.state.glob[G_ROUND] >= 2 and g.current_seat() == 0)
        unseen = set(automa.unseen_cards(automa.record(g, 1)))
        assert (joining in unseen) is not known
        assert joining in _deck(g) + _pile(g, automa.A_DISCARD, automa.A_DISCARD_LEN)
        assert unseen - {joining} <= set(left_unseen)


def test_hidden_resample_redraws_which_reserve_cards_are_in_her_deck() -> None:
    """§3.5 step 2: which reserve card went into a level-3 deck is hidden, so ``resample`` draws it
    anew from the unseen cards: two games that differ only in it resample to the same state with
    the same generator, every advanced card turns up over many draws, and the known cards, the
    pile sizes and the unseen count stay."""
    g = play_random(
        Game("aoi(players=1,automa=simpletons:3)", seed=2),
        np.random.default_rng(0),
        lambda g: g.state.glob[G_ROUND] >= 1,
    )
    rec = automa.record(g, 1)
    (extra,) = automa.unseen_cards(rec)
    other = g.clone()
    orec = automa.record(other, 1)
    swap = _reserve(g)[-1]
    automa._store(orec, automa.A_DECK, automa.A_DECK_LEN, [swap if c == extra else c for c in _deck(g)])
    automa._store(orec, automa.A_RESERVE, automa.A_RESERVE_LEN, [extra if c == swap else c for c in _reserve(g)])
    orec[automa.A_UNSEEN] = automa.card_bits([swap])
    assert not violations(other)
    a, b = hidden.resample(g, np.random.default_rng(9)), hidden.resample(other, np.random.default_rng(9))
    assert a.state.to_bytes() == b.state.to_bytes()

    known = set(_deck(g)) - {extra}
    drawn = set()
    for k in range(60):
        r = hidden.resample(g, np.random.default_rng(k))
        assert not violations(r)
        (new,) = automa.unseen_cards(automa.record(r, 1))
        assert set(_deck(r)) == known | {new} and len(_reserve(r)) == len(_reserve(g))
        drawn.add(new)
    assert drawn == set(automa.automa_data().cards) - _starters()


def test_hidden_resample_keeps_the_action_card_on_top_and_known_cards_in_the_deck() -> None:
    """§4.3: her action card, looked at, stays on top; the other known cards stay in her deck."""
    g = play_random(
        Game("aoi(players=1,automa=druids:4)", seed=5),
        np.random.default_rng(0),
        lambda g: g.state.glob[G_ROUND] >= 1 and automa.open_action_card(automa.record(g, 1)) != 0,
    )
    rec = automa.record(g, 1)
    action, unseen = automa.open_action_card(rec), automa.unseen_cards(rec)
    known = set(_deck(g)) - set(unseen)
    for k in range(20):
        r = hidden.resample(g, np.random.default_rng(k))
        deck = _deck(r)
        assert deck[0] == action and known <= set(deck) and len(deck) == len(_deck(g))


@pytest.mark.parametrize(
    ("card", "why"),
    [("starter", "a starter card"), ("action", "the action card looked at"), ("reserve", "a reserve card")],
)
def test_automa_3_5_a_card_marked_unseen_must_be_a_face_down_reserve_card_in_her_deck(card: str, why: str) -> None:
    """The invariant checker refuses an unseen mark on a card everyone knows or that is not in her
    deck (loading such a state names it)."""
    g = play_random(
        Game("aoi(players=1,automa=druids:4)", seed=5),
        np.random.default_rng(0),
        lambda g: g.state.glob[G_ROUND] >= 1 and automa.open_action_card(automa.record(g, 1)) != 0,
    )
    rec = automa.record(g, 1)
    assert not violations(g)
    pick = {
        "starter": next(c for c in _deck(g) if c in _starters() and c != automa.open_action_card(rec)),
        "action": automa.open_action_card(rec),
        "reserve": _reserve(g)[0],
    }[card]
    rec[automa.A_UNSEEN] = int(rec[automa.A_UNSEEN]) | automa.card_bits([pick])
    with pytest.raises(ValueError, match=f"card {pick} is marked unseen but is known or not in her deck"):
        Game(g.config, state=State.from_bytes(g.state.to_bytes()))
    rec[automa.A_UNSEEN] = 1 << automa.NUM_CARDS
    assert any("unseen-card bits 16384 outside 0..16383" in v for v in violations(g)), why
