"""The ``aoi`` command (aoi_env/cli.py): version, ``setup-demo`` determinism and error exits."""

from __future__ import annotations

import pytest

from aoi_env import __version__
from aoi_env.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_version(capsys: pytest.CaptureFixture[str]):
    """``aoi --version`` prints the package version and exits 0."""
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.strip() == f"aoi-env {__version__}"


def test_no_command_prints_help(capsys: pytest.CaptureFixture[str]):
    code, out, _ = run(capsys)
    assert code == 0
    assert "setup-demo" in out


def test_play_help_shows_the_automa_spec_the_parser_takes(capsys: pytest.CaptureFixture[str]):
    """``aoi play --help`` documents both orders ``agents.automa_seat_spec`` reads (the level first,
    as the tournament wrote it, or the faction first)."""
    from agents import automa_seat_spec

    with pytest.raises(SystemExit):
        main(["play", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "automa:LEVEL[:FACTION[:TERRAIN]] or automa:FACTION:LEVEL[:TERRAIN]" in out
    assert automa_seat_spec("automa:druids:5") == automa_seat_spec("automa:5:druids") == "druids:5"


@pytest.mark.parametrize("players", ["3", "5"])
def test_setup_demo_same_seed_prints_the_same_text(capsys: pytest.CaptureFixture[str], players: str):
    """Same seed, same game: two runs print identical text."""
    code1, out1, err1 = run(capsys, "setup-demo", "--players", players, "--seed", "5")
    code2, out2, _ = run(capsys, "setup-demo", "--players", players, "--seed", "5")
    assert code1 == code2 == 0 and err1 == ""
    assert out1 == out2
    assert out1.startswith("seed 5\n")
    assert f"aoi(players={players},setup_choices=random)" in out1
    assert "round 1" in out1  # the random setup choices reached round 1


@pytest.mark.parametrize("players", ["3", "5"])
def test_setup_demo_different_seeds_differ(capsys: pytest.CaptureFixture[str], players: str):
    _, out5, _ = run(capsys, "setup-demo", "--players", players, "--seed", "5")
    _, out6, _ = run(capsys, "setup-demo", "--players", players, "--seed", "6")
    assert out5 != out6
    # beyond the "seed N" line, the setups themselves differ
    assert out5.split("\n", 1)[1] != out6.split("\n", 1)[1]


def test_setup_demo_accepts_a_game_string(capsys: pytest.CaptureFixture[str]):
    code, out, _ = run(capsys, "setup-demo", "--game", "aoi(players=4,distribution=draft)", "--seed", "2")
    assert code == 0
    assert "aoi(players=4,distribution=draft,setup_choices=random)" in out


@pytest.mark.parametrize("players", ["1", "6"])
def test_setup_demo_bad_player_count_exits_2_with_a_clear_message(capsys: pytest.CaptureFixture[str], players: str):
    """R5: 2-5 players; the command exits with code 2 and says what is valid."""
    code, out, err = run(capsys, "setup-demo", "--players", players)
    assert code == 2
    assert out == ""
    assert err.strip() == f"aoi setup-demo: error: players must be 2..5, got {players}"


def test_setup_demo_non_integer_player_count_exits_2(capsys: pytest.CaptureFixture[str]):
    with pytest.raises(SystemExit) as exc:
        main(["setup-demo", "--players", "x"])
    assert exc.value.code == 2
    assert "argument --players: invalid int value: 'x'" in capsys.readouterr().err


def test_setup_demo_bad_game_string_exits_2(capsys: pytest.CaptureFixture[str]):
    code, _, err = run(capsys, "setup-demo", "--game", "aoi(player=3)")
    assert code == 2
    assert "unknown parameter 'player'; valid: players" in err


def test_issue6_aoi_play_heuristic_against_the_automa(capsys) -> None:
    """Issue 6: ``aoi play --agents heuristic,automa:5`` plays a full game watched in the terminal."""
    assert main(["play", "--agents", "heuristic,automa:5", "--seed", "1", "--watch", "end"]) == 0
    out = capsys.readouterr().out
    assert "aoi(players=1,automa=simpletons:5)" in out and "== final ==" in out
    assert "seat 1 automa:simpletons:5" in out and "winner" in out


def test_aoi_play_human_reads_moves_from_stdin(capsys, monkeypatch) -> None:
    """A human seat reads notation or a number; end of input stops the game with exit code 130."""
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("nonsense\n0\n"))
    assert main(["play", "--agents", "human,automa:1", "--seed", "0", "--watch", "end"]) == 130
    out = capsys.readouterr()
    assert "unknown verb 'nonsense'" in out.out and "stopped" in out.err


def test_aoi_play_one_player_without_automa_names_the_fix(capsys) -> None:
    """``--agents human`` alone: one player needs an Automa (the error said only 'players must be
    2..5', although 1 player is allowed with one)."""
    assert main(["play", "--agents", "human"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == "aoi play: error: one player plays against the Automa: e.g. --agents human,automa:1 (or 2-5 players)"


def test_aoi_play_names_the_first_problem_of_a_one_seat_command_line(capsys) -> None:
    """With one seat, an unknown agent spec and a ``--game`` that sets the seats are named as such
    (both used to be reported as 'one player plays against the Automa', the hint suggesting
    ``--agents bogus,automa:1``); two-seat command lines already named them."""
    assert main(["play", "--agents", "bogus"]) == 2
    err = capsys.readouterr().err
    assert "unknown" in err and "'bogus'" in err and "plays against the Automa" not in err, err
    assert main(["play", "--agents", "heuristic", "--game", "aoi(players=3)"]) == 2
    err = capsys.readouterr().err
    assert "--game may not set players: the seats come from --agents" in err, err


def test_ctrl_c_stops_a_command_with_exit_130_and_names_it(capsys, monkeypatch) -> None:
    """Ctrl-C (KeyboardInterrupt, whose text is empty) is reported by name, exit code 130."""

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("train.tournament.run_tournament", interrupted)
    assert main(["tournament", "--agents", "random", "random", "--games", "2"]) == 130
    assert "aoi tournament: stopped (KeyboardInterrupt)" in capsys.readouterr().err


def test_aoi_play_record_saves_the_game_that_was_played(capsys, monkeypatch, tmp_path) -> None:
    """``--record`` writes the game just watched; a human seat plays it once (it used to be
    played a second time to make the record)."""
    import io

    from train.records import load, play_record

    known = play_record("aoi(players=1,automa=simpletons:3)", ["random"], seed=5, agent_seeds=[7])
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(known.moves) + "\n"))
    path = tmp_path / "game.json"
    assert main(["play", "--agents", "human,automa:3", "--seed", "5", "--watch", "end", "--record", str(path)]) == 0
    assert f"record written to {path}" in capsys.readouterr().out
    rec = load(path)
    assert rec.moves == known.moves and rec.scores == known.scores and rec.agents == ["human"]
    assert rec.final_state_sha256 == known.final_state_sha256


def test_aoi_play_game_string_may_not_set_the_seats(capsys) -> None:
    """The seats come from ``--agents``; ``--game`` naming players or an Automa is a usage error
    (it was silently overridden)."""
    code = main(["play", "--agents", "heuristic,random", "--game", "aoi(players=1,automa=druids:2)"])
    assert code == 2
    assert "--game may not set automa, players: the seats come from --agents" in capsys.readouterr().err


def test_missing_or_broken_config_and_bad_repro_game_exit_2(capsys, tmp_path) -> None:
    """A config file that is missing or not YAML, and a bad ``fuzz --repro`` game string, are
    usage errors: exit 2 and a one-line message, no traceback (docs/tools.md)."""
    broken = tmp_path / "bad.yaml"
    broken.write_text("agents: [random\n", encoding="utf-8")
    for argv, message in [
        (["tournament", "--config", str(tmp_path / "missing.yaml")], "cannot read config"),
        (["balance", "--config", str(broken)], "not a YAML file"),
        (["fuzz", "--repro", "aoi(players=9)"], "players must be 2..5, got 9"),
    ]:
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err, argv


def test_bad_options_of_long_commands_fail_before_any_game(capsys, tmp_path) -> None:
    """Checked before the work starts, exit 2 with a message naming the option: an Automa in the
    base game of a tournament or balance run (it is a participant), option values of the wrong
    type or range, and output files that cannot be written."""
    afile = tmp_path / "a_file"
    afile.write_text("x", encoding="utf-8")
    cases = [
        (["tournament", "--agents", "random", "random", "--game", "aoi(players=1,automa=simpletons:3)"],
         "game may not name an Automa"),
        (["balance", "--agents", "random", "--players", "2", "--game", "aoi(players=2,automa=simpletons:3)"],
         "game may not name an Automa"),
        (["balance", "--agents", "random", "--players", "2", "--workers", "0"], "bad value for 'workers': 0"),
        (["balance", "--agents", "random", "--players", "2", "--alpha", "7"], "bad value for 'alpha': 7.0"),
        (["fuzz", "--games", "3", "--oracle-every", "-1"], "--oracle-every, --seed and --start must be >= 0"),
        (["fuzz", "--games", "3", "--start", "-5"], "got 500, 0, -5 and 20000"),
        (["bench", "--players", "3", "--json", str(afile / "b.json")], "--json"),
        (["fuzz", "--games", "1", "--json", str(tmp_path)], "is a folder, not a file"),
        (["play", "--agents", "random,random", "--record", str(afile / "x.json")], "--record"),
    ]  # fmt: skip
    for argv, message in cases:
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err, (argv, err)
    games = tmp_path / "games.yaml"
    games.write_text("agents: [random, random]\ngames: abc\n", encoding="utf-8")
    assert main(["tournament", "--config", str(games)]) == 2
    assert "bad value for 'games': 'abc'" in capsys.readouterr().err


def test_demo_commands_take_players_unless_the_game_string_names_them(capsys) -> None:
    """``--players`` (default 3) applies with ``--game`` too, unless the game string sets players."""
    assert main(["setup-demo", "--players", "2", "--game", "aoi(ruleset=v1.0)"]) == 0
    assert "aoi(players=2,ruleset=v1.0,setup_choices=random)" in capsys.readouterr().out
    assert main(["setup-demo", "--players", "2", "--game", "aoi(players=4)"]) == 0
    assert "aoi(players=4,setup_choices=random)" in capsys.readouterr().out


def test_fuzz_repro_honours_max_decisions(capsys) -> None:
    """``--max-decisions`` reaches ``--repro`` (and oracle games), so the printed reproduce
    command of a "no end after N decisions" failure fails the same way."""
    from aoi_env.fuzz import MAX_DECISIONS, Result

    assert main(["fuzz", "--repro", "aoi(players=2)", "--seed", "1", "--max-decisions", "10"]) == 1
    assert "no end after 10 decisions" in capsys.readouterr().err
    r = Result(0, "aoi(players=2)", 1, "biased", True, 10)
    assert r.repro().endswith("--policy biased --max-decisions 10 --oracle")
    assert "--max-decisions" not in Result(0, "aoi(players=2)", 1, "biased", True, MAX_DECISIONS).repro()


@pytest.mark.parametrize("command", ["play", "setup-demo", "bench", "tournament", "eval"])
def test_a_negative_seed_is_an_argparse_error_naming_the_option(command: str, capsys) -> None:
    """Every ``--seed`` is a non-negative integer; the error names the option (exit 2)."""
    extra = ["--model", "m.zip"] if command == "eval" else []
    with pytest.raises(SystemExit) as exc:
        main([command, *extra, "--seed", "-1"])
    assert exc.value.code == 2
    assert "argument --seed: expected a non-negative integer, got -1" in capsys.readouterr().err


def test_a_closed_pipe_stops_a_command_quietly() -> None:
    """``aoi replay game.json | head``: when the reader leaves, the command stops with exit code 1
    and no 'error: [Errno 32] Broken pipe' (it was reported as a user error, exit 2); a broken
    pipe elsewhere (a dead SubprocVecEnv worker) while stdout is open is still an error, exit 2."""
    import subprocess
    import sys

    code = (
        "import sys, aoi_env.cli as cli\n"
        "def talk(args):\n"
        "    for i in range(10**7):\n"
        "        print('frame', i)\n"
        "def other_pipe(args):\n"
        "    print('working')\n"
        "    raise BrokenPipeError(32, 'Broken pipe')\n"
        "run = talk if sys.argv[1] == 'talk' else other_pipe\n"
        "cli._COMMANDS['setup-demo'] = (cli._COMMANDS['setup-demo'][0], run)\n"
        "sys.exit(cli.main(['setup-demo']))\n"
    )
    reader = subprocess.Popen([sys.executable, "-c", code, "talk"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert reader.stdout.read(20)  # like head: read a little, then leave
    reader.stdout.close()
    assert reader.wait(timeout=120) == 1 and reader.stderr.read() == b""
    other = subprocess.run([sys.executable, "-c", code, "other"], capture_output=True, timeout=120)
    assert other.returncode == 2 and b"aoi setup-demo: error: [Errno 32] Broken pipe" in other.stderr
