"""Random play (issue 3 item 7), the oracle check over every player count (DESIGN Quality) and the
issue 9 coverage: every faction on every board, every Automa faction and level, and a sample of
the long-run fuzz mix (``python -m aoi_env.fuzz``, docs/reliability.md)."""

from __future__ import annotations

import numpy as np
import pytest

from aoi_env.core.config import FACTION_NAMES, TERRAIN_NAMES, GameConfig
from aoi_env.core.engine import Game
from aoi_env.core.invariants import check
from aoi_env.fuzz import automa_factions, make_tasks, play_checked, run_task
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
        check(g, strict=True)  # the final position is sound too


@pytest.mark.parametrize("game", GAMES + ["aoi(players=3,distribution=draft)", "aoi(players=4,ruleset=v1.0)"])
def test_invariants_hold_in_biased_random_games(game: str) -> None:
    for seed in range(25):
        check_random_game(game, seed)


@pytest.mark.parametrize("game", GAMES)
def test_oracle_every_offered_id_applies_cleanly(game: str) -> None:
    """Every legal id applies without error and leads to a position with a legal move."""
    for seed in range(3):
        check_random_game(game, seed, oracle=True)


def test_c6_random_games_check_the_exact_pavilion_count(monkeypatch: pytest.MonkeyPatch) -> None:
    """C6, R45: a game played from its start conserves pavilions and city tiles exactly, so
    ``check_random_game`` (the fuzz oracle games and ``--repro``) checks strictly: a pavilion
    lost from the supply is found, which the lenient Scenario check lets pass."""
    from aoi_env.core.state import G_PAVILIONS_LEFT

    apply = Game.apply_action

    def losing_a_pavilion(self: Game, action: int) -> None:
        apply(self, action)
        if self.state.glob[G_PAVILIONS_LEFT] == 8:
            self.state.glob[G_PAVILIONS_LEFT] -= 1  # one pavilion vanishes from the supply

    monkeypatch.setattr(Game, "apply_action", losing_a_pavilion)
    with pytest.raises(AssertionError, match="pavilion"):
        check_random_game("aoi(players=2)", 0)
    g = Game("aoi(players=2)", seed=0)
    g.apply_action(g.legal_actions()[0])
    check(g)  # the lenient check: no piece from nowhere, a missing one is not its business
    with pytest.raises(AssertionError, match="pavilion"):
        check(g, strict=True)


# ------------------------------------------------------------------------------------------------
# issue 9: every faction on every board, every Automa, and a sample of the long-run fuzz mix


def _faction_board_games() -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """21 four-player games that seat each of the 12 factions on each of the 7 boards once:
    factions 4k..4k+3 on boards (f + j) mod 7 for j = 0..6 (distinct within a game)."""
    games = []
    for j in range(7):
        for k in range(3):
            fs = range(4 * k, 4 * k + 4)
            games.append((tuple(FACTION_NAMES[f] for f in fs), tuple(TERRAIN_NAMES[(f + j) % 7] for f in fs)))
    return games


def test_r15_r17_every_faction_on_every_planning_board_keeps_the_invariants() -> None:
    """R15, R17, R88: any faction may sit on any planning board (fixed setup); all 84 pairs play a
    whole game with the invariants (strict conservation included) after every decision."""
    games = _faction_board_games()
    pairs = {(f, b) for fs, bs in games for f, b in zip(fs, bs, strict=True)}
    assert len(pairs) == 12 * 7
    for i, (factions, boards) in enumerate(games):
        config = GameConfig.from_params(players=4, factions=factions, boards=boards)
        g = play_checked(config, seed=i, policy="biased" if i % 2 else "uniform")
        assert (g.scores() >= 0).all()


@pytest.mark.parametrize("humans", [1, 2])
def test_automa_every_faction_at_every_level_keeps_the_invariants(humans: int) -> None:
    """AUTOMA.md §2.5, §3.1: each supported Automa faction at each level 1-5 (with 1 or 2 players)
    plays a whole game with the invariants after every decision."""
    factions = automa_factions()
    for level in range(1, 6):
        for i, faction in enumerate(factions):
            play_checked(f"aoi(players={humans},automa={faction}:{level})", seed=10 * level + i)


def test_automa_two_automas_every_faction_keeps_the_invariants() -> None:
    """AUTOMA.md §3.1: 1 player + 2 Automas, every supported faction in both Automa seats."""
    factions = automa_factions()
    for i, a in enumerate(factions):
        b = factions[(i + 3) % len(factions)]
        play_checked(f"aoi(players=1,automa={a}:{1 + i % 5}+{b}:{5 - i % 5})", seed=i, policy="uniform")
        play_checked(f"aoi(players=1,automa={b}:{2 + i % 4}+{a}:{1 + i % 3})", seed=50 + i)


FUZZ_CHUNK = 100


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(8))
def test_issue9_fuzz_mix_sample_has_no_failure(chunk: int) -> None:
    """Issue 9: 800 games of the ``python -m aoi_env.fuzz`` mix (seed 2024, all configuration
    families, biased and uniform play, every 50th game with the full oracle) in 8 chunks: none
    raises, breaks an invariant or runs past the decision cap."""
    tasks = list(make_tasks(FUZZ_CHUNK, seed=2024, oracle_every=50, start=chunk * FUZZ_CHUNK))
    failures = [f"{r.config} seed {r.seed} {r.policy}: {r.error}" for r in map(run_task, tasks) if r.error]
    assert failures == []
