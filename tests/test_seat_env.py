"""``train.seat_env.SeatEnv``: one seat as a single-agent gymnasium env (issue 7, ECOSYSTEM §3.4).

Ids in the names: P1 / P5 / P7 are the pitfalls of ECOSYSTEM §4 (all-False masks, the terminal
reward of a game that ends on another agent's move, masks passed to the policy); R82 is the end
of the game after round 6, R86 shared ranks.  No torch here: opponents are scripted or Automa.
"""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from aoi_env.env import final_rewards
from aoi_env.observation import OBS_SIZE, encode
from train.opponents import OpponentPool, check_spec, game_config_for
from train.seat_env import SeatEnv


def play_out(env: SeatEnv, rng: np.random.Generator, log: list[str] | None = None) -> tuple[float, dict]:
    """Random masked play of the learner until the game ends; returns (sum of rewards, last info)."""
    total, info, terminated = 0.0, {}, False
    while not terminated:
        legal = np.flatnonzero(env.action_masks())
        if log is not None:
            log.append("learner")
        _, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        assert not truncated
        total += reward
    return total, info


class Recorder:
    """Wraps an opponent and logs that it decided (to see who made a game's last decision)."""

    def __init__(self, inner, log: list[str]) -> None:
        self.inner, self.log = inner, log

    def choose(self, game) -> int:
        self.log.append("opponent")
        return self.inner.choose(game)


def test_seat_env_passes_gymnasium_check_env():
    """Gymnasium's checker: spaces, reset/step signatures, seeding determinism, obs in the Box."""
    env = SeatEnv("aoi(players=2)", {"random": 1.0, "automa:1": 1.0})
    check_env(env, skip_render_check=True)
    assert env.observation_space.shape == (OBS_SIZE,) and env.observation_space.dtype == np.float32


@pytest.mark.parametrize("last", ["opponent", "learner"])
def test_p5_r82_terminal_reward_arrives_whoever_makes_the_last_decision(last: str):
    """R82: the game ends after round 6; the learner's final reward comes with the step that ends
    its episode, also when the last decision of the game was an opponent's (P5)."""
    for seed in range(40):
        env = SeatEnv("aoi(players=2)", "random", learner_seat=0)
        env.reset(seed=seed)
        log: list[str] = []
        env.opponents = {s: Recorder(a, log) for s, a in env.opponents.items()}
        total, info = play_out(env, np.random.default_rng(seed), log)
        if log[-1] != last:
            continue
        scores = env.game.scores()
        expected = final_rewards(scores, "rank")[0]  # 2 players: +1 for more VP, -1 for less, 0 on a tie (R86)
        assert total == expected
        assert abs(total) == 1.0 or scores[0] == scores[1]
        stats = info["episode_stats"]
        assert stats["margin"] == int(scores[0]) - int(scores[1])  # own VP - best other VP
        assert stats["win"] == (1.0 if scores[0] > scores[1] else 0.5 if scores[0] == scores[1] else 0.0)
        return
    pytest.fail(f"no game among 40 seeds ended on the {last}'s decision")


def test_p1_action_masks_are_the_learners_legal_ids_and_never_all_false():
    """P1: the mask MaskablePPO reads is the learner's legal ids (bool) and has at least one id;
    after the game it is all True rather than all False; the observation is the learner's own."""
    env = SeatEnv("aoi(players=3)", "random")
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    terminated = False
    while not terminated:
        mask = env.action_masks()
        assert mask.dtype == bool and mask.any()
        assert env.game.current_seat() == env.seat
        assert list(np.flatnonzero(mask)) == env.game.legal_actions()
        obs, _, terminated, _, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        if not terminated:
            np.testing.assert_array_equal(obs, encode(env.game, env.seat))
    assert env.action_masks().all()
    assert env.illegal_actions == 0


def test_seat_rotation_random_by_default_fixed_on_request_and_seat0_against_the_automa():
    """The learner's seat is drawn per game (first-player bias averages out); ``learner_seat``
    fixes it; against the Automa the learner is the only player, seat 0."""
    env = SeatEnv("aoi(players=3)", "random")
    seats = {env.reset(seed=s)[1]["seat"] for s in range(30)}
    assert seats == {0, 1, 2}
    fixed = SeatEnv("aoi(players=3)", "random", learner_seat=2)
    assert {fixed.reset(seed=s)[1]["seat"] for s in range(5)} == {2}
    automa = SeatEnv("aoi(players=3)", "automa:1")
    assert {automa.reset(seed=s)[1]["seat"] for s in range(5)} == {0}
    mixed = SeatEnv("aoi(players=3)", {"random": 1.0, "automa:3": 1.0}, learner_seat=2)
    seats = {(info["opponent"], info["seat"]) for info in (mixed.reset(seed=s)[1] for s in range(12))}
    assert seats == {("random", 2), ("automa:3", 0)}  # a fixed seat, but seat 0 against the Automa


def test_opponents_come_from_the_pool_with_their_weights():
    """One opponent kind per game, drawn with the pool's weights; every other player seat gets a
    fresh opponent of that kind."""
    env = SeatEnv("aoi(players=3)", {"random": 3.0, "automa:2": 1.0})
    kinds = [env.reset(seed=s)[1]["opponent"] for s in range(200)]
    share = kinds.count("random") / len(kinds)
    assert set(kinds) == {"random", "automa:2"}
    assert 0.65 < share < 0.85  # weight 3 of 4 = 0.75
    env.reset(seed=1, options={"opponent": "random"})
    assert sorted(env.opponents) == sorted({0, 1, 2} - {env.seat})
    assert all(type(a).__name__ == "RandomAgent" for a in env.opponents.values())
    env.reset(seed=1, options={"opponent": "heuristic"})  # heuristic is a valid kind too
    assert all(type(a).__name__ == "HeuristicAgent" for a in env.opponents.values())


def test_automa_game_is_one_player_plus_the_automa_seat_and_ends_with_her_score():
    """A game against automa:L is GameConfig(players=1, automa=("simpletons:L",)) (docs/automa.md):
    the Automa plays inside the engine, so the learner decides every step; its margin is against
    her VP."""
    env = SeatEnv("aoi(players=2)", "automa:1")
    _, info = env.reset(seed=5)
    assert env.game.config.players == 1 and env.game.config.automa == ("simpletons:1",)
    assert info["game"] == str(env.game.config) and env.opponents == {}
    total, info = play_out(env, np.random.default_rng(5))
    scores = env.game.scores()
    assert len(scores) == 2  # the player, then the Automa seat
    assert info["episode_stats"]["margin"] == int(scores[0]) - int(scores[1])
    assert total == final_rewards(scores, "rank")[0]


def test_automa_spec_with_faction_and_config_helper():
    """automa:FACTION:L names another Automa faction; game_config_for keeps the base parameters."""
    base = game_config_for(
        __import__("aoi_env").GameConfig.parse("aoi(players=3,ruleset=v1.0)"), "automa:druids:4", "random"
    )
    assert base.players == 1 and base.automa == ("druids:4",) and base.ruleset == "v1.0"
    assert check_spec("automa:druids:4") == "automa:druids:4"
    with pytest.raises(ValueError, match="bad automa spec"):
        check_spec("automa:9")
    with pytest.raises(ValueError, match="unknown opponent 'rando'; valid: random, heuristic"):
        check_spec("rando")


def test_same_seed_same_trajectory():
    """reset(seed) fixes opponent kind, seat, game and opponents: equal seeds, equal episodes."""

    def trajectory(seed: int) -> list:
        env = SeatEnv("aoi(players=2)", {"random": 1.0, "automa:1": 1.0})
        obs, info = env.reset(seed=seed)
        rng = np.random.default_rng(0)
        out = [info["opponent"], info["seat"], obs.sum()]
        terminated = False
        while not terminated:
            obs, reward, terminated, _, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            out.append((float(obs.sum()), reward))
        return out + [list(env.game.scores())]

    assert trajectory(11) == trajectory(11)
    assert trajectory(11) != trajectory(12)


def test_p7_illegal_id_is_replaced_and_counted():
    """Only unmasked samplers (gymnasium's checker) send illegal ids: the env plays a random legal
    id instead and counts it in info["illegal_actions"] (training logs it; it must stay 0)."""
    env = SeatEnv("aoi(players=2)", "random")
    env.reset(seed=2)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, _, _, _, info = env.step(illegal)
    assert info["illegal_actions"] == 1 and env.illegal_actions == 1


def test_shaping_adds_the_change_of_the_vp_margin_potential():
    """Potential-based shaping: the rewards of a game sum to the final reward plus
    shaping * (phi_end - phi_start), phi = (own VP - best other VP) / 100."""
    env = SeatEnv("aoi(players=2)", "random", shaping=0.5, learner_seat=0)
    env.reset(seed=4)
    scores = env.game.scores()
    phi0 = (scores[0] - scores[1]) / 100
    total, info = play_out(env, np.random.default_rng(4))
    margin = info["episode_stats"]["margin"]
    final = final_rewards(env.game.scores(), "rank")[0]
    assert total == pytest.approx(final + 0.5 * (margin / 100 - phi0))


def test_step_takes_integer_ids_only():
    """A numpy integer or a one-element integer array is an id (SB3 passes either); a float or a
    bool is a ValueError, not a truncated id."""
    env = SeatEnv("aoi(players=2)", "random", learner_seat=0)
    env.reset(seed=1)
    legal = env.game.legal_actions()
    env.step(np.array([legal[0]]))
    for bad in (3.7, True, "3"):
        with pytest.raises(ValueError, match="action must be an integer id"):
            env.step(bad)


def test_bad_arguments_raise_value_errors():
    with pytest.raises(ValueError, match="reward must be one of rank, win, score_diff"):
        SeatEnv("aoi(players=2)", reward="vp")
    with pytest.raises(ValueError, match="learner_seat must be 0..1"):
        SeatEnv("aoi(players=2)", learner_seat=2)
    with pytest.raises(ValueError, match="opponent 'self' needs a snapshot"):
        SeatEnv("aoi(players=2)", "self").reset(seed=0)
    with pytest.raises(ValueError, match="automa:L"):
        SeatEnv("aoi(players=1,automa=simpletons:1)")
    pool = OpponentPool({"random": 0.0, "heuristic": 1.0})
    assert pool.draw_kind(np.random.default_rng(0)) == "heuristic"


def test_design8_seat_env_rejects_bad_parameters_and_steps_after_the_end() -> None:
    """DESIGN §8: bad constructor and reset arguments are ValueErrors naming the valid values; a
    step after the game ended is a RuntimeError (gymnasium: call reset)."""
    from train.seat_env import SeatEnv

    with pytest.raises(ValueError, match="render_mode must be None or 'ansi', got 'human'"):
        SeatEnv("aoi(players=2)", render_mode="human")
    with pytest.raises(ValueError, match="setup_choices must be 'random' or 'players', got 'none'"):
        SeatEnv("aoi(players=2)", setup_choices="none")
    env = SeatEnv("aoi(players=2)", "random")
    with pytest.raises(ValueError, match=r"seat 2 is not a player seat of .* \(0..1\)"):
        env.reset(seed=0, options={"seat": 2})
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    terminated = False
    while not terminated:
        _, _, terminated, _, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
    with pytest.raises(RuntimeError, match="the game is over: call reset"):
        env.step(0)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"learner_seat": "1"}, "learner_seat must be 0..1 or None, got '1'"),  # was a TypeError from <=
        ({"learner_seat": 1.5}, "learner_seat must be 0..1 or None, got 1.5"),  # was played as seat 1
        ({"learner_seat": True}, "learner_seat must be 0..1 or None, got True"),
        ({"shaping": "x"}, "shaping must be a finite number, got 'x'"),  # was float()'s message
        ({"shaping": float("nan")}, "shaping must be a finite number, got nan"),
        ({"game": 3}, "game must be a game string such as 'aoi\\(players=2\\)' or a GameConfig, got 3"),
        ({"opponents": ["random"]}, "opponents must be a spec or a mapping of spec -> weight"),  # a TypeError
        ({"opponents": {"random": "x"}}, "opponent weight of 'random' must be a finite number >= 0, got 'x'"),
        ({"opponents": {"random": float("nan")}}, "opponent weight of 'random' must be a finite number"),
    ],
)
def test_style515_seat_env_arguments_of_the_wrong_type_are_named(kwargs: dict, message: str):
    """An audit of the training entry points: these reached no check and crashed deep inside
    (a TypeError / AttributeError, float()'s message without the argument's name), or passed
    silently (a learner seat of 1.5, a NaN weight that failed only at the first reset)."""
    with pytest.raises(ValueError, match=message):
        SeatEnv(**{"game": "aoi(players=2)", **kwargs})
    assert SeatEnv("aoi(players=2)", learner_seat=np.int64(1), shaping=np.float32(0.5)).learner_seat == 1


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"seat": "a"}, "options\\['seat'\\] must be a seat number, got 'a'"),  # was int()'s message
        ({"seat": 1.7}, "options\\['seat'\\] must be a seat number, got 1.7"),  # was seat 1
        ({"game_seed": 1.5}, "options\\['game_seed'\\] must be a non-negative integer, got 1.5"),  # was seed 1
        ({"game_seed": "x"}, "options\\['game_seed'\\] must be a non-negative integer, got 'x'"),
        ({"opponent": "heuristic:x"}, "unknown opponent 'heuristic:x'; valid: random, heuristic"),  # 'an Automa'
        ({"opponnent": "random"}, "unknown reset option 'opponnent'; valid: opponent, seat, game_seed"),  # ignored
        ([1], "options must be a dict with keys among opponent, seat, game_seed"),
    ],
)
def test_style515_bad_reset_options_are_named_and_change_nothing(options, message: str):
    """A rejected reset leaves the env as it was: the same game and an unseeded generator."""
    env = SeatEnv("aoi(players=2)", "random")
    env.reset(seed=0)
    game, rng = env.game.state.to_bytes(), env.np_random.bit_generator.state
    with pytest.raises(ValueError, match=message):
        env.reset(seed=5, options=options)
    assert env.game.state.to_bytes() == game and env.np_random.bit_generator.state == rng
    env.reset(seed=5, options={"seat": np.int64(1), "game_seed": np.int64(3), "opponent": "heuristic"})
    assert env.seat == 1 and env.kind == "heuristic"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"max_snapshots": "x"}, "max_snapshots must be an integer >= 1, got 'x'"),  # was int()'s message
        ({"max_snapshots": 0}, "max_snapshots must be an integer >= 1, got 0"),  # kept no snapshot: 'self' failed
        ({"latest_prob": 2}, "latest_prob must be a number in \\[0, 1\\], got 2"),
        ({"weights": 3}, "opponents must be a spec or a mapping of spec -> weight"),  # a TypeError
    ],
)
def test_style515_opponent_pool_arguments_are_checked(kwargs: dict, message: str):
    with pytest.raises(ValueError, match=message):
        OpponentPool(**kwargs)
