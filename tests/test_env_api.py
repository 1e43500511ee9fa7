"""The PettingZoo AEC environment (issue 5): API conventions, turn order, rewards, errors, card.

Convention ids follow ECOSYSTEM §2 (A1-A20) and ECOSYSTEM §4 (P1-P15), listed in docs/conventions.md;
game rules are cited by R-id.
"""

from __future__ import annotations

import pickle
import random
import re
import subprocess
import sys
from functools import partial
from pathlib import Path

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

import aoi_env
from aoi_env import Game, GameConfig, age_of_innovation_v0
from aoi_env.core.moves import A_PASS, NUM_ACTIONS
from aoi_env.env import REGISTRY_ID, card, final_rewards, raw_env, vp_ranks
from aoi_env.observation import OBS_SIZE
from aoi_env.testing import Scenario, random_action

ENV_MODULE = sys.modules["aoi_env.env"]  # ``aoi_env.env`` itself is the env() factory
ROOT = Path(__file__).resolve().parent.parent
PLAYERS = [2, 3, 4, 5]
# api_test whitelists the classic envs' dict observations by name; ours gets these two notes
DICT_OBS_WARNINGS = [
    "ignore:Observation is not a NumPy array",
    "ignore:Observation space for each agent probably should be",
]


def offer_position() -> Game:
    """Seat 0 (Lake) can build a Workshop on r4c10 (swamp, 1 spade) next to seat 1's r4c11."""
    return (
        Scenario("aoi(players=3)", factions=["blessed", "felines", "goblins"], boards=["lake", "forest", "desert"])
        .build(0, "r4c9", "workshop")
        .build(1, "r4c11", "workshop")
        .build(2, "r6c3", "workshop")
        .terrain("r4c10", "swamp")
        .set(0, tools=9)
        .turn(0)
    )


def play_to_end(e: raw_env, seed: int) -> None:
    """Masked uniform random play until the game is over (no dead steps taken)."""
    rng = np.random.default_rng(seed)
    while not e.game.is_over():
        e.step(random_action(e.game, rng))


# -- A1, A17, A20: classes, metadata, versioned module, registry -----------------------------


def test_a20_registry_make_builds_the_wrapped_env() -> None:
    """A20: ``import aoi_env`` registers aoi/age_of_innovation-v0 in PettingZoo's registry."""
    assert REGISTRY_ID == "aoi/age_of_innovation-v0"
    assert REGISTRY_ID in pettingzoo.aec_registry
    e = pettingzoo.make("aec", REGISTRY_ID, num_players=3)
    assert isinstance(e, OrderEnforcingWrapper)
    assert isinstance(e.unwrapped, raw_env)
    assert e.unwrapped.config.players == 3
    assert str(e) == "age_of_innovation_v0"


def test_style1_engine_imports_without_gymnasium_and_pettingzoo() -> None:
    """STYLE §5.1: aoi_env.core needs numpy only; `import aoi_env` skips the RL layer (and the
    registration) when gymnasium / pettingzoo are missing instead of failing."""
    code = (
        "import sys; sys.modules['pettingzoo'] = None; sys.modules['gymnasium'] = None\n"
        "import aoi_env\nfrom aoi_env.core.engine import Game\n"
        "assert not hasattr(aoi_env, 'env') and Game('aoi(players=2)', seed=0).legal_actions()"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_a17_metadata_and_versioned_module() -> None:
    """ECOSYSTEM A17 / STYLE §5.13: versioned name, render modes, turn-based; the _v0 module re-exports."""
    assert raw_env.metadata["name"] == "age_of_innovation_v0"
    assert raw_env.metadata["render_modes"] == ["human", "ansi", "svg"]
    assert raw_env.metadata["is_parallelizable"] is False
    assert age_of_innovation_v0.env is aoi_env.env
    assert age_of_innovation_v0.raw_env is aoi_env.raw_env is raw_env


def test_a11_agents_are_player_0_to_n_minus_1() -> None:
    """A11: agents player_0 .. player_{n-1}, one per seat."""
    e = aoi_env.env(num_players=5)
    e.reset(seed=0)
    assert e.possible_agents == [f"player_{i}" for i in range(5)]
    assert e.agents == e.possible_agents


def test_a4_a14_spaces_are_cached_discrete_and_finite_boxes() -> None:
    """A4, A14: one Discrete(NUM_ACTIONS) and a dict of finite Boxes, the same object every call."""
    e = raw_env(num_players=4)
    for agent in e.possible_agents:
        assert e.action_space(agent) is e.action_space(agent)
        assert e.observation_space(agent) is e.observation_space(agent)
        assert e.action_space(agent).n == NUM_ACTIONS == 276
        box = e.observation_space(agent)["observation"]
        assert box.shape == (OBS_SIZE,) and box.dtype == np.float32
        assert np.isfinite(box.low).all() and np.isfinite(box.high).all() and (box.low < box.high).all()
        mask = e.observation_space(agent)["action_mask"]
        assert mask.shape == (NUM_ACTIONS,) and mask.dtype == np.int8
    assert e.state_space.shape == (OBS_SIZE,)


# -- official PettingZoo tests on the wrapped env, 2-5 players --------------------------------


@pytest.mark.filterwarnings(*DICT_OBS_WARNINGS)
@pytest.mark.parametrize("players", PLAYERS)
def test_a1_pettingzoo_api_test_wrapped_env(players: int) -> None:
    """A1-A13: pettingzoo.test.api_test passes on env() (a whole game inside 1000 cycles)."""
    api_test(aoi_env.env(num_players=players), num_cycles=1000)


@pytest.mark.filterwarnings(*DICT_OBS_WARNINGS)
def test_a1_pettingzoo_api_test_raw_env() -> None:
    """A1: api_test also passes on the unwrapped raw_env."""
    api_test(raw_env(num_players=3), num_cycles=1000)


@pytest.mark.parametrize("players", PLAYERS)
def test_a15_pettingzoo_seed_test(players: int) -> None:
    """A15: two envs reset with seed 42 and sampled with seeded spaces behave identically."""
    seed_test(partial(aoi_env.env, num_players=players), num_cycles=500)


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_a3_pettingzoo_state_checks_wrapped_env() -> None:
    """A3 / P15: state() lies in state_space; state_test's unmasked sampling soon plays an
    illegal id, which the wrapped env turns into the end of the game."""
    from pettingzoo.test.state_test import test_state, test_state_space  # not collected here

    e = aoi_env.env(num_players=3)
    e.reset(seed=0)
    test_state_space(e)
    test_state(e, num_cycles=10)
    assert e.agents == []


def test_a15_reset_seed_is_the_engine_seed() -> None:
    """A15: reset(seed=s) plays Game(config, seed=s), so records replay by seed + moves."""
    e = raw_env(num_players=3, distribution="draft")
    e.reset(seed=7)
    assert e.game.state == Game(GameConfig(players=3, distribution="draft"), seed=7).state
    assert e.agent_selection == f"player_{e.game.current_seat()}"


def test_a15_reset_without_seed_draws_from_np_random_not_global_rng() -> None:
    """A15: after reset(seed=3), further resets derive their seeds from env.np_random only."""
    a, b = raw_env(num_players=3), raw_env(num_players=3)
    a.reset(seed=3)
    b.reset(seed=3)
    for _ in range(3):
        np.random.seed(random.randrange(10**6))  # disturbing the global generators changes nothing
        random.seed(random.randrange(10**6))
        a.reset()
        b.reset()
        assert a.game.state == b.game.state
        assert int(a.game.state.glob[0]) == 0  # a fresh game (round 0 = setup)


def test_a15_reset_checks_its_seed_and_options() -> None:
    """A15: a numpy integer seed is a seed; anything else, a negative seed, options that are not
    a dict, or a start position of another ruleset is a ValueError (other option keys are
    ignored, as PettingZoo's api_test expects)."""
    e = raw_env(num_players=3)
    e.reset(seed=np.int64(5))
    assert e.game.state == Game(GameConfig(players=3), seed=5).state
    for kwargs, message in (
        ({"seed": -1}, "seed must be a non-negative integer"),
        ({"seed": 1.5}, "seed must be a non-negative integer"),
        ({"options": [1]}, "options must be a dict"),
        ({"options": {"game": Game("aoi(players=3,ruleset=v1.0)", seed=1)}}, r"\('v1.0', \(\), '3-5'\)"),
    ):
        with pytest.raises(ValueError, match=message):
            e.reset(**kwargs)


def test_a18_raw_env_pickles_with_its_parameters() -> None:
    """A18: raw_env is EzPickle: a pickled env re-creates itself from its constructor arguments."""
    e = raw_env(num_players=2, ruleset="v1.0", reward="win")
    e2 = pickle.loads(pickle.dumps(e))
    assert e2.config == e.config and e2.reward_kind == "win"
    e2.reset(seed=1)
    assert e2.game.config.ruleset == "v1.0"


# -- parameters -----------------------------------------------------------------------------


def test_style3_parameters_reach_the_engine_config() -> None:
    """Options are GameConfig parameters; num_players is the player count (R5)."""
    e = raw_env(num_players=2, ruleset="v1.0", distribution="draft", setup_choices="random")
    assert str(e.config) == "aoi(players=2,ruleset=v1.0,distribution=draft,setup_choices=random)"
    e = raw_env(num_players=3, factions=["moles", "omar", "felines"], boards=["lake", "desert", "forest"])
    e.reset(seed=0)
    assert e.game.config.factions == ("moles", "omar", "felines")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"num_players": 6}, "num_players must be 2..5 (or 1-2 with automa=...), got 6"),
        ({"num_players": 1}, "num_players must be 2..5 (or 1-2 with automa=...), got 1"),
        ({"num_players": "3"}, "num_players must be an integer"),
        ({"reward": "elo"}, "reward must be one of rank, win, score_diff; got 'elo'"),
        ({"render_mode": "rgb_array"}, "render_mode must be None or one of human, ansi, svg"),
        ({"player": 3}, "unknown parameter 'player'; valid: num_players, ruleset, map"),
        ({"ruleset": "v2"}, "ruleset must be one of v1.2, v1.0; got 'v2'"),
        ({"num_players": 4, "map": "1-3"}, "the 1-3 board side is for 1-3 players, not 4"),
        ({"num_players": 3, "factions": ["moles"]}, "factions must name one per player: got 1 for 3 players"),
        ({"num_players": 2, "factions": ["moles", "moles"]}, "duplicate factions: moles"),
        ({"num_players": 2, "boards": ["lake", "ocean"]}, "unknown board 'ocean'"),
    ],
)
def test_design8_bad_option_raises_valueerror_naming_it(kwargs: dict, message: str) -> None:
    """DESIGN §8: an impossible configuration raises ValueError saying what is wrong."""
    with pytest.raises(ValueError, match=re.escape(message)):
        aoi_env.env(**kwargs)


def test_design8_start_position_must_fit_the_env() -> None:
    """reset(options={"game": g}) takes a running engine game with the env's player count."""
    e = raw_env(num_players=2)
    with pytest.raises(ValueError, match="has 3 players, this env 2"):
        e.reset(options={"game": offer_position()})
    with pytest.raises(ValueError, match="must be an aoi_env.Game"):
        e.reset(options={"game": "aoi(players=2)"})


# -- A19: turn order = the engine's pending seat --------------------------------------------


def test_a19_agent_selection_follows_the_pending_seat_through_a_game() -> None:
    """A19: agent_selection is always the seat whose decision is pending (Game.current_seat())."""
    e = raw_env(num_players=4)
    e.reset(seed=11)
    rng = np.random.default_rng(11)
    seen = set()
    while not e.game.is_over():
        assert e.agent_selection == f"player_{e.game.current_seat()}"
        seen.add(e.agent_selection)
        e.step(random_action(e.game, rng))
    assert seen == set(e.possible_agents)


def test_r42_power_offer_jumps_to_the_offered_player_and_back() -> None:
    """R42 / A19: a multi-step build stays with the builder; the power offer from the new
    Workshop goes to the neighbour (its own AEC turn), then the builder's turn continues."""
    e = raw_env(num_players=3)
    e.reset(options={"game": offer_position()})
    game = e.game
    for move in ("build", "target r4c10", "spades 1"):
        assert e.agent_selection == "player_0"
        e.step(game.parse_move(move))
    assert e.agent_selection == "player_0"  # still the builder: TB_FINISH
    e.step(game.parse_move("workshop"))
    assert e.agent_selection == "player_1"  # seat 1's Workshop on r4c11 neighbours r4c10
    assert sorted(game.legal_moves()) == ["leech accept", "leech decline"]
    assert e.observe("player_1")["action_mask"].sum() == 2
    assert e.observe("player_0")["action_mask"].sum() == 0
    e.step(game.parse_move("leech accept"))
    assert e.agent_selection == "player_0"  # back to the builder's POST (conversions / done)
    assert game.pending_kind().name == "POST"


# -- A6-A8: rewards and the dead-step rule -----------------------------------------------------


def test_a7_dead_step_rule_at_game_end() -> None:
    """A7 / P5: at the end every agent is terminated and keeps its key until it takes one
    step(None); the last() reward on that step is its final reward; agents empty at the end."""
    e = raw_env(num_players=3)
    e.reset(seed=5)
    play_to_end(e, 5)
    expected = final_rewards(e.game.scores(), "rank")
    assert e.agents == ["player_0", "player_1", "player_2"]
    assert all(e.terminations.values()) and not any(e.truncations.values())
    assert e.rewards == {f"player_{i}": pytest.approx(expected[i]) for i in range(3)}
    removed = []
    while e.agents:
        agent = e.agent_selection
        obs, reward, terminated, truncated, info = e.last()
        assert terminated and not truncated
        assert reward == pytest.approx(expected[int(agent[-1])])
        assert obs["action_mask"].sum() == 0
        assert set(info) == {"vp", "rank"}
        with pytest.raises(ValueError, match="only valid action is None"):
            e.step(0)
        e.step(None)
        removed.append(agent)
        assert agent not in e.agents and agent not in e.rewards and agent not in e._cumulative_rewards
        assert set(e.rewards) == set(e.terminations) == set(e.infos) == set(e.agents)  # A8
        assert all(r == 0 for r in e.rewards.values())  # the dead step clears instantaneous rewards
    assert sorted(removed) == ["player_0", "player_1", "player_2"]


def test_a6_rewards_are_zero_until_the_end() -> None:
    """ECOSYSTEM A6 / DESIGN §7: no reward during play; last() reward is what accumulated since acting."""
    e = raw_env(num_players=2, reward="score_diff")
    e.reset(seed=2)
    rng = np.random.default_rng(2)
    while not e.game.is_over():
        _, reward, terminated, _, _ = e.last()
        assert reward == 0.0 and not terminated
        e.step(random_action(e.game, rng))
    vp = e.game.scores()
    # score_diff with two players: (own - other) / 100
    assert e._cumulative_rewards["player_0"] == pytest.approx((vp[0] - vp[1]) / 100)


@pytest.mark.parametrize("kind", ["rank", "win", "score_diff"])
def test_r86_final_rewards_from_final_vp(kind: str) -> None:
    """R86: highest VP wins, ties shared; each reward kind is computed from the final VP."""
    e = raw_env(num_players=4, reward=kind)
    e.reset(seed=3)
    play_to_end(e, 3)
    vp = e.game.scores()
    got = np.array([e._cumulative_rewards[f"player_{i}"] for i in range(4)])
    np.testing.assert_allclose(got, final_rewards(vp, kind))
    assert [e.infos[f"player_{i}"]["vp"] for i in range(4)] == [int(v) for v in vp]
    assert [e.infos[f"player_{i}"]["rank"] for i in range(4)] == vp_ranks(vp)
    if kind == "rank":
        assert got.sum() == pytest.approx(0.0)  # zero-sum
        assert got.max() == pytest.approx(1.0) or (vp == vp.max()).sum() > 1


def test_r86_rank_reward_ties_average_the_places() -> None:
    """R86: tied players share; rank places for 4 players are +1, +1/3, -1/3, -1."""
    got = final_rewards(np.array([30, 25, 25, 10]), "rank")
    # places 2 and 3 tied: (1/3 + -1/3) / 2 = 0
    np.testing.assert_allclose(got, [1.0, 0.0, 0.0, -1.0])
    got = final_rewards(np.array([40, 40, 40, 20, 20]), "rank")
    # 5 places +1, +0.5, 0, -0.5, -1: first three share (1 + 0.5 + 0) / 3 = 0.5, last two -0.75
    np.testing.assert_allclose(got, [0.5, 0.5, 0.5, -0.75, -0.75])
    np.testing.assert_allclose(final_rewards(np.array([7, 7]), "rank"), [0.0, 0.0])
    assert vp_ranks(np.array([30, 25, 25, 10])) == [1, 2, 2, 4]


def test_r86_win_reward_is_shared_by_tied_winners() -> None:
    """R86: ties are shared: two winners get +1/2 each, the others -1."""
    np.testing.assert_allclose(final_rewards(np.array([30, 30, 10]), "win"), [0.5, 0.5, -1.0])
    np.testing.assert_allclose(final_rewards(np.array([12, 30, 10]), "win"), [-1.0, 1.0, -1.0])


def test_design7_score_diff_reward_is_own_vp_minus_mean_of_others_over_100() -> None:
    """score_diff: (own VP - mean of the other players' VP) / 100."""
    # 60 - (40 + 20) / 2 = 30 -> 0.3; 40 - 40 = 0; 20 - 50 = -30 -> -0.3
    np.testing.assert_allclose(final_rewards(np.array([60, 40, 20]), "score_diff"), [0.3, 0.0, -0.3])


# -- illegal actions ----------------------------------------------------------------------------


def test_design8_illegal_action_raw_env_raises_valueerror_and_changes_nothing() -> None:
    """DESIGN §8: raw_env raises ValueError for an illegal id; game and bookkeeping unchanged."""
    e = raw_env(num_players=3)
    e.reset(seed=4)
    agent = e.agent_selection
    before = e.game.state.to_bytes()
    illegal = next(a for a in range(NUM_ACTIONS) if a not in e.game.legal_actions())
    with pytest.raises(ValueError, match=rf"{agent}: action {illegal} is not legal for seat \d \(pending: "):
        e.step(illegal)
    with pytest.raises(ValueError, match="out of range 0..275"):
        e.step(NUM_ACTIONS)
    with pytest.raises(ValueError, match=f"{agent} must act"):
        e.step(None)
    assert e.game.state.to_bytes() == before
    assert e.agent_selection == agent and not any(e.terminations.values())


@pytest.mark.filterwarnings("ignore:.*[Ii]llegal move")
def test_style13_illegal_action_wrapped_env_ends_the_game_with_minus_one() -> None:
    """PettingZoo classic: env() ends the game, -1 to the offender, 0 to everyone else."""
    e = aoi_env.env(num_players=3)
    e.reset(seed=4)
    offender = e.agent_selection
    obs, *_ = e.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    e.step(illegal)
    assert all(e.terminations.values()) and len(e.agents) == 3
    assert e.unwrapped._cumulative_rewards[offender] == -1
    assert all(e.unwrapped._cumulative_rewards[a] == 0 for a in e.agents if a != offender)
    for _ in range(3):  # A9: a terminated agent's mask is all zeros, the offender's too
        assert not e.last()[0]["action_mask"].any()
        e.step(None)
    assert e.agents == []


# -- A3, A12: step contract ----------------------------------------------------------------------


def test_a12_step_accepts_numpy_integers_and_returns_none() -> None:
    """A3, A12: step() takes np.int32/np.int64 ids and returns None."""
    e = raw_env(num_players=2)
    e.reset(seed=0)
    legal = e.game.legal_actions()
    assert e.step(np.int32(legal[0])) is None
    assert e.step(np.int64(e.game.legal_actions()[-1])) is None


def test_p1_acting_agent_always_has_a_legal_action_and_pass_is_one_in_phase_two() -> None:
    """P1: the acting agent's mask is never all zero; in a main-action decision pass is legal (R78)."""
    e = raw_env(num_players=3)
    e.reset(seed=9)
    rng = np.random.default_rng(9)
    while not e.game.is_over():
        mask = e.observe(e.agent_selection)["action_mask"]
        assert mask.any()
        if e.game.pending_kind().name == "MAIN" and e.game.state.glob[1] == 2:
            assert mask[A_PASS] == 1
        legal = np.flatnonzero(mask)
        e.step(int(legal[rng.integers(len(legal))]))


# -- the environment card -------------------------------------------------------------------------


def test_style12_card_header_matches_the_spaces() -> None:
    """STYLE §5.12: the card's shape lines agree with the declared spaces."""
    doc = ENV_MODULE.__doc__
    e = raw_env(num_players=3)
    obs_space = e.observation_space("player_0")
    assert f"| Action Shape | Discrete({e.action_space('player_0').n}) |" in doc
    assert f"`observation` ({obs_space['observation'].shape[0]},), `action_mask` ({NUM_ACTIONS},)" in doc
    assert f"| State Shape | ({e.state_space.shape[0]},) |" in doc
    assert f"a flat float32 vector of {OBS_SIZE} values in [0, 1]" in doc
    assert f"`action_mask` is an int8 vector of {NUM_ACTIONS}" in doc


def test_style12_card_observation_and_action_tables_are_generated_from_the_code() -> None:
    """STYLE §5.12, STYLE §5.14: the card's layout table is observation.layout_table(), the block table
    is moves.BLOCKS, and the decode example is right (193 = BONUS 186 + 7 -> B8)."""
    doc = ENV_MODULE.__doc__
    assert ENV_MODULE.observation_table() in doc
    assert ENV_MODULE.action_table() in doc
    from aoi_env.core.moves import BLOCKS, block_of

    assert block_of(193) == ("BONUS", 7) and BLOCKS["BONUS"][0] == 186
    assert block_of(42) == ("HEX", 42)  # r3c3: 3 * 13 + 3


def test_style12_card_parameters_table_lists_every_option_with_its_default() -> None:
    """The Parameters table names every game option (GameConfig) with the engine default."""
    from aoi_env.core.config import DEFAULT_PARAMS

    doc = ENV_MODULE.__doc__
    for name in ENV_MODULE.GAME_OPTIONS:
        default = DEFAULT_PARAMS[name]
        shown = f'"{default}"' if isinstance(default, str) else str(default)
        assert f"| `{name}` | `{shown}` |" in doc, name
    assert f"| `num_players` | {DEFAULT_PARAMS['players']} |" in doc
    assert '| `reward` | `"rank"` |' in doc and "| `render_mode` | `None` |" in doc


def test_style12_card_docs_environment_md_is_the_generated_card() -> None:
    """docs/environment.md is the card; regenerate with aoi_env.env.write_card()."""
    assert (ROOT / "docs" / "environment.md").read_text(encoding="utf-8") == card()


def test_style12_card_usage_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """The 10-line AEC loop of the card (and the README) plays a whole game."""
    code = re.search(r"## Usage\n\n```python\n(.*?)```", card(), re.S).group(1)
    assert len(code.strip().splitlines()) <= 12
    exec(compile(code, "environment.md", "exec"), {})  # noqa: S102 - our own documentation
    printed = capsys.readouterr().out
    assert re.fullmatch(r"\[\s*\d+\s+\d+\s+\d+\s*\]\n", printed), printed
