"""Hidden information, and redrawing it for agents that search (information-set sampling).

A seat cannot see (the observation leaves out, tests/test_env_observation.py):

* the order of each Automa's face-down deck and reserve, and which of her unseen cards lie in
  which (AUTOMA.md §3.5, §4.3, §4.6), except level 1's *3 on top of the reserve in round 1 and
  her action card on top of the deck once she has drawn this round (§4.3 looks at it: it is her
  next support card);
* the 2-player neutral faction's area token before round 6 (R25);
* the seed of later chance: the Automa's reshuffles between rounds (§4.6) and random setup
  choices still to come.

An agent that looks ahead by playing moves in a ``Game.clone()`` would read all three through
the engine (the Automa's turns are played inside ``apply_action``), so its choice would depend
on what it may not know.  ``resample(game, rng)`` returns a clone in which they are redrawn from
what the seat knows; the search then depends only on the seat's information and ``rng``.

At level 1 the reserve's top card in round 1 is *3 (§3.5 step 4: the rules put it there, so it
is no secret); it stays on top and only the rest of the reserve is redrawn.  Her face-up action
card stays on top of her deck in the same way (``automa.open_action_card``).

Her deck holds cards every player knows to be there (the starter cards, level 5's card 13, every
card once drawn: a round's cards all come back, §4.6) and cards nobody has seen (the random
reserve cards of §3.5 step 2, and the reserve card that joins each round, until drawn or looked
at: ``automa.unseen_cards``).  Those are redrawn together with her face-down reserve, so the
*content* of the deck is redrawn as well as its order; the known cards stay in the deck.
"""

from __future__ import annotations

import numpy as np

from aoi_env.core import automa
from aoi_env.core.engine import Game
from aoi_env.core.rules import scoring
from aoi_env.core.state import G_AREA_TOKEN, G_PHASE, G_ROUND, G_SEED, Phase


def resample(game: Game, rng: np.random.Generator) -> Game:
    """A clone of ``game`` with its hidden information redrawn with ``rng`` (see the module docstring).

    The result depends on the true hidden values only through what is public (pile sizes, the
    cards known to be in her deck), never on their order, on which unseen card is where, or on
    the seed.
    """
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy Generator (np.random.default_rng(seed)), got {rng!r}")
    g = game.clone()
    for seat in range(g.config.players, g.seats):
        _redraw_cards(automa.record(g, seat), rng)
    if scoring.has_neutral_faction(g) and scoring.visible_area_token(g) is None:
        tokens = g.config.area_tokens
        g.state.glob[G_AREA_TOKEN] = tokens[int(rng.integers(len(tokens)))]
    g.state.glob[G_SEED] = int(rng.integers(2**31))
    return g


def _redraw_cards(rec: np.ndarray, rng: np.random.Generator) -> None:
    """Her unseen deck cards and face-down reserve, redrawn among each other; the deck reshuffled
    below her face-up action card.  Sorted first, so the true order and content leave no trace."""
    known_top = automa.automa_data().levels[int(rec[automa.A_LEVEL])]["to_reserve_top"]
    action = automa.open_action_card(rec)  # §4.3: looked at after her draw, so known to all
    deck = automa._pile(rec, automa.A_DECK, automa.A_DECK_LEN)
    reserve = automa._pile(rec, automa.A_RESERVE, automa.A_RESERVE_LEN)
    unseen = automa.unseen_cards(rec)
    reserve_top = reserve[:1] if reserve[:1] == [known_top] else []  # §3.5 step 4: level 1's *3, in round 1
    pool = sorted(unseen + reserve[len(reserve_top) :])
    pool = [pool[int(i)] for i in rng.permutation(len(pool))]
    new_unseen, new_reserve = pool[: len(unseen)], reserve_top + pool[len(unseen) :]
    body = sorted([c for c in deck if c not in unseen and c != action] + new_unseen)
    deck = [action] * bool(action) + [body[int(i)] for i in rng.permutation(len(body))]
    automa._store(rec, automa.A_DECK, automa.A_DECK_LEN, deck)
    automa._store(rec, automa.A_RESERVE, automa.A_RESERVE_LEN, new_reserve)
    rec[automa.A_UNSEEN] = automa.card_bits(new_unseen)


def has_hidden_information(game: Game) -> bool:
    """True when ``resample`` could change what a lookahead sees: an Automa, a face-down area
    token, or the setup (random setup choices are drawn from the seed as the engine reaches them)."""
    glob = game.state.glob
    return (
        game.seats > game.config.players
        or int(glob[G_PHASE]) == Phase.SETUP
        or (scoring.has_neutral_faction(game) and int(glob[G_ROUND]) < scoring.AREA_TOKEN_REVEALED_ROUND)
    )
