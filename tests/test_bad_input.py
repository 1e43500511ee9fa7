"""Bad input through the public surface: a clear ValueError naming the problem, nothing changed.

Each case was found by an audit of the public API with malformed values (DESIGN §8: an impossible
config, an illegal action or a malformed string raises a ValueError naming what is wrong).
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

import aoi_env
from agents import make_agent, play_game
from agents.human import HumanAgent
from aoi_env import Game
from aoi_env.cli import main
from aoi_env.core import automa
from aoi_env.core.config import GameConfig
from aoi_env.core.invariants import violations
from aoi_env.core.pending import PART_EFFECT, SRC_BOOK, Kind
from aoi_env.core.state import (
    G_BONUS_ROW,
    G_BONUS_STATE,
    G_BOOK_ACTIONS,
    G_BUNDLE_BONUS,
    G_BUNDLE_FACTION,
    G_COMP_SPACES,
    G_DEPTH,
    G_DRAFT_FACTIONS,
    G_DRAFT_PALACES,
    G_INNOV_OWNER,
    G_INNOV_SPACES,
    G_NEXT_COUNT,
    G_NEXT_ORDER,
    G_NUM_BRIDGES,
    G_PALACE_STATE,
    G_PHASE,
    G_ROUND_TILES,
    G_SEED,
    G_SETUP_STEP,
    P_BOARD,
    P_BONUS,
    P_CITIES,
    P_DRAFT_PALACE,
    P_FACTION,
    P_PALACE_TILE,
    P_PASSED,
    P_TERRAFORMING,
    Phase,
    State,
)
from aoi_env.testing import play_random, random_action
from aoi_env.vector import VectorGame

ROOT = Path(__file__).resolve().parents[1]


def started(config: str = "aoi(players=3)", seed: int = 7, moves: int = 5) -> Game:
    g = Game(config, seed=seed)
    for _ in range(moves):
        g.apply_action(g.legal_actions()[0])
    return g


# -- game config ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["factions", "boards", "automa"])
def test_a_list_parameter_of_none_is_its_default(name: str):
    assert GameConfig(players=2, **{name: None}) == GameConfig(players=2)


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"factions": 5}, "factions must be a list or a comma-separated string, got 5"),
        ({"boards": 3.0}, "boards must be a list or a comma-separated string"),
        # a set's order depends on PYTHONHASHSEED: the same seed would seat other factions elsewhere
        ({"factions": {"omar", "moles"}}, "factions must be a list or tuple, not a set"),
        ({"area_tokens": [12.9, 13.5]}, "area_tokens must be non-negative integers, got \\[12.9, 13.5\\]"),
        ({"area_tokens": [True]}, "area_tokens must be non-negative integers"),
        ({"area_tokens": [3_000_000_000]}, "at most 117 \\(an area size\\)"),  # OP-11: an int32 in the state
    ],
)
def test_list_parameters_of_the_wrong_kind_are_named(params: dict, message: str):
    with pytest.raises(ValueError, match=message):
        GameConfig(players=2, **params)


def test_area_tokens_as_a_game_string_still_parse():
    assert GameConfig.parse("aoi(players=2,area_tokens=12+14)").area_tokens == (12, 14)  # OP-11


@pytest.mark.parametrize("config", [3, {"players": 3}, b"aoi(players=3)"])
def test_game_config_must_be_a_config_or_a_game_string(config):
    with pytest.raises(ValueError, match="a game string such as 'aoi\\(players=3\\)'|must be a GameConfig"):
        Game(config)


def test_parse_of_a_non_string_is_a_clear_error():
    with pytest.raises(ValueError, match="a game string such as"):
        GameConfig.parse(None)  # type: ignore[arg-type]


# -- seeds ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1.7, 1.0, "1", True, None, -1])
def test_game_seed_is_a_non_negative_integer_not_a_silent_int(seed):
    with pytest.raises(ValueError, match=f"seed must be a non-negative integer, got {seed!r}"):
        Game("aoi(players=2)", seed=seed)


def test_a_numpy_integer_seed_is_the_same_game():
    a, b = Game("aoi(players=2)", seed=np.int64(5)), Game("aoi(players=2)", seed=5)
    assert a.state.to_bytes() == b.state.to_bytes()


@pytest.mark.parametrize("seed", [1.5, "7", -2])
def test_vector_and_agent_seeds_are_checked_too(seed):
    with pytest.raises(ValueError, match="seed must be a non-negative integer"):
        VectorGame("aoi(players=2)", n=1, seed=seed)
    for spec in ("random", "heuristic"):
        with pytest.raises(ValueError, match="seed must be a non-negative integer"):
            make_agent(spec, seed=seed)
    assert make_agent("random", seed=None).seed is None  # fresh entropy stays allowed


# -- actions -------------------------------------------------------------------------------------


@pytest.mark.parametrize("action", [250.0, np.float32(250), np.array(250), np.array([250]), 250 + 0j])
def test_move_str_has_the_type_rules_of_check_action(action):
    g = Game("aoi(players=2)", seed=0)
    assert 250 in g.legal_actions() and g.move_str(250) == "set desert"
    before = g.state.to_bytes()
    with pytest.raises(ValueError, match="action must be an integer id"):
        g.move_str(action)
    assert g.state.to_bytes() == before
    assert g.move_str(np.int64(250)) == "set desert"


def test_a_recorded_agent_answer_is_checked_not_truncated():
    from train.records import play_record

    class Sloppy:
        name = "sloppy"

        def choose(self, game: Game) -> float:
            return game.legal_actions()[0] + 0.9

        def act(self, observation, mask=None):  # pragma: no cover - not called
            raise NotImplementedError

    with pytest.raises(ValueError, match="action must be an integer id, got 250.9"):
        play_record("aoi(players=2)", [Sloppy(), "random"], seed=0)


def test_play_game_needs_an_agent_per_player_seat_only():
    """AUTOMA.md §1: the Automa plays inside the engine, so a solo game takes one agent."""
    scores = play_game(Game("aoi(players=1,automa=simpletons:1)", seed=2), [make_agent("random", seed=0)])
    assert len(scores) == 2
    assert (
        play_game(Game("aoi(players=1,automa=simpletons:1)", seed=2), [make_agent("random", seed=0), None]) == scores
    ).all()
    with pytest.raises(ValueError, match="need one agent per player seat: got 3 for 1"):
        play_game(Game("aoi(players=1,automa=simpletons:1)", seed=2), [make_agent("random")] * 3)


def test_the_human_prompt_asks_again_after_a_digit_int_cannot_read():
    lines = []
    human = HumanAgent(stream=io.StringIO("²\n0\n"), out=lines.append, show_board=False)
    g = Game("aoi(players=2)", seed=0)
    assert human.choose(g) == g.legal_actions()[0]


# -- saved states ----------------------------------------------------------------------------------


def test_a_saved_state_loads_under_its_own_config_only():
    g = started()
    blob = g.state.to_bytes()
    assert Game("aoi(players=3)", state=State.from_bytes(blob)).legal_actions() == g.legal_actions()
    with pytest.raises(ValueError, match="not a position on the 1-3 board side"):  # R5
        Game("aoi(players=3,map=1-3)", state=State.from_bytes(blob))
    with pytest.raises(ValueError, match="state must be an aoi_env State"):
        Game("aoi(players=3)", state=blob)  # type: ignore[arg-type]


def _edit(edit) -> State:
    s = started().state.clone()
    edit(s)
    return State.from_bytes(s.to_bytes())


def _top(s: State, field: int, value: int) -> None:
    s.stack[s.glob[G_DEPTH] - 1, field] = value


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda s: _top(s, 0, 999), "unknown kind 999"),
        (lambda s: _top(s, 0, -5), "unknown kind -5"),
        (lambda s: s.glob.__setitem__(G_DEPTH, 100), "depth 100"),
        (lambda s: s.glob.__setitem__(G_DEPTH, -1), "depth -1"),
        (lambda s: s.glob.__setitem__(G_DEPTH, 0), "not over but no player seat has a decision pending"),
        (lambda s: _top(s, 1, 7), "not over but no player seat has a decision pending"),
        (lambda s: s.glob.__setitem__(G_PHASE, 17), "its phase 17 is none of setup"),
        (lambda s: s.glob.__setitem__(G_NUM_BRIDGES, 99), "99 bridges on the map"),  # an invariant (R40)
    ],
)
def test_edited_state_bytes_are_not_a_valid_position(edit, message: str):
    with pytest.raises(ValueError, match=f"the state is not a valid position of aoi\\(players=3\\): .*{message}"):
        Game("aoi(players=3)", state=_edit(edit))


def test_state_json_and_bytes_name_what_is_wrong():
    state = started().state
    doc = json.loads(state.to_json())
    for schema in ("1", True):
        with pytest.raises(ValueError, match=f"state schema {schema!r} is not"):
            State.from_json(json.dumps({**doc, "schema": schema}))
    for data in (None, "text"):
        with pytest.raises(ValueError, match="state bytes must be bytes"):
            State.from_bytes(data)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="state JSON must be a string"):
        State.from_json(None)  # type: ignore[arg-type]


def test_a_hand_edited_record_field_fails_its_replay(tmp_path: Path):
    from train.records import ReplayError, load, play_record, replay, save

    rec = play_record("aoi(players=2)", ["random", "random"], seed=0)
    path = save(rec, tmp_path / "g.json")
    doc = json.loads(path.read_text())
    doc["factions"] = list(reversed(doc["factions"]))
    path.write_text(json.dumps(doc))
    with pytest.raises(ReplayError, match="the recorded factions .* differ from the replayed game's"):
        replay(load(path))


# -- the PettingZoo env ----------------------------------------------------------------------------


def test_an_unknown_agent_is_named():
    e = aoi_env.raw_env(num_players=1, automa="simpletons:2")
    e.reset(seed=0)
    for call in (e.observe, e.observation_space, e.action_space):
        with pytest.raises(ValueError, match="unknown agent 'player_1'; the agents are player_0"):
            call("player_1")  # the Automa seat is not an agent


def test_last_before_reset_is_the_documented_runtime_error():
    with pytest.raises(RuntimeError, match="call reset\\(\\) before using the environment"):
        aoi_env.raw_env(num_players=2).last()


def test_a_start_position_goes_on_by_its_own_config():
    g = Game("aoi(players=2,skip_forced=false)", seed=1)
    e = aoi_env.raw_env(num_players=2)
    e.reset(options={"game": g})
    assert e.unwrapped.game.config.skip_forced is False and e.config.skip_forced is True


# -- configs and the command line ------------------------------------------------------------------


def test_a_set_override_that_is_not_yaml_is_exit_2(capsys: pytest.CaptureFixture[str]):
    config = str(ROOT / "configs" / "quick.yaml")
    assert main(["train", "--config", config, "--set", "ppo.net_arch=[256, 128"]) == 2
    assert "bad override 'ppo.net_arch=[256, 128': the value is not YAML" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["train", "tournament", "balance"])
def test_a_yaml_number_key_next_to_an_unknown_key_is_exit_2(command: str, tmp_path: Path, capsys):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("1: x\nzzz: 2\n")
    assert main([command, "--config", str(cfg)]) == 2
    assert "unknown" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["tournament", "balance"])
def test_an_out_that_is_not_a_path_is_exit_2(command: str, tmp_path: Path, capsys):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("agents: [random, random]\nout: 5\n")
    assert main([command, "--config", str(cfg)]) == 2
    assert "bad value for 'out': 5" in capsys.readouterr().err


def test_replay_checks_its_svg_folder_before_replaying(tmp_path: Path, capsys):
    from train.records import play_record, save

    record = save(play_record("aoi(players=2)", ["random", "random"], seed=0), tmp_path / "g.json")
    assert main(["replay", str(record), "--svg", str(record)]) == 2
    captured = capsys.readouterr()
    assert f"--svg {record} is a file, not a folder" in captured.err and "replayed" not in captured.out


# -- from the twelfth session's audit of the public API -------------------------------------------


@pytest.mark.parametrize("name", ["ruleset", "map", "distribution", "setup_choices"])
def test_a_choice_parameter_must_be_a_string(name: str):
    """A one-element array passed the `in` test (numpy's ==) and made an unparsable game string."""
    value = {"ruleset": "v1.0", "map": "3-5", "distribution": "draft", "setup_choices": "random"}[name]
    with pytest.raises(ValueError, match=rf"{name} must be one of .*got array"):
        GameConfig(players=3, **{name: np.array([value])})
    with pytest.raises(ValueError, match="reward must be one of"):
        aoi_env.raw_env(num_players=2, reward=np.array(["rank"]))
    with pytest.raises(ValueError, match="render_mode must be None or one of"):
        aoi_env.raw_env(num_players=2, render_mode=np.array(["ansi"]))
    with pytest.raises(ValueError, match="reward must be one of"):
        VectorGame("aoi(players=2)", 2, reward=np.array(["rank", "win"]))


@pytest.mark.parametrize("spec", ["simpletons:²", "automa:²"])
def test_an_automa_level_of_a_non_ascii_digit_is_named(spec: str):
    """'²' is a digit to str.isdigit() but not to int(): 'Automa level must be 1..5', not int()'s text."""
    if spec.startswith("automa:"):
        with pytest.raises(ValueError, match="bad automa spec 'automa:²': expected automa:LEVEL"):
            make_agent(spec)
    else:
        with pytest.raises(ValueError, match="Automa level must be 1..5, got '²'"):
            GameConfig(players=1, automa=spec)


@pytest.mark.parametrize(("seat", "field"), [(0, "faction"), (1, "faction"), (1, "board")])
def test_a_state_with_a_field_out_of_range_does_not_load(seat: int, field: str):
    """An edited faction or board index is a ValueError naming it; it raised IndexError while the
    legal ids were computed, or loaded and crashed on a later move (seat 0's faction)."""
    from aoi_env.core.state import G_ROUND, P_BOARD, P_FACTION

    g = play_random(Game("aoi(players=2)", seed=0), np.random.default_rng(0), lambda g: int(g.state.glob[G_ROUND]) >= 1)
    edited = State.from_bytes(g.state.to_bytes())
    edited.players[seat, P_FACTION if field == "faction" else P_BOARD] = 99
    name = "faction" if field == "faction" else "planning board"
    with pytest.raises(ValueError, match=f"not a valid position .*seat {seat}: unknown {name} 99"):
        Game("aoi(players=2)", state=edited)


def test_a_step_by_an_agent_selection_set_to_no_agent_is_a_value_error():
    """``agent_selection`` set by hand to no live agent: a ValueError (it was a KeyError), nothing
    changes; observe / action_space of an unhashable agent name the agents (a TypeError before)."""
    e = aoi_env.raw_env(num_players=2)
    e.reset(seed=0)
    before = e.game.state.to_bytes()
    legal = e.game.legal_actions()[0]
    for bad in ("player_7", None, 3):
        e.agent_selection = bad
        with pytest.raises(ValueError, match="none of the live agents"):
            e.step(legal)
    assert e.game.state.to_bytes() == before
    with pytest.raises(ValueError, match="unknown agent"):
        e.observe(["player_0"])
    with pytest.raises(ValueError, match="unknown agent"):
        e.action_space(["player_0"])


def test_a_rejected_reset_keeps_the_generator():
    """A start position of the wrong size is refused before ``np_random`` is re-seeded: the next
    unseeded reset plays the game it would have played without the failed call."""
    e, other = aoi_env.raw_env(num_players=3), aoi_env.raw_env(num_players=3)
    e.reset(seed=5)
    other.reset(seed=5)
    with pytest.raises(ValueError, match="options\\['game'\\] has 2 players"):
        e.reset(seed=99, options={"game": Game("aoi(players=2)")})
    e.reset()
    other.reset()
    assert e.game.state.to_bytes() == other.game.state.to_bytes()


def test_a_vector_batch_with_a_bool_is_rejected_whole():
    """[False, 2] became int64 [0, 2] and game 0 played id 0; a bool is no action id (as for
    ``Game.check_action``), and no game changes."""
    vec = VectorGame("aoi(players=2)", 2, seed=0)
    before = [g.state.to_bytes() for g in vec.games]
    second = vec.games[1].legal_actions()[0]
    with pytest.raises(ValueError, match="game 0: action must be an integer id, got False"):
        vec.step([False, second])
    assert [g.state.to_bytes() for g in vec.games] == before


@pytest.mark.parametrize("seed", [1.9, True, "3", None, float("inf")])
def test_play_record_checks_its_seed(seed):
    """1.9 was played as seed 1 and recorded as 1.9; None / inf / 'x' gave int()'s errors."""
    from train.records import play_record

    with pytest.raises(ValueError, match="seed must be a non-negative integer"):
        play_record("aoi(players=2)", ["random", "random"], seed=seed)
    with pytest.raises(ValueError, match="one agent seed per player: got 1 for 2 players"):
        play_record("aoi(players=2)", ["random", "random"], seed=0, agent_seeds=[1])


@pytest.mark.parametrize("players", [[], {}, [2.9], [True], "3"])
def test_balance_player_counts_are_a_list_of_integers(players):
    """``players: []`` made the output folder and then an IndexError; 2.9 played 2-player games."""
    from train.balance import BalanceConfig

    with pytest.raises(ValueError, match="players must be"):
        BalanceConfig(players=players)


def test_balance_player_count_may_be_one_numpy_integer():
    """One count is a list of one, whatever its integer type (``is_integer``; np.int64(3) was refused)."""
    from train.balance import BalanceConfig

    assert BalanceConfig(players=np.int64(3)).players == [3]
    assert type(BalanceConfig(players=[np.int64(4)]).players[0]) is int


@pytest.mark.parametrize("text", ["[]\n", "0\n", "false\n"])
def test_a_config_file_that_is_no_mapping_is_named(text: str, tmp_path: Path):
    """A file holding [] / 0 / false was read as an empty config (``or {}``); an empty file still is."""
    from train.config import load_yaml

    path = tmp_path / "c.yaml"
    path.write_text(text)
    with pytest.raises(ValueError, match="expected a mapping of settings"):
        load_yaml(str(path))
    path.write_text("")
    assert load_yaml(str(path)) == {}


@pytest.mark.parametrize(
    ("config", "edit", "message"),
    [
        (
            "aoi(players=2)",
            lambda s, g: s.glob.__setitem__(G_ROUND_TILES.start + 2, 40),
            "round tile 40 outside -1..11",
        ),
        ("aoi(players=2)", lambda s, g: s.glob.__setitem__(G_BOOK_ACTIONS.start, 9), "book action 9 outside -1..5"),
        ("aoi(players=3)", lambda s, g: s.players.__setitem__((1, P_BONUS), 12), "bonus tile held 12 outside -1..9"),
        (
            "aoi(players=3)",
            lambda s, g: s.hexes.__setitem__((int(np.flatnonzero(g.geo.terrain < 7)[0]), 0), -1),
            "terrain of a land hex -1 outside 0..6",
        ),  # fmt: skip
        (
            "aoi(players=1,automa=simpletons:3)",
            lambda s, g: automa.record(g, 1).__setitem__(automa.A_DECK.start, 99),
            "Automa seat 1: unknown card 99 in her deck",
        ),  # fmt: skip
    ],
)
def test_an_id_field_out_of_range_is_named_when_loading(config: str, edit, message: str):
    """Fields that index a table (tiles, cards, terrains, seats) are checked on loading: such a
    state loaded and then failed deep in the engine (IndexError / KeyError) on a later move."""

    g = Game(config, seed=0)
    rng = np.random.default_rng(0)
    for _ in range(40):
        g.apply_action(random_action(g, rng))
    edit(g.state, g)
    with pytest.raises(ValueError, match=f"not a valid position .*{message}"):
        Game(config, state=State.from_bytes(g.state.to_bytes()))


@pytest.mark.parametrize("observer", ["x", True, 1.0, None])
def test_an_observer_that_is_no_seat_number_is_named(observer):
    """encode(g, 'x') was a TypeError from the comparison; numpy integers stay seats."""
    from aoi_env.observation import ObservationEncoder

    g = Game("aoi(players=2)", seed=0)
    with pytest.raises(ValueError, match="observer must be a seat number"):
        ObservationEncoder().encode(g, observer)
    with pytest.raises(ValueError, match="observer must be a seat number"):
        ObservationEncoder().encode_into(np.zeros(ObservationEncoder().encode(g, 0).shape, np.float32), g, observer)
    assert ObservationEncoder().encode(g, np.int64(1)).shape == ObservationEncoder().encode(g, 1).shape


def test_resample_needs_a_generator():
    """hidden.resample(g, None) was an AttributeError deep inside."""
    from aoi_env.core import hidden

    with pytest.raises(ValueError, match="rng must be a numpy Generator"):
        hidden.resample(Game("aoi(players=2)", seed=0), None)


def _at(config: str, phase: str) -> Game:
    """A game of ``config`` at its first decision ("setup") or at its first action ("actions")."""
    g = Game(config, seed=0)
    if phase == "actions":
        play_random(g, np.random.default_rng(0), lambda g: g.state.glob[G_PHASE] == Phase.ACTIONS)
    return g


def _off_the_display(g: Game) -> None:
    tiles = g.state.glob[G_BONUS_STATE]
    tiles[tiles == -1] = -2  # out of the game (R15.6)


def _stale_row_below(g: Game) -> None:
    """A deeper stack: an earlier turn's row (POST) below the pending setup decision."""
    s = g.state
    depth = int(s.glob[G_DEPTH])
    s.stack[depth] = s.stack[depth - 1]
    s.stack[depth - 1] = 0
    s.stack[depth - 1, 0] = Kind.POST
    s.glob[G_DEPTH] = depth + 1


def _row_below(kind: Kind, *params: int) -> Callable[[Game], None]:
    """A pending row of ``kind`` with these parameters slipped under the pending decision."""

    def edit(g: Game) -> None:
        s = g.state
        depth = int(s.glob[G_DEPTH])
        s.stack[depth] = s.stack[depth - 1]
        s.stack[depth - 1] = 0
        s.stack[depth - 1, :2] = (kind, g.current_seat())
        s.stack[depth - 1, 2 : 2 + len(params)] = params
        s.glob[G_DEPTH] = depth + 1

    return edit


def _innovation_twice(g: Game) -> None:
    """The same innovation on two display spaces (it would be offered twice, R20)."""
    spaces = g.state.glob[G_INNOV_SPACES]
    spaces[1] = spaces[0]


def _innovation_off_the_display(g: Game) -> None:
    """An available innovation (owner -1) that lies on no space (it could never be taken)."""
    owner = g.state.glob[G_INNOV_OWNER]
    owner[int(np.flatnonzero(owner == -2)[0])] = -1


def _innovation_out_but_shown(g: Game) -> None:
    """A tile on a display space marked out of the game (the old ``Scenario.display_innovations``)."""
    g.state.glob[G_INNOV_OWNER.start + int(g.state.glob[G_INNOV_SPACES][0])] = -2


def _at_phase(config: str, phase: int) -> Game:
    """The first decision of ``phase`` in a random game of ``config`` (Phase I / III decide rarely)."""
    for seed in range(200):
        g = play_random(Game(config, seed=seed), np.random.default_rng(seed), lambda g: g.state.glob[G_PHASE] == phase)
        if not g.is_over():
            return g
    raise AssertionError(f"no decision in phase {phase}")


def _repeat_first(field: slice) -> Callable[[Game], None]:
    """Copy a pool's first entry onto its second (one tile offered twice)."""
    return lambda g: g.state.glob.__setitem__(field.start + 1, g.state.glob[field.start])


def _turn_after_passing(g: Game) -> None:
    """The seat whose main action is pending is marked passed (and in the passing order)."""
    seat = g.current_seat()
    g.state.players[seat, P_PASSED] = 1
    count = int(g.state.glob[G_NEXT_COUNT])
    g.state.glob[G_NEXT_ORDER.start + count] = seat
    g.state.glob[G_NEXT_COUNT] = count + 1


def _palace_tile_without_a_palace(g: Game) -> None:
    tile = int(np.flatnonzero(g.state.glob[G_PALACE_STATE] == -1)[0])
    g.state.glob[G_PALACE_STATE.start + tile] = 0
    g.state.players[0, P_PALACE_TILE] = tile


def _automa_card_twice(g: Game) -> None:
    rec = automa.record(g, 1)
    rec[automa.A_DECK.start + 1] = rec[automa.A_DECK.start]


def _set(array: np.ndarray, index, value: int):
    return lambda g: array(g).__setitem__(index, value)


@pytest.mark.parametrize(
    ("config", "phase", "edit", "message"),
    [
        ("aoi(players=3)", "actions", _set(lambda g: g.state.players, (0, P_BOARD), -5), "unknown planning board -5"),
        ("aoi(players=3)", "setup", _set(lambda g: g.state.players, (1, P_TERRAFORMING), 5),
         "seat 1: sailing / terraforming 0 / 5 without a planning board"),
        ("aoi(players=3)", "actions", _set(lambda g: g.state.players, (0, P_CITIES), 2**31 - 1),
         "seat 0: field .* is 2147483647, beyond any game"),
        ("aoi(players=1,automa=simpletons:3)", "actions", lambda g: automa.record(g, 1).__setitem__(automa.A_LEVEL, 9),
         "Automa seat 1: level 9, .* the config says simpletons:3"),
        ("aoi(players=3,distribution=draft)", "setup",
         lambda g: g.state.players.__setitem__((2, P_FACTION), int(g.state.glob[G_DRAFT_FACTIONS][0])),
         "factions .* held by the seats, .* on offer: one is in two places"),
        ("aoi(players=3,distribution=draft)", "setup", _set(lambda g: g.state.players, (2, P_DRAFT_PALACE), 3),
         "seat 2 has 3 draft picks left and lacks 2 components"),
        ("aoi(players=3)", "setup", lambda g: g.state.glob.__setitem__(G_BUNDLE_FACTION, -1),
         r"seats \[.*\] still take a set, 0 on offer"),
        ("aoi(players=1,automa=simpletons:3)", "setup", lambda g: g.state.glob.__setitem__(G_SETUP_STEP, 3),
         "a solo_pick decision waits at setup step 3"),
        ("aoi(players=3)", "actions", lambda g: g.state.glob.__setitem__(G_SETUP_STEP, 2), "setup step 2 in phase"),
        ("aoi(players=3)", "actions", lambda g: g.state.glob.__setitem__(G_COMP_SPACES, 0),
         "competency display .* not each of the 12 tiles once"),
        ("aoi(players=3)", "actions", lambda g: g.state.glob.__setitem__(G_SEED, -1), "seed -1 outside 0.."),
        ("aoi(players=3)", "actions", _off_the_display, "no round bonus tile on the display for a player who passes"),
        ("aoi(players=3)", "setup", _stale_row_below, "a post entry is pending in phase setup"),
        ("aoi(players=3)", "actions", _innovation_twice, r"an innovation lies on two display spaces"),
        ("aoi(players=3)", "actions", _innovation_off_the_display, "available but on no display space"),
        ("aoi(players=3)", "actions", _innovation_out_but_shown, "out of the game but on a display space"),
        ("aoi(players=3)", "actions", _repeat_first(G_BOOK_ACTIONS), "book actions .* not 3 different tiles"),
        ("aoi(players=3,distribution=draft)", "setup", _repeat_first(G_DRAFT_FACTIONS), "faction pool .* twice"),
        ("aoi(players=3,distribution=draft)", "setup", _repeat_first(G_DRAFT_PALACES), "palace tile pool .* twice"),
        ("aoi(players=3)", "setup", _repeat_first(G_BUNDLE_FACTION), "set faction pool .* twice"),
        ("aoi(players=3)", "setup", _repeat_first(G_BUNDLE_BONUS), "sets on offer hold the bonus"),
        ("aoi(players=3)", "setup", _set(lambda g: g.state.glob, G_BUNDLE_BONUS.start, -1), "one missing or twice"),
        ("aoi(players=3)", "actions", _turn_after_passing, "takes a turn after passing"),
        ("aoi(players=3)", "actions", _palace_tile_without_a_palace, "holds palace tile .* without a Palace"),
        ("aoi(players=3)", "actions", _set(lambda g: g.state.players, (1, P_BOARD), -1),
         "seat 1: no faction or planning board after the setup"),
        ("aoi(players=3)", "actions", _repeat_first(G_BONUS_ROW), "bonus row .* is not the display's tiles"),
        ("aoi(players=1,automa=simpletons:3)", "actions", _repeat_first(G_BONUS_ROW), "is not the display's tiles"),
        ("aoi(players=1,automa=simpletons:3)", "actions", _automa_card_twice, "Automa seat 1: .* not each card once"),
        ("aoi(players=3)", "actions", _row_below(Kind.GAIN, SRC_BOOK, 99, PART_EFFECT, 1), "no component 99 of"),
        ("aoi(players=3)", "actions", _row_below(Kind.GAIN, 42, 2, PART_EFFECT, 1), "no component 2 of source 42"),
        ("aoi(players=3)", "actions", _row_below(Kind.GAIN, SRC_BOOK, 2, PART_EFFECT, -3), "multiplier -3 outside"),
        ("aoi(players=3)", "actions", _row_below(Kind.PALACE_EFFECT, 40), r"palace tile 40 outside -1\.\.16"),
        ("aoi(players=3)", "actions", _row_below(Kind.INNOVATION_EFFECT, -2), "innovation -2 outside"),
        ("aoi(players=3)", "actions", _row_below(Kind.OFFER, -4, 1), r"\(offer\): power offered -4 outside"),
        ("aoi(players=3)", "actions", _row_below(Kind.OFFER, 2, 7), r"\(offer\): builder 7 outside 0\.\.2"),
        ("aoi(players=3)", "actions", _row_below(Kind.USE_KEY, 4, 1), "discipline 4 outside 0..3"),
        ("aoi(players=3)", "actions", _row_below(Kind.UPGRADE_TARGET, 2, 9), "source 9 outside 0..2"),
        ("aoi(players=3)", "actions", _row_below(Kind.TB_FINISH, 1, 0, 500), "hex 500 outside 0..116"),
    ],
)  # fmt: skip
def test_a_state_that_would_fail_later_is_refused_when_loading(config: str, phase: str, edit, message: str):
    """Thirteenth-session checks, each from a byte-mutated state that loaded and then failed moves
    later (IndexError on a planning board or an Automa level, OverflowError on a score, KeyError,
    or a decision without a legal move: a draft pick of a kind already held, a set when none is
    left, a setup stage skipped, a competency missing from the display, a pass with no bonus
    tile to take, a negative seed for the random setup choices)."""
    g = _at(config, phase)
    edit(g)
    with pytest.raises(ValueError, match=f"not a valid position .*{message}"):
        Game(config, state=State.from_bytes(g.state.to_bytes()))


@pytest.mark.parametrize(
    ("phase", "edit", "message"),
    [
        (Phase.INCOME, _set(lambda g: g.state.players, (0, P_PASSED), 1), "passed, .* before the round's actions"),
        (Phase.SCIENCE, _set(lambda g: g.state.glob, G_NEXT_ORDER.start + 1, -1), "after the actions is not every"),
    ],
)  # fmt: skip
def test_passing_outside_the_actions_phase_is_refused_when_loading(phase: int, edit, message: str):
    """Fifteenth-session audit: a seat marked passed in Phase I skipped its whole Phase II, and a
    passing order that misses a seat in Phase III left that seat without a turn next round."""
    g = _at_phase("aoi(players=3)", phase)
    assert not violations(g)
    edit(g)
    with pytest.raises(ValueError, match=f"not a valid position .*{message}"):
        Game("aoi(players=3)", state=State.from_bytes(g.state.to_bytes()))


def _main_to_the_next_seat(g: Game) -> None:
    """The pending main action handed to the next seat without its turn (END_TURN stays)."""
    g.state.stack[int(g.state.glob[G_DEPTH]) - 1, 1] = (g.current_seat() + 1) % g.seats


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (_row_below(Kind.MAIN, 0), r"row 1 \(main\) is not the top row"),
        (_row_below(Kind.END_TURN), r"row 1 \(end_turn\) above a end_turn row"),
        (_row_below(Kind.END_ACTION), r"row 2 \(main\) above a end_action row"),
        (_row_below(Kind.PASS_BONUS), r"row 1 \(pass_bonus\) above a end_turn row"),
        (_row_below(Kind.AUTOMA_STEP, 1, 0, 0, 0), r"row 2 \(main\) above a automa_step row"),
        (_main_to_the_next_seat, r"row 1 \(main\) of seat \d above seat \d's end_turn"),
    ],
)  # fmt: skip
def test_a_turn_row_left_in_the_wrong_place_is_refused_when_loading(edit, message: str):
    """Fifteenth-session gap (docs/reliability.md): a well-formed row of the right phase left in
    the wrong place loaded, e.g. a second MAIN under the pending one, which gave the player a
    second main action in one turn (R58).  A turn's entries sit where their pushes put them:
    END_TURN at the bottom, MAIN / POST / END_ACTION right above it and of its seat, a pass's
    bonus tile above END_ACTION (R78), the Automa's steps above her END_TURN."""
    g = _at("aoi(players=3)", "actions")
    assert not violations(g)
    edit(g)
    with pytest.raises(ValueError, match=f"not a valid position .*{message}"):
        Game("aoi(players=3)", state=State.from_bytes(g.state.to_bytes()))


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: GameConfig.from_params([1]), "game parameters must be a dict of name: value, got list"),
        (lambda: GameConfig.from_params("players=3"), "game parameters must be a dict of name: value, got str"),
        (lambda: State.from_json("["), r"state JSON is not valid JSON \(State.to_json\(\)\)"),
        (lambda: State.from_json(b"\xff"), r"state JSON is not valid JSON"),
    ],
)
def test_parameters_and_state_json_of_the_wrong_shape_are_named(call, message: str):
    """A list as game parameters was a TypeError from ``dict()``; broken state JSON was a bare
    JSONDecodeError that did not say what was being read."""
    with pytest.raises(ValueError, match=message):
        call()


def test_an_unknown_event_in_the_tables_is_a_data_error_not_an_assert(monkeypatch):
    """The event check of the tables holds under ``python -O`` too (it was an ``assert``)."""
    from aoi_env.core import tables as tables_module
    from aoi_env.data import DataError, load

    row = load().round_tiles[0]
    monkeypatch.setitem(row, "events", {**row["events"], "juggle": {"vp": 1}})
    tables_module.tables.cache_clear()
    try:
        with pytest.raises(DataError, match=r"unknown event\(s\) \['juggle'\]"):
            tables_module.tables("v1.2", 3)
    finally:
        monkeypatch.undo()
        tables_module.tables.cache_clear()
