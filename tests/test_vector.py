"""``aoi_env.vector`` (issue 10): many games stepped at once, auto-reset, masks and observations."""

from __future__ import annotations

import numpy as np
import pytest

from aoi_env.core.engine import Game
from aoi_env.core.moves import NUM_ACTIONS
from aoi_env.env import final_rewards
from aoi_env.observation import OBS_SIZE, encode
from aoi_env.vector import VectorGame, game_seed, throughput


def test_vector_masks_and_observations_are_those_of_each_game_seen_by_its_deciding_seat():
    """legal_masks / observations / seats agree with the single-game API, position by position."""
    vec = VectorGame("aoi(players=3)", 4, seed=5)
    rng = np.random.default_rng(0)
    for _ in range(40):
        masks, obs, seats = vec.legal_masks(), vec.observations(), vec.seats()
        assert masks.shape == (4, NUM_ACTIONS) and masks.dtype == np.int8
        assert obs.shape == (4, OBS_SIZE) and obs.dtype == np.float32
        for i, g in enumerate(vec.games):
            assert seats[i] == g.current_seat()
            np.testing.assert_array_equal(masks[i], g.action_mask())
            np.testing.assert_array_equal(obs[i], encode(g, g.current_seat()))
        actions = vec.random_actions(rng)
        assert all(masks[i, a] == 1 for i, a in enumerate(actions))
        vec.step(actions)


def test_vector_auto_reset_reports_the_finished_game_and_replays_from_its_seed():
    """A game that ends is replaced by a fresh one; the step reports its final scores and rank
    rewards, and the same seed and moves in a plain ``Game`` give the same scores."""
    vec = VectorGame("aoi(players=2)", 2, seed=1)
    rng = np.random.default_rng(2)
    moves: list[list[int]] = [[], []]
    while True:
        actions = vec.random_actions(rng)
        for i, a in enumerate(actions):
            moves[i].append(int(a))
        step = vec.step(actions)
        if step.done.any():
            break
    i = int(np.flatnonzero(step.done)[0])
    assert step.seeds[i] == game_seed(1, i)  # games 0 and 1 were the first two started
    replay = Game("aoi(players=2)", seed=int(step.seeds[i]))
    for a in moves[i]:
        replay.apply_action(a)
    assert replay.is_over()
    np.testing.assert_array_equal(step.scores[i], replay.scores())
    np.testing.assert_array_equal(step.rewards[i], final_rewards(replay.scores(), "rank"))
    assert step.rewards[i].sum() == pytest.approx(0.0)  # rank rewards are zero-sum
    assert not vec.games[i].is_over() and vec.started == 3 and vec.finished == 1
    assert vec.game_seeds[i] == game_seed(1, 2)  # the replacement is the third game started
    assert (step.seeds[~step.done] == -1).all() and not step.rewards[~step.done].any()


def test_vector_same_seed_same_games_other_seed_other_games():
    a, b, c = (VectorGame("aoi(players=3)", 3, seed=s) for s in (7, 7, 8))
    assert [x.state == y.state for x, y in zip(a.games, b.games, strict=True)] == [True] * 3
    assert not all(x.state == y.state for x, y in zip(a.games, c.games, strict=True))


def test_vector_rejects_an_illegal_action_naming_the_game_and_a_wrong_shape():
    vec = VectorGame("aoi(players=3)", 2, seed=0)
    actions = vec.random_actions(np.random.default_rng(0))
    illegal = next(a for a in range(NUM_ACTIONS) if a not in vec.games[1].legal_actions())
    before = [g.state.to_bytes() for g in vec.games]
    with pytest.raises(ValueError, match="game 1: action"):
        vec.step([actions[0], illegal])
    assert [g.state.to_bytes() for g in vec.games] == before  # a rejected batch changes no game
    with pytest.raises(ValueError, match=r"need one action per game: shape \(2,\)"):
        vec.step([actions[0]])
    with pytest.raises(ValueError, match="n must be a positive number of games"):
        VectorGame("aoi(players=3)", 0)


def test_vector_automa_games_rank_the_player_against_the_automa():
    """1 player + Automa: rewards are per player seat, ranked against the Automa as in the env."""
    vec = VectorGame("aoi(players=1,automa=simpletons:1)", 2, seed=3)
    rng = np.random.default_rng(3)
    for _ in range(2000):
        step = vec.step(vec.random_actions(rng))
        if step.done.any():
            break
    i = int(np.flatnonzero(step.done)[0])
    assert step.rewards.shape == (2, 1) and step.scores.shape == (2, 2)
    assert step.rewards[i, 0] == final_rewards(step.scores[i], "rank")[0]


def test_vector_throughput_with_two_worker_processes():
    """Two worker processes each play their own VectorGame; decisions are totals."""
    out = throughput("aoi(players=2)", n=2, decisions=60, workers=2, observe=True)
    assert out["decisions_per_s"] > 0 and out["wall_s"] > 0
    with pytest.raises(ValueError, match="workers must be an integer of at least 1, got 0"):
        throughput(workers=0)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"workers": 2.0}, "workers must be an integer of at least 1, got 2.0"),
        ({"decisions": 0}, "decisions must be an integer of at least 1, got 0"),
        ({"decisions": 1.5}, "decisions must be an integer of at least 1, got 1.5"),
        ({"n": -5}, "n must be an integer of at least 1, got -5"),
        ({"observe": "no"}, "observe must be True or False, got 'no'"),
    ],
)
def test_vector_throughput_checks_its_arguments(kwargs: dict, message: str):
    """A count that is not a positive integer, or an ``observe`` that is not a bool, is a ValueError
    before any game is played (``decisions=0`` used to report the rate of one step)."""
    with pytest.raises(ValueError, match=message):
        throughput("aoi(players=2)", **kwargs)


def test_vector_step_names_the_game_with_the_bad_action():
    """In a list, a float or an id too large for int64 in game 2 is reported for game 2 (numpy
    turned the whole batch into floats, and the message named game 0's legal id); no game changes."""
    vec = VectorGame("aoi(players=2)", 3, seed=1)
    legal = [g.legal_actions()[0] for g in vec.games]
    before = [g.state.to_bytes() for g in vec.games]
    for bad in (2.5, 2**63):
        with pytest.raises(ValueError, match=f"game 2: action must be an integer id, got {bad!r}|game 2: action id"):
            vec.step([legal[0], legal[1], bad])
    assert [g.state.to_bytes() for g in vec.games] == before
    assert [g.state.to_bytes() for g in vec.games] == before
    vec.step([legal[0], np.int64(legal[1]), legal[2]])  # numpy integers in a list are fine
    legal = [g.legal_actions()[0] for g in vec.games]
    vec.step([np.array(a) for a in legal])  # so are 0-d integer arrays (a policy's tensor rows)


def test_vector_example_of_the_environment_card_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """The batched-play example of docs/environment.md (the card) runs and reports finished games."""
    import re

    from aoi_env.env import card

    blocks = re.findall(r"```python\n(.*?)```", card(), re.S)
    code = next(b for b in blocks if "VectorGame(" in b)
    exec(compile(code, "environment.md", "exec"), {})  # noqa: S102 - our own documentation
    lines = capsys.readouterr().out.splitlines()
    assert lines and all(re.fullmatch(r"\d+ \[.*\] \[.*\]", line) for line in lines), lines[:3]


def test_vector_masks_are_new_writable_arrays_and_float_actions_are_rejected():
    """legal_masks hands out a new writable int8 array each call; an action given as a float (or a
    bool) is an error naming the game, as in the single env, not silently truncated."""
    vec = VectorGame("aoi(players=3)", 2, seed=4)
    first, second = vec.legal_masks(), vec.legal_masks()
    assert first.flags.writeable and first.dtype == np.int8 and first.shape == (2, NUM_ACTIONS)
    first[:] = 0
    assert second.sum() > 0 and vec.legal_masks().sum() == second.sum()
    legal = [g.legal_actions()[0] for g in vec.games]
    with pytest.raises(ValueError, match="game 0: action must be an integer id"):
        vec.step(np.array(legal, dtype=np.float64))
    with pytest.raises(ValueError, match="game 0: action must be an integer id"):
        vec.step(np.array([True, True]))
    vec.step(np.array(legal, dtype=np.int32))  # any integer dtype is fine


def test_style515_random_actions_and_throughput_name_a_bad_generator_or_seed():
    """random_actions(None) was an AttributeError, throughput(seed='x') a TypeError from seed + w."""
    vec = VectorGame("aoi(players=2)", 2, seed=0)
    for bad in (None, 5):
        with pytest.raises(ValueError, match=f"rng must be a numpy Generator .*got {bad!r}"):
            vec.random_actions(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="seed must be a non-negative integer, got 'x'"):
        throughput(n=1, decisions=1, seed="x")  # type: ignore[arg-type]
