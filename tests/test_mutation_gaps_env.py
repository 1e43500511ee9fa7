"""Tests from a mutation audit of the environment layer (env.py, observation.py,
observation_jit.py, vector.py, train/seat_env.py).  Each test was checked to fail on
the mutant named in its docstring (270 mutants; docs/reliability.md)."""

from __future__ import annotations

import numpy as np
import pytest

from aoi_env import Game
from aoi_env.env import raw_env
from aoi_env.observation import ObservationEncoder, encode, views
from aoi_env.testing import play_random

# -- env.py ------------------------------------------------------------------------------------


def test_a9_design6_observe_is_the_egocentric_observation_of_that_agent() -> None:
    """ECOSYSTEM A9 / DESIGN §6 (card, Observation Space): ``observe(agent)`` is *that agent's* egocentric
    observation (the agent is relative seat 0), not seat 0's.  Mutant E43: observe encodes seat 0."""
    e = raw_env(num_players=3)
    e.reset(seed=5)
    for _ in range(12):  # into the game, so that seats differ
        e.step(e.game.legal_actions()[0])
    for seat, agent in enumerate(e.possible_agents):
        obs = e.observe(agent)["observation"]
        assert np.array_equal(obs, encode(e.game, seat)), agent
    deciding = e.agent_selection
    assert views(e.observe(deciding)["observation"])["pending_seat"][0] == 1.0  # 0 = the observer decides
    others = [a for a in e.possible_agents if a != deciding]
    assert all(views(e.observe(a)["observation"])["pending_seat"][0] == 0.0 for a in others)


def test_card_parameters_one_player_env_with_an_automa() -> None:
    """Card, Parameters: ``num_players`` is 2-5, or 1-2 with an Automa; the one-player env has the
    single agent player_0 and the Automa's turns happen inside the env.  Mutant E12: the 2..5 check
    ignores ``automa`` and rejects ``raw_env(num_players=1, automa=...)``."""
    e = raw_env(num_players=1, automa=("simpletons:3",), setup_choices="random")
    e.reset(seed=3)
    assert e.possible_agents == ["player_0"] and e.agent_selection == "player_0"
    e.step(e.game.legal_actions()[0])
    assert e.agent_selection == "player_0"
    with pytest.raises(ValueError, match=r"num_players must be 2..5 \(or 1-2 with automa=...\), got 1"):
        raw_env(num_players=1)


def test_design8_start_position_is_copied_not_shared() -> None:
    """Card: ``reset(options={"game": g})`` starts from *a copy* of ``g``; stepping the env must not
    change the caller's game.  Mutant E24: ``_start_position`` returns ``start`` itself."""
    g = Game("aoi(players=2)", seed=4)
    before = (g.state.players.copy(), g.state.glob.copy(), g.state.hexes.copy(), g.legal_actions())
    e = raw_env(num_players=2)
    e.reset(options={"game": g})
    assert e.game is not g
    for _ in range(5):
        e.step(e.game.legal_actions()[0])
    after = (g.state.players, g.state.glob, g.state.hexes, g.legal_actions())
    assert all(np.array_equal(a, b) for a, b in zip(before[:3], after[:3], strict=True))
    assert before[3] == after[3]


def test_design8_start_position_must_not_be_over() -> None:
    """A game that has ended cannot be a start position (no agent would have a decision, A7/P1):
    ValueError.  Mutant E23: the ``is_over`` check is dropped."""
    g = play_random(Game("aoi(players=2,setup_choices=random)", seed=2), np.random.default_rng(0))
    e = raw_env(num_players=2)
    with pytest.raises(ValueError, match="already over"):
        e.reset(options={"game": g})


def test_issue9_check_invariants_also_checks_the_start_position_on_reset() -> None:
    """Card, Parameters: ``check_invariants=True`` runs the invariant check after ``reset`` *and*
    every ``step``; a broken start position raises at reset.  Mutant E22: reset skips the check."""
    from aoi_env.core.state import P_COINS

    g = Game("aoi(players=2)", seed=1)
    g.state.players[1, P_COINS] = -5
    raw_env(num_players=2).reset(options={"game": g})  # without the option: no check
    e = raw_env(num_players=2, check_invariants=True)
    with pytest.raises(AssertionError, match=r"seat 1: coins is negative \(-5\)"):
        e.reset(options={"game": g})


def test_a16_human_render_mode_prints_the_table_after_every_step(capsys: pytest.CaptureFixture[str]) -> None:
    """A16 / card, Parameters: ``render_mode="human"`` prints the text rendering as the game goes
    (PettingZoo classic envs render in ``step``) and ``render()`` returns None.
    Mutant E38: ``step`` no longer renders in human mode."""
    e = raw_env(num_players=2, render_mode="human")
    e.reset(seed=0)
    capsys.readouterr()
    e.step(e.game.legal_actions()[0])
    printed = capsys.readouterr().out
    from aoi_env.render.text import render_text

    assert printed.strip() and printed.strip() == render_text(e.game).strip()


def test_a3_state_is_seat_0s_observation_also_when_another_seat_decides() -> None:
    """A3 / card: ``state()`` is the observation of ``player_0`` (relative seat r = seat r),
    whoever decides.  Mutant E44: ``state()`` encodes the deciding seat."""
    e = raw_env(num_players=3)
    e.reset(seed=5)
    while e.agent_selection == "player_0":
        e.step(e.game.legal_actions()[0])
    assert np.array_equal(e.state(), encode(e.game, 0))
    assert not np.array_equal(e.state(), encode(e.game, e.game.current_seat()))


# -- observation.py / observation_jit.py -------------------------------------------------------


@pytest.mark.parametrize("compiled", [False, True])
def test_a7_final_observation_shows_round_and_phase_over(compiled: bool) -> None:
    """Card, observation layout: ``round`` is one-hot setup, 1..6, *over* and ``phase`` one-hot
    setup income actions science *over*; the observation every agent reads with ``last()`` on its
    dead step (A7) is the finished game's, so it must say "over".  Mutants O32 (round clipped to 6)
    and O33 (phase "over" not encoded)."""
    from aoi_env import observation_jit

    if compiled and not observation_jit.AVAILABLE:
        pytest.skip("numba not installed")
    g = play_random(Game("aoi(players=2,setup_choices=random)", seed=2), np.random.default_rng(0))
    for seat in range(2):
        v = views(ObservationEncoder(compiled=compiled).encode(g, seat))
        assert v["round"].tolist() == [0, 0, 0, 0, 0, 0, 0, 1]
        assert v["phase"].tolist() == [0, 0, 0, 0, 1]
    e = raw_env(num_players=2, setup_choices="random")
    e.reset(seed=2)
    while not all(e.terminations.values()):
        e.step(e.game.legal_actions()[0])
    obs = e.last()[0]["observation"]
    assert views(obs)["round"][7] == 1.0 and views(obs)["phase"][4] == 1.0


def _both(g: Game, seat: int) -> list[dict[str, np.ndarray]]:
    from aoi_env import observation_jit

    flags = [False, True] if observation_jit.AVAILABLE else [False]
    return [views(ObservationEncoder(compiled=c).encode(g, seat)) for c in flags]


def test_r50_key_decision_shows_its_discipline_and_the_steps_still_to_go() -> None:
    """Card, ``pending_discipline`` / ``pending_count``: a key decision (Kind.USE_KEY: p0 the
    discipline, p1 the steps still to go above 7, R50, OP-30) shows the discipline one-hot and
    p1 / 8.  Mutant O59/J23: the count is read from p0 (the discipline)."""
    from aoi_env.core.pending import Kind
    from aoi_env.testing import Scenario

    g = Scenario("aoi(players=3)").decide(Kind.USE_KEY, 0, 2, 3)
    assert g.pending_kind() == Kind.USE_KEY
    for v in _both(g, 0):
        assert v["pending_discipline"].tolist() == [0.0, 0.0, 1.0, 0.0]
        assert v["pending_count"][0] == pytest.approx(3 / 8)


def test_a3_state_has_the_dtype_of_state_space() -> None:
    """A3 / A13: ``state()`` is an element of ``state_space`` with its dtype (float32, the
    observation Box).  Mutant E58: ``state_space`` declared float64."""
    e = raw_env(num_players=2)
    e.reset(seed=0)
    s = e.state()
    assert e.state_space.dtype == s.dtype == np.float32
    assert e.state_space == e.observation_space("player_0")["observation"]
    assert e.state_space.contains(s)


@pytest.mark.parametrize("compiled", [False, True])
def test_style14_encoder_returns_a_new_array_per_call(compiled: bool) -> None:
    """ObservationEncoder: "writes observations into one reusable buffer and returns copies" --
    an observation handed out must not change when the encoder encodes the next one (a replay
    buffer keeps them).  Mutant O85: the numpy encoder returns its buffer itself."""
    from aoi_env import observation_jit

    if compiled and not observation_jit.AVAILABLE:
        pytest.skip("numba not installed")
    g = Game("aoi(players=3)", seed=7)
    enc = ObservationEncoder(compiled=compiled)
    first = enc.encode(g, 0)
    kept = first.copy()
    second = enc.encode(g, 1)
    assert first is not second and not np.shares_memory(first, second)
    np.testing.assert_array_equal(first, kept)


@pytest.mark.parametrize("compiled", [False, True])
def test_design8_encode_rejects_an_observer_that_is_not_a_seat(compiled: bool) -> None:
    """``encode(g, observer)``: observer must be a seat 0..n-1 (ValueError), as ``encode_into``
    checks; a silent modulo would hand seat 0's view to "seat 3".  Mutant O81: ``encode`` drops
    the check."""
    from aoi_env import observation_jit

    if compiled and not observation_jit.AVAILABLE:
        pytest.skip("numba not installed")
    g = Game("aoi(players=3)", seed=7)
    for bad in (3, -1):
        with pytest.raises(ValueError, match="observer must be a seat 0..2"):
            ObservationEncoder(compiled=compiled).encode(g, bad)


def test_style14_numpy_encoder_clips_a_too_low_value_into_its_own_block() -> None:
    """The numpy gather, like the compiled kernel, clips a one-hot value below the table's range
    (a corrupted state) into its own entry's row, so only its own block can change
    (tests/test_env_observation.py checks this for the default, compiled, encoder only).
    Mutant O88: ``_Gather.write`` drops the lower clip, and -7 indexes the previous entry's row."""
    from aoi_env.core.state import P_BONUS, P_FACTION
    from aoi_env.observation import OBS_SIZE, SLICES

    g = Game("aoi(players=3)", seed=7)
    clean = ObservationEncoder(compiled=False).encode(g, 0)
    for field, block in ((P_BONUS, "player_bonus"), (P_FACTION, "player_faction")):
        bad = g.clone()
        bad.state.players[1, field] = -7
        obs = ObservationEncoder(compiled=False).encode(bad, 0)
        outside = np.ones(OBS_SIZE, dtype=bool)
        outside[SLICES[block]] = False
        np.testing.assert_array_equal(obs[outside], clean[outside])


def test_issue10_numba_installed_means_the_compiled_encoder_unless_switched_off() -> None:
    """observation_jit: with numba importable and ``AOI_ENV_NUMBA`` unset (or not "0") the compiled
    encoder is available and the default; ``AOI_ENV_NUMBA=0`` switches it off.  The jit tests are
    skipped when ``AVAILABLE`` is False, so an inverted switch would silently skip them all.
    Mutant J01: ``AOI_ENV_NUMBA`` test inverted (numba never used by default)."""
    import os
    import subprocess
    import sys

    pytest.importorskip("numba")
    code = (
        "from aoi_env import observation_jit as j, observation as o; "
        "print(j.AVAILABLE, o.ObservationEncoder().compiled)"
    )
    env = {k: v for k, v in os.environ.items() if k != "AOI_ENV_NUMBA"}
    for value, expected in ((None, "True True"), ("1", "True True"), ("0", "False False")):
        run_env = env if value is None else dict(env, AOI_ENV_NUMBA=value)
        out = subprocess.run([sys.executable, "-c", code], env=run_env, capture_output=True, text=True, check=True)
        assert out.stdout.strip() == expected, (value, out.stdout, out.stderr)


def test_issue10_jit_encode_into_checks_its_output_array() -> None:
    """``observation_jit.encode_into`` (public, unlike ``write``) raises ValueError for an output
    that is not a float32 vector of OBS_SIZE instead of writing past its end.
    Mutant J47: the shape and dtype check is dropped."""
    from aoi_env import observation_jit
    from aoi_env.observation import OBS_SIZE

    if not observation_jit.AVAILABLE:
        pytest.skip("numba not installed")
    g = Game("aoi(players=3)", seed=7)
    for bad in (np.zeros(OBS_SIZE - 1, np.float32), np.zeros(OBS_SIZE, np.float64)):
        with pytest.raises(ValueError, match="out must be a float32 array"):
            observation_jit.encode_into(bad, g, 0)
    out = np.zeros(OBS_SIZE, np.float32)
    observation_jit.encode_into(out, g, 0)
    assert out.any()


# -- vector.py ---------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["win", "score_diff"])
def test_vector_final_rewards_follow_the_reward_kind(kind: str) -> None:
    """VectorStep.rewards are ``aoi_env.env.final_rewards(scores, reward)`` of the vector's
    ``reward`` kind (card, Rewards), not always rank rewards.  Mutant V13: ``final_rewards(final)``
    ignores ``self.reward``."""
    from aoi_env.env import final_rewards
    from aoi_env.vector import VectorGame

    vec = VectorGame("aoi(players=3,setup_choices=random)", 1, seed=3, reward=kind)
    rng = np.random.default_rng(0)
    while True:
        step = vec.step(vec.random_actions(rng))
        if step.done[0]:
            break
    expected = final_rewards(step.scores[0], kind).astype(np.float32)
    np.testing.assert_allclose(step.rewards[0], expected, rtol=1e-6)
    assert not np.allclose(expected, final_rewards(step.scores[0], "rank"))


def test_vector_random_actions_draw_every_legal_id() -> None:
    """``random_actions``: "one uniformly random legal id per game" -- every legal id, the last one
    included, is drawn, about equally often.  Mutant V10: the draw never reaches the last id."""
    from aoi_env.vector import VectorGame

    vec = VectorGame("aoi(players=3)", 4, seed=0)
    rng = np.random.default_rng(0)
    legal = vec.legal_actions()
    counts = [dict.fromkeys(ids, 0) for ids in legal]
    for _ in range(400):
        for i, a in enumerate(vec.random_actions(rng).tolist()):
            counts[i][a] += 1
    for c in counts:
        assert all(v > 0 for v in c.values()), c
        assert max(c.values()) < 3 * 400 / len(c) + 10


def test_design8_vector_rejects_an_unknown_reward_kind() -> None:
    """DESIGN §8: a bad parameter raises ValueError at construction, naming the valid values (as
    ``raw_env``), not at the end of the first game.  Mutant V04: VectorGame drops the check."""
    from aoi_env.vector import VectorGame

    with pytest.raises(ValueError, match="reward must be one of rank, win, score_diff; got 'elo'"):
        VectorGame("aoi(players=2)", 1, reward="elo")


# -- train/seat_env.py -------------------------------------------------------------------------


def _seat_play_out(env, rng: np.random.Generator) -> tuple[float, dict, np.ndarray, int]:
    total, info, terminated, steps, obs = 0.0, {}, False, 0, None
    while not terminated:
        legal = np.flatnonzero(env.action_masks())
        obs, reward, terminated, _, info = env.step(int(rng.choice(legal)))
        total += reward
        steps += 1
    return total, info, obs, steps


def test_p5_learner_off_seat_0_gets_its_own_reward_kind_stats_and_final_observation() -> None:
    """SeatEnv module docstring: the reward is always *the learner's* (its seat's final reward of
    the env's ``reward`` kind, plus shaping with phi = (own VP - best other VP) / 100); the end
    info's ``length`` counts the learner's decisions of *this* episode and ``margin`` is own VP -
    best other VP; the observation is the learner's (also the terminal one).  Mutants S20 (seat 0's
    reward), S34 (rank instead of ``reward``), S28 (phi from the worst other), S11/S17 (length not
    reset / not counted), S12 (phi not reset on reset), S25 (margin against the best VP),
    S32 (the terminal observation of another seat)."""
    from aoi_env.env import final_rewards
    from train.seat_env import SeatEnv

    env = SeatEnv("aoi(players=3)", "random", reward="score_diff", shaping=0.5, learner_seat=1)
    for seed in (11, 12):  # two episodes on the same env
        env.reset(seed=seed)
        s0 = env.game.scores()
        phi0 = (s0[1] - max(s0[0], s0[2])) / 100
        total, info, obs, steps = _seat_play_out(env, np.random.default_rng(seed))
        s = env.game.scores()
        phi1 = (s[1] - max(s[0], s[2])) / 100
        assert total == pytest.approx(final_rewards(s, "score_diff")[1] + 0.5 * (phi1 - phi0))
        stats = info["episode_stats"]
        assert stats["length"] == steps and stats["seat"] == 1
        assert stats["margin"] == int(s[1]) - int(max(s[0], s[2]))
        np.testing.assert_array_equal(obs, encode(env.game, 1))


def test_reset_option_game_seed_fixes_the_game() -> None:
    """SeatEnv: ``reset(options={"game_seed": g})`` plays ``Game(config, seed=g)`` whatever the
    env seed.  Mutant S07: the option is ignored."""
    from aoi_env.core.state import G_ROUND_TILES, G_SEED
    from train.seat_env import SeatEnv

    env = SeatEnv("aoi(players=2)", "random", learner_seat=0)
    ref = Game(env.config_for("random"), seed=123)
    for seed in (1, 2):
        env.reset(seed=seed, options={"game_seed": 123})
        assert int(env.game.state.glob[G_SEED]) == int(ref.state.glob[G_SEED])
        np.testing.assert_array_equal(env.game.state.glob[G_ROUND_TILES], ref.state.glob[G_ROUND_TILES])


def test_r86_episode_stats_share_a_tied_first_place() -> None:
    """SeatEnv end info: ``win`` = 1/k for a k-way shared first place (R86), ``margin`` = own VP -
    best other VP (0 on a shared first place).  Mutant S24: a shared first place counts 1."""
    from train.seat_env import SeatEnv

    env = SeatEnv("aoi(players=3)", "random", learner_seat=2)
    env.reset(seed=0)
    env.game.scores = lambda: np.array([70, 55, 70])  # a finished game's tie, stubbed on the instance
    stats = env.episode_stats()
    assert stats["win"] == 0.5 and stats["margin"] == 0 and stats["vp"] == 70
    env.game.scores = lambda: np.array([40, 55, 70])
    stats = env.episode_stats()
    assert stats["win"] == 1.0 and stats["margin"] == 15
