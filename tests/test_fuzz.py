"""Random play (issue 3 item 7) and the oracle check over every player count (DESIGN Quality)."""

from __future__ import annotations

import numpy as np
import pytest

from aoi_env.core.engine import Game
from aoi_env.testing import check_random_game

GAMES = ["aoi(players=2)", "aoi(players=3)", "aoi(players=4)", "aoi(players=5)"]


@pytest.mark.parametrize("game", GAMES)
def test_300_uniform_random_games_finish_with_valid_scores(game: str) -> None:
    """Issue 3: 300 full games per player count with uniformly random legal moves finish."""
    for seed in range(300):
        g = Game(game, seed=seed)
        rng = np.random.default_rng(seed)
        while not g.is_over():
            legal = g.legal_actions()
            assert legal, f"seed {seed}: empty legal set for seat {g.current_seat()}"
            g.apply_action(legal[int(rng.integers(len(legal)))])
        scores = g.scores()
        assert len(scores) == g.seats and (scores >= 0).all()


@pytest.mark.parametrize("game", GAMES + ["aoi(players=3,distribution=draft)", "aoi(players=4,ruleset=v1.0)"])
def test_invariants_hold_in_biased_random_games(game: str) -> None:
    for seed in range(25):
        check_random_game(game, seed)


@pytest.mark.parametrize("game", GAMES)
def test_oracle_every_offered_id_applies_cleanly(game: str) -> None:
    """Every legal id applies without error and leads to a position with a legal move."""
    for seed in range(3):
        check_random_game(game, seed, oracle=True)
