"""Game records and ``aoi replay`` (issue 8 item 1): play -> save -> load -> replay reproduces the
game exactly, and a record that does not reproduce fails naming the move."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from agents import make_agent
from aoi_env.cli import main
from aoi_env.core.moves import ACTION_SCHEMA_VERSION
from aoi_env.core.state import G_DECISIONS, STATE_SCHEMA_VERSION
from train.records import (
    ENV_ID,
    GameRecord,
    ReplayError,
    load,
    play,
    play_record,
    ranks_from_scores,
    replay,
    save,
)


@pytest.fixture(scope="module")
def played() -> tuple[GameRecord, bytes, int]:
    """One 3-player random game: its record, final state bytes and engine decision count."""
    rec, game = play("aoi(players=3)", ["random", "random", "random"], seed=11)
    return rec, game.state.to_bytes(), int(game.state.glob[G_DECISIONS])


def test_record_round_trip_reproduces_scores_and_state_bytes(played, tmp_path: Path):
    """play -> save -> load -> replay (notation strings through Game.apply_move) gives the same
    final scores and byte-identical final state."""
    rec, state_bytes, _ = played
    path = save(rec, tmp_path / "game.json")
    loaded = load(path)
    assert loaded == rec
    game = replay(loaded)
    assert [int(v) for v in game.scores()] == rec.scores
    assert game.state.to_bytes() == state_bytes


def test_record_holds_versions_seats_and_one_move_per_agent_decision(played):
    """The record names the env, the schema versions, the game string and seed; moves, action ids
    and deciding seats line up; forced decisions the engine applied itself are not in it."""
    rec, _, engine_decisions = played
    assert rec.env_id == ENV_ID == "aoi/age_of_innovation-v0"
    assert rec.versions["action_schema"] == ACTION_SCHEMA_VERSION
    assert rec.versions["state_schema"] == STATE_SCHEMA_VERSION
    assert rec.game == "aoi(players=3)" and rec.seed == 11
    assert rec.agents == ["random", "random", "random"] and len(rec.agent_seeds) == 3
    assert len(rec.moves) == len(rec.actions) == len(rec.move_seats) > 0
    assert set(rec.move_seats) == {0, 1, 2}
    # skip_forced=true (default): the engine applied the single-move decisions, so the engine's
    # counter is larger than the number of recorded agent decisions
    assert engine_decisions > len(rec.moves)
    assert len(rec.factions) == len(rec.boards) == 3 and "-" not in rec.factions + rec.boards


def test_record_without_skip_forced_has_every_decision():
    """With skip_forced=false every decision is the agents' (none applied by the engine)."""
    rec, game = play("aoi(players=2,skip_forced=false)", ["random", "random"], seed=3)
    assert len(rec.moves) == int(game.state.glob[G_DECISIONS])
    assert [int(v) for v in replay(rec).scores()] == rec.scores


def test_r82_r85_record_breakdown_adds_up_to_the_final_vp(played):
    """R82-R85: final scoring adds area + science + resources VP (+ an Automa's faction bonus); the
    record keeps the parts, and VP before final scoring + the parts = the final VP for every seat."""
    rec, _, _ = played
    b = rec.breakdown
    for seat in range(3):
        total = b["before_final"][seat] + b["area"][seat] + b["science"][seat] + b["resources"][seat]
        assert b["faction"][seat] == 0  # no Automa at this table
        assert total == rec.scores[seat]
    assert sorted(b) == ["area", "area_size", "before_final", "faction", "resources", "science"]


def test_record_of_an_automa_game_has_agents_for_the_player_seats_only():
    """AUTOMA.md §3.1: Automa seats come after the players and never decide; the record has one
    agent per player seat, a score per seat, and replays."""
    rec = play_record("aoi(players=1,automa=simpletons:3)", ["random"], seed=2)
    assert rec.agents == ["random"] and set(rec.move_seats) == {0}
    assert len(rec.scores) == 2 and rec.factions[1] == "automa:simpletons"
    assert [int(v) for v in replay(rec).scores()] == rec.scores


def test_record_accepts_agent_objects_and_records_their_names():
    rec = play_record("aoi(players=2)", [make_agent("random", seed=1), "random"], seed=5)
    assert rec.agents == ["random", "random"]
    assert rec.agent_seeds[1] is not None


def test_ranks_from_scores_share_the_better_rank():
    # 80 is alone on top (rank 1); the two 70s share rank 2
    assert ranks_from_scores([70, 80, 70]) == [2, 1, 2]


def test_replay_of_a_changed_move_names_the_move_number(played):
    """A different legal move at move 5 is caught at move 5 (its action id is not the recorded one)."""
    rec, _, _ = played
    bad = GameRecord.from_dict(json.loads(json.dumps(rec.to_dict())))
    probe = replay_prefix(bad, 4)
    other = next(m for m in probe.legal_moves() if m != bad.moves[4])
    bad.moves[4] = other
    with pytest.raises(ReplayError, match=rf"move 5 of {len(rec.moves)} \('{other}'\)"):
        replay(bad)


def test_replay_of_an_illegal_move_names_the_move(played):
    rec, _, _ = played
    bad = GameRecord.from_dict(rec.to_dict() | {"moves": [*rec.moves[:6], "fly to the moon", *rec.moves[7:]]})
    with pytest.raises(ReplayError, match=r"move 7 of \d+ \('fly to the moon'\).*is not legal"):
        replay(bad)


def test_replay_with_other_final_scores_fails(played):
    rec, _, _ = played
    bad = GameRecord.from_dict(rec.to_dict() | {"scores": [rec.scores[0] + 1, *rec.scores[1:]]})
    with pytest.raises(ReplayError, match="final scores differ"):
        replay(bad)


def test_replay_of_a_truncated_record_fails(played):
    rec, _, _ = played
    short = {k: getattr(rec, k)[:-1] for k in ("moves", "actions", "move_seats")}
    bad = GameRecord.from_dict(rec.to_dict() | short)
    with pytest.raises(ReplayError, match="not over"):
        replay(bad)


def test_load_rejects_a_file_that_is_not_a_record(tmp_path: Path):
    path = tmp_path / "x.json"
    path.write_text('{"hello": 1}')
    with pytest.raises(ValueError, match="not a game record"):
        load(path)
    with pytest.raises(ValueError, match="cannot read"):
        load(tmp_path / "missing.json")


MALFORMED: dict[str, tuple[Callable[[dict[str, Any]], dict[str, Any] | bytes], str]] = {
    # case: (the file written from the record's JSON object: a changed object or raw bytes, the message)
    "seed_str": (lambda d: d | {"seed": "abc"}, r"field 'seed' must be an integer, got str 'abc'"),
    "seed_null": (lambda d: d | {"seed": None}, r"field 'seed' must be an integer, got null"),
    "seed_bool": (lambda d: d | {"seed": True}, r"field 'seed' must be an integer, got bool"),
    "seed_negative": (lambda d: d | {"seed": -1}, r"field 'seed' must be a non-negative integer, got int -1"),
    "game_int": (lambda d: d | {"game": 3}, r"field 'game' must be a string, got int 3"),
    "game_bad": (lambda d: d | {"game": "aoi(players=9)"}, r"recorded game 'aoi\(players=9\)'"),
    "moves_str": (lambda d: d | {"moves": "build"}, r"field 'moves' must be a list of strings, got str"),
    "moves_null": (lambda d: d | {"moves": None}, r"field 'moves' must be a list of strings, got null"),
    "moves_int_item": (
        lambda d: d | {"moves": [*d["moves"][:5], 42, *d["moves"][6:]]},
        r"field 'moves' must be a list of strings, got int 42 at index 5",
    ),
    "scores_str": (lambda d: d | {"scores": ["a", "b"]}, r"field 'scores' must be a list of integers"),
    "scores_null": (lambda d: d | {"scores": None}, r"field 'scores' must be a list of integers, got null"),
    "scores_short": (lambda d: d | {"scores": [1]}, r"final scores differ"),
    "versions_list": (lambda d: d | {"versions": [1]}, r"field 'versions' must be a JSON object, got list"),
    "versions_str": (lambda d: d | {"versions": "x"}, r"field 'versions' must be a JSON object, got str"),
    "versions_empty": (lambda d: d | {"versions": {}}, r"field 'versions' lacks 'package'"),
    "versions_no_state": (
        lambda d: d | {"versions": {k: v for k, v in d["versions"].items() if k != "state_schema"}},
        r"field 'versions' lacks 'state_schema'",
    ),
    "versions_str_schema": (
        lambda d: d | {"versions": d["versions"] | {"action_schema": "1"}},
        r"field 'versions.action_schema' must be an integer, got str '1'",
    ),
    "versions_format": (
        lambda d: d | {"versions": d["versions"] | {"record_format": 99}},
        r"record format 99 cannot be read by this version",
    ),
    "breakdown_list": (lambda d: d | {"breakdown": []}, r"field 'breakdown' must be a JSON object"),
    "actions_str": (lambda d: d | {"actions": "x"}, r"field 'actions' must be a list of integers, got str"),
    "actions_longer": (lambda d: d | {"actions": [*d["actions"], 5]}, r"field 'actions' must be one entry per move"),
    "move_seats_str": (
        lambda d: d | {"move_seats": ["0", *d["move_seats"][1:]]},
        r"field 'move_seats' must be a list of integers, got str '0' at index 0",
    ),
    "move_seats_short": (lambda d: d | {"move_seats": d["move_seats"][:3]}, r"field 'move_seats' must be one entry"),
    "extra_move": (lambda d: d | {"moves": [*d["moves"], "pass"]}, r"field 'actions' must be one entry per move"),
    "agents_null": (lambda d: d | {"agents": None}, r"field 'agents' must be a list of strings, got null"),
    "agents_short": (lambda d: d | {"agents": ["random"]}, r"the record's agents has 1 entries for 3 players"),
    "agent_seeds_long": (lambda d: d | {"agent_seeds": [1, 2, 3, 4]}, r"agent_seeds has 4 entries for 3 players"),
    "agents_int_item": (lambda d: d | {"agents": ["random", 1, "random"]}, r"field 'agents' .* got int 1 at index 1"),
    "sha_bad": (lambda d: d | {"final_state_sha256": "00"}, r"final state differs"),
    "unknown_field": (lambda d: d | {"foo": 1}, r"unknown field 'foo'"),
    "missing": (lambda d: {k: v for k, v in d.items() if k != "moves"}, r"not a game record, missing moves"),
    "list_top": (lambda d: b"[1,2]", r"must be a JSON object, got list"),
    "empty": (lambda d: b"", r"not a UTF-8 JSON game record"),
    "nonutf8": (lambda d: b"\xff\xfe{", r"not a UTF-8 JSON game record"),
    "nested_too_deep": (lambda d: b"[" * 100_000 + b"]" * 100_000, r"bad\.json: not a UTF-8 JSON game record"),
    "seed_of_5000_digits": (lambda d: b'{"seed": ' + b"7" * 5000 + b"}", r"bad\.json: not a UTF-8 JSON game record"),
}


def test_a_negative_seed_is_refused_when_the_record_is_read(played, tmp_path: Path):
    """``Game`` refuses a negative seed; ``load`` says so naming the field, before any replay."""
    rec, _, _ = played
    path = tmp_path / "neg.json"
    path.write_text(json.dumps(rec.to_dict() | {"seed": -1}))
    with pytest.raises(ValueError, match=r"neg\.json: field 'seed' must be a non-negative integer, got int -1"):
        load(path)


@pytest.mark.parametrize("case", MALFORMED, ids=list(MALFORMED))
def test_malformed_record_is_a_value_error_naming_the_problem(played, tmp_path: Path, case: str):
    """A record file with a field of the wrong type or length, or not a UTF-8 JSON object, fails
    with a ValueError naming the field (load) or the difference (replay), never a TypeError."""
    rec, _, _ = played
    change, message = MALFORMED[case]
    body = change(json.loads(json.dumps(rec.to_dict())))
    path = tmp_path / "bad.json"
    path.write_bytes(body if isinstance(body, bytes) else json.dumps(body).encode())
    with pytest.raises(ValueError, match=message):
        replay(load(path))


def test_null_or_empty_actions_and_move_seats_mean_not_recorded(played, tmp_path: Path):
    """``actions`` / ``move_seats`` may be empty or null (not recorded, not checked on replay)."""
    rec, _, _ = played
    for value in (None, []):
        path = tmp_path / "g.json"
        path.write_text(json.dumps(rec.to_dict() | {"actions": value, "move_seats": value}))
        loaded = load(path)
        assert loaded.actions == loaded.move_seats == []
        assert [int(v) for v in replay(loaded).scores()] == rec.scores


def replay_prefix(rec: GameRecord, n: int):
    """The game after the first ``n`` recorded moves."""
    from aoi_env.core.engine import Game

    g = Game(rec.game, seed=rec.seed)
    for move in rec.moves[:n]:
        g.apply_move(move)
    return g


# -- aoi replay ---------------------------------------------------------------------------------


def test_cli_replay_prints_a_frame_per_move(played, tmp_path: Path, capsys):
    rec, _, _ = played
    path = save(rec, tmp_path / "g.json")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    # one "==" header for the start and one per recorded move
    assert out.count("\n== ") + out.startswith("== ") == len(rec.moves) + 1
    assert f"== move 1/{len(rec.moves)}: seat {rec.move_seats[0]} {rec.moves[0]}" in out
    assert f"replayed {len(rec.moves)} moves of aoi(players=3) seed 11" in out


def test_cli_replay_final_prints_only_the_end(played, tmp_path: Path, capsys):
    rec, _, _ = played
    path = save(rec, tmp_path / "g.json")
    assert main(["replay", str(path), "--final"]) == 0
    out = capsys.readouterr().out
    assert "== " not in out
    assert out.startswith("aoi(players=3)  round 6, phase over, game over")
    assert f"seat 0 (random): {rec.scores[0]}" in out


def test_cli_replay_writes_svg_frames_and_an_html_slider(played, tmp_path: Path, capsys):
    rec, _, _ = played
    path = save(rec, tmp_path / "g.json")
    page = tmp_path / "out" / "game.html"
    assert main(["replay", str(path), "--final", "--svg", str(tmp_path / "svg"), "--html", str(page)]) == 0
    frames = sorted((tmp_path / "svg").glob("frame_*.svg"))
    assert len(frames) == len(rec.moves) + 1  # the start + one per move
    assert frames[0].read_text().startswith("<svg")
    text = page.read_text()
    assert f'<input id="slider" type="range" min="0" max="{len(rec.moves)}"' in text
    assert text.count("<svg") == len(rec.moves) + 1


def test_cli_replay_svg_into_the_folder_of_a_longer_replay_removes_its_extra_frames(played, tmp_path: Path, capsys):
    """The folder shows one game: frames of an earlier, longer replay beyond this one's are
    removed (other files are left alone)."""
    rec, _, _ = played
    path = save(rec, tmp_path / "g.json")
    folder = tmp_path / "svg"
    folder.mkdir()
    extra = len(rec.moves) + 1
    for i in (extra, extra + 7):
        (folder / f"frame_{i:04d}.svg").write_text("<svg/>")
    (folder / "notes.txt").write_text("mine")
    (folder / "frame_\u00b2\u00b2.svg").write_text("<svg/>")  # '²' is a digit to str.isdigit, not a frame number
    assert main(["replay", str(path), "--final", "--svg", str(folder)]) == 0
    assert len(list(folder.glob("frame_[0-9]*.svg"))) == len(rec.moves) + 1
    assert (folder / "notes.txt").read_text() == "mine" and (folder / "frame_\u00b2\u00b2.svg").exists()
    assert "removed 2 frames of an earlier replay" in capsys.readouterr().out


def test_cli_replay_of_a_malformed_record_exits_2_with_one_line(played, tmp_path: Path, capsys):
    rec, _, _ = played
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(rec.to_dict() | {"game": 3}))
    assert main(["replay", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"aoi replay: error: {path}: field 'game' must be a string, got int 3\n"


def test_cli_replay_of_a_bad_record_exits_2_naming_the_move(played, tmp_path: Path, capsys):
    rec, _, _ = played
    bad = GameRecord.from_dict(rec.to_dict() | {"moves": [*rec.moves[:2], "pass pass", *rec.moves[3:]]})
    path = save(bad, tmp_path / "bad.json")
    assert main(["replay", str(path), "--final"]) == 2
    err = capsys.readouterr().err
    assert "aoi replay: error: replay diverged at move 3 of" in err and "'pass pass'" in err


def test_cli_replay_into_a_folder_exits_2_before_replaying(played, tmp_path: Path, capsys):
    """``--html`` naming a folder is refused before the replay, in one line naming the option."""
    rec, _, _ = played
    path = save(rec, tmp_path / "g.json")
    assert main(["replay", str(path), "--html", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == f"aoi replay: error: --html {tmp_path} is a folder, not a file\n"


def test_replay_shows_the_automas_turns_step_by_step(tmp_path: Path):
    """AUTOMA.md §4.3, §5: her turns are played inside the move that hands her the turn; the replay
    shows that move's own position first, then one frame per step (or her pass), and the last
    frame is the final position.  The engine's automatic entries are restored afterwards."""
    from io import StringIO

    from aoi_env.core.engine import AUTO
    from aoi_env.core.pending import Kind
    from aoi_env.render.svg import render_svg
    from train.replay import run_replay

    rec, game = play("aoi(players=1,automa=simpletons:3)", ["random"], seed=3)
    entries = AUTO[Kind.AUTOMA_TURN], AUTO[Kind.AUTOMA_STEP]
    page = tmp_path / "g.html"
    out = StringIO()
    run_replay(rec, html_file=page, out=out)
    assert (AUTO[Kind.AUTOMA_TURN], AUTO[Kind.AUTOMA_STEP]) == entries
    captions = [line[3:] for line in out.getvalue().splitlines() if line.startswith("== ")]
    automa = [c for c in captions if "(Automa)" in c]
    assert automa and any(c.endswith("(Automa) passes") for c in automa)
    first = captions.index(automa[0])
    assert "(Automa)" not in captions[first - 1] and captions[first - 1].startswith(automa[0].split(":")[0])
    assert len(captions) > len(rec.moves) + 1
    doc = json.loads(page.read_text().split("const DATA = ", 1)[1].split(";\n", 1)[0].replace("<\\/", "</"))
    assert doc["captions"] == captions and doc["frames"][-1] == render_svg(game)
    # A player's answer to her power offer resumes her turn: the answer's own frame comes first
    # (AUTOMA.md §5: the offer comes after her build, her victory points after the answer).
    numbers = [c.split(":")[0] for c in captions]
    firsts = [c for i, c in enumerate(captions) if i and numbers[i] != numbers[i - 1]]
    assert not [c for c in firsts if "(Automa)" in c]
    resumed = [i for i, c in enumerate(captions[:-1]) if "leech" in c and numbers[i + 1] == numbers[i]]
    assert resumed and all(doc["frames"][i] != doc["frames"][i + 1] for i in resumed)


def test_style515_play_record_names_one_spec_string_given_for_the_list():
    """``play_record(game, "random")`` read the string as six agents, one per letter ("need one
    agent per player: got 6 for 2 players")."""
    with pytest.raises(
        ValueError, match="agents must be a list of agents or agent specs, one per player, got 'random'"
    ):
        play_record("aoi(players=2)", "random", seed=0)  # type: ignore[arg-type]
