"""Behaviours of the tools (CLI, records/replay, balance, training options, data loader, renderers,
agents) that no other test executed, found by a branch-coverage audit of everything outside
aoi_env/core.  Each test checks what the docs or the docstring promise, not only that it runs."""

from __future__ import annotations

import copy
import csv
import importlib.util
import json
import re
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from aoi_env.cli import main
from tests.test_training import needs_train

# -- records and replay ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def record_doc() -> dict:
    """One finished 2-player random game as the JSON object ``aoi replay`` reads."""
    from train.records import play_record

    return play_record("aoi(players=2)", ["random", "random"], seed=3).to_dict()


def _replay(doc: dict, tmp_path: Path, capsys) -> tuple[int, str, str]:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code = main(["replay", str(path), "--final"])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_replay_of_a_record_from_other_versions_warns_and_skips_that_schemas_check(
    record_doc: dict, tmp_path: Path, capsys
) -> None:
    """docs/tools.md: a record written with another package or schema version replays with a warning
    on stderr; another action schema skips the action-id check, another state schema the
    final-state hash.  With the current schemas the same damage is an error (exit 2)."""
    wrong_ids = copy.deepcopy(record_doc)
    wrong_ids["actions"] = [0] * len(wrong_ids["moves"])  # ids of another schema
    wrong_hash = copy.deepcopy(record_doc)
    wrong_hash["final_state_sha256"] = "0" * 64  # state bytes of another schema

    code, _, err = _replay(wrong_ids, tmp_path, capsys)
    assert code == 2 and "the move is action" in err  # current action schema: the ids are checked
    code, _, err = _replay(wrong_hash, tmp_path, capsys)
    assert code == 2 and "final state differs" in err  # current state schema: the hash is checked

    wrong_ids["versions"]["action_schema"] += 1
    code, out, err = _replay(wrong_ids, tmp_path, capsys)
    now = record_doc["versions"]["action_schema"]
    assert code == 0 and "(as recorded)" in out
    assert f"warning: record action_schema {now + 1} differs from the current {now}" in err

    wrong_hash["versions"]["state_schema"] += 1
    wrong_hash["versions"]["package"] = "0.0.0-old"
    wrong_hash["env_id"] = "other/env-v9"
    code, out, err = _replay(wrong_hash, tmp_path, capsys)
    assert code == 0 and "(as recorded)" in out
    assert "warning: record state_schema" in err
    assert f"warning: record package 0.0.0-old differs from the current {record_doc['versions']['package']}" in err
    assert "warning: record env id 'other/env-v9' is not 'aoi/age_of_innovation-v0'" in err


def test_replay_names_a_move_after_the_end_and_a_wrong_deciding_seat(record_doc: dict, tmp_path: Path, capsys) -> None:
    """docs/tools.md: the replay checks the deciding seat is the recorded one and that the game
    ends exactly after the last move; the first difference exits 2 naming the move."""
    total = len(record_doc["moves"])
    extra = copy.deepcopy(record_doc) | {"actions": [], "move_seats": []}
    extra["moves"] = [*record_doc["moves"], "pass"]
    code, _, err = _replay(extra, tmp_path, capsys)
    assert code == 2
    assert f"replay diverged at move {total + 1} of {total + 1} ('pass'): the game is already over" in err

    seats = copy.deepcopy(record_doc)
    first = seats["move_seats"][0]
    seats["move_seats"][0] = 1 - first
    code, _, err = _replay(seats, tmp_path, capsys)
    assert code == 2
    assert f"replay diverged at move 1 of {total} ({record_doc['moves'][0]!r}): seat {first} is to move, " \
           f"the record says seat {1 - first}" in err  # fmt: skip
    assert "Traceback" not in err


# -- aoi demo / play / bench / replay option errors -------------------------------------------


def test_cli_demo_prints_every_decision_and_a_final_result_that_the_moves_reproduce(capsys) -> None:
    """``aoi demo`` plays one full game between random players and prints the result; ``--moves``
    prints every decision ('N seat S: MOVE'), ``--players`` sets the seats.  Replaying the printed
    moves on the same game and seed must give the printed final VP and decision count, and the same
    seed must print the same game."""
    from aoi_env import Game

    assert main(["demo", "--players", "2", "--seed", "4", "--moves"]) == 0
    out = capsys.readouterr().out
    moves = re.findall(r"^\s*(\d+) seat (\d): (.+)$", out, flags=re.M)
    summary = re.search(r"^(\d+) decisions; final VP: (.+)$", out, flags=re.M)
    assert summary and int(summary.group(1)) == len(moves) > 50
    assert [int(n) for n, _, _ in moves] == list(range(len(moves)))  # numbered from 0, none missing
    game = Game("aoi(players=2)", seed=4)
    for _, seat, move in moves:
        assert game.current_seat() == int(seat)
        game.apply_move(move)
    assert game.is_over()
    assert summary.group(2) == ", ".join(f"seat {i}: {int(v)}" for i, v in enumerate(game.scores()))
    assert "aoi(players=2)  round 6, phase over, game over" in out  # the final board is shown

    assert main(["demo", "--players", "2", "--seed", "4", "--moves"]) == 0
    assert capsys.readouterr().out == out  # same seed, same game
    assert main(["demo", "--players", "2", "--game", "aoi(players=4,ruleset=v1.0)", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "aoi(players=4,ruleset=v1.0)" in out and "seat 3:" in out.splitlines()[-1]  # the game string's count


def test_cli_play_needs_a_player_and_seed_must_be_an_integer(capsys) -> None:
    """``aoi play --agents automa:3`` has no player seat: exit 2 with the message, no traceback;
    ``--seed abc`` is an argparse error naming the option and the bad text (exit 2)."""
    for agents in ("automa:3", "automa:3,automa:druids:2"):
        assert main(["play", "--agents", agents]) == 2
        err = capsys.readouterr().err
        assert "aoi play: error: --agents needs at least one player besides the Automa" in err
        assert "Traceback" not in err
    with pytest.raises(SystemExit) as exc:
        main(["play", "--agents", "random,random", "--seed", "abc"])
    assert exc.value.code == 2
    assert "argument --seed: expected a non-negative integer, got 'abc'" in capsys.readouterr().err


def test_cli_bench_and_replay_reject_bad_options_before_any_work(record_doc: dict, tmp_path: Path, capsys) -> None:
    """Bad values fail before minutes of measuring or replaying, exit 2 with a one-line message
    naming the problem (docs/tools.md): zero games or decisions, an unreadable ``--compare`` file,
    and an ``--svg`` folder that cannot be created (its parent is a file)."""
    missing = tmp_path / "old.json"
    afile = tmp_path / "afile"
    afile.write_text("x", encoding="utf-8")
    record = tmp_path / "game.json"
    record.write_text(json.dumps(record_doc), encoding="utf-8")
    cases = [
        (["bench", "--games", "0"], "aoi bench: error: games and decisions must be at least 1"),
        (["bench", "--decisions", "0"], "aoi bench: error: games and decisions must be at least 1"),
        (["bench", "--compare", str(missing)], f"aoi bench: error: cannot read the --compare file {missing}"),
        (["replay", str(record), "--svg", str(afile / "svg")], f"--svg {afile / 'svg'}: cannot create the folder"),
    ]  # fmt: skip
    for argv, message in cases:
        assert main(argv) == 2, argv
        captured = capsys.readouterr()
        assert message in captured.err and "Traceback" not in captured.err, (argv, captured.err)
        assert captured.out == "", argv  # nothing measured, nothing replayed
    assert not (afile / "svg").exists()


# -- balance: records and flagged outliers ----------------------------------------------------


def test_balance_saves_replayable_records_and_lists_flagged_outliers(tmp_path: Path) -> None:
    """``aoi balance --records`` saves every game as OUT/records/game_NNNNN.json (replayable,
    agents per seat = agents[s % n]); a group whose win rate is far from fair is flagged in the
    report's "Flagged outliers" section and on stdout.  Heuristic (seat 0) vs random (seat 1)
    wins every game, so with 8 games (``min_games`` 8: the groups are tested) seat 0 must be
    flagged win+ and seat 1 win-."""
    import io

    from train.balance import BalanceConfig, run_balance
    from train.records import load, replay

    out_dir = tmp_path / "bal"
    cfg = BalanceConfig(agents=["heuristic", "random"], players=[2], games=8, workers=1, out=str(out_dir),
                        min_games=8, records=True, plots=False, progress=False)  # fmt: skip
    stream = io.StringIO()
    run_balance(cfg, out=stream)
    files = sorted((out_dir / "records").glob("game_*.json"))
    assert [f.name for f in files] == [f"game_{i:05d}.json" for i in range(8)]
    with open(out_dir / "seatings.csv", encoding="utf-8") as fh:
        seatings = list(csv.DictReader(fh))
    for i, f in enumerate(files):
        rec = load(f)
        assert rec.agents == ["heuristic", "random"]
        assert list(replay(rec).scores()) == rec.scores
        assert [int(r["vp"]) for r in seatings if int(r["game"]) == i] == rec.scores
    text = stream.getvalue()
    assert "flagged outliers: 2" in text
    assert "  seat: 0 win+" in text and "  seat: 1 win-" in text
    report = (out_dir / "report.md").read_text(encoding="utf-8")
    section = report.split("## Flagged outliers", 1)[1].split("\n## ", 1)[0]
    assert "- seats: **0** win+" in section and "vs fair 50.0%" in section and "n=8" in section
    assert "- seats: **1** win-" in section and "None at this sample size." not in section


# -- training: max_minutes ---------------------------------------------------------------------


@needs_train
def test_max_minutes_adds_a_time_limit_that_stops_learning_when_the_time_is_up(tmp_path: Path, capsys) -> None:
    """docs/training.md: ``max_minutes`` is the wall-time cap of learning (0 = none).  The run's
    callbacks then hold a ``TimeLimit`` of max_minutes * 60 s, which lets learning go on before the
    time is up and stops it (returns False, records the step, says so) after."""
    from train.callbacks import TimeLimit
    from train.config import TrainConfig
    from train.train import build_callbacks

    def limits(minutes: float) -> list[TimeLimit]:
        cfg = TrainConfig.from_dict({"out": str(tmp_path), "max_minutes": minutes, "checkpoint_every": 0,
                                     "league": {"snapshot_every": 0}, "eval": {"every": 0}})  # fmt: skip
        callbacks, _ = build_callbacks(cfg, tmp_path, "m")
        return [c for c in callbacks if isinstance(c, TimeLimit)]

    assert limits(0) == []
    (limit,) = limits(1.5)
    assert limit.seconds == 90.0

    model = SimpleNamespace(num_timesteps=0)
    for seconds, keeps_going in ((3600.0, True), (0.0, False)):
        cb = TimeLimit(seconds)
        cb.model = model
        cb.on_training_start({}, {})
        model.num_timesteps = 128
        assert cb.on_step() is keeps_going
        assert cb.stopped_at == (None if keeps_going else 128)
    assert "time limit: stopping after 0.0 min at 128 steps" in capsys.readouterr().out


# -- golden playthrough tool -------------------------------------------------------------------


def test_playthrough_tool_show_and_write_reproduce_the_golden_files(tmp_path: Path, capsys) -> None:
    """aoi_env/playthrough.py's docstring: ``write DIR`` regenerates every golden file and ``show GAME
    SEED`` prints one; the regenerated files must equal tests/playthroughs (the golden test compares
    the same text), and other arguments print the usage and return 2."""
    from aoi_env.playthrough import GAMES, file_name
    from aoi_env.playthrough import main as tool

    golden = Path(__file__).parent / "playthroughs"
    assert tool(["write", str(tmp_path / "pt")]) == 0
    written = capsys.readouterr().out.splitlines()
    assert written == [f"wrote {tmp_path / 'pt' / file_name(g, s)}" for g, s in GAMES]
    for g, s in GAMES:
        name = file_name(g, s)
        assert (tmp_path / "pt" / name).read_text(encoding="utf-8") == (golden / name).read_text(encoding="utf-8")
    game, seed = GAMES[0]
    assert tool(["show", game, str(seed)]) == 0
    assert capsys.readouterr().out == (golden / file_name(game, seed)).read_text(encoding="utf-8")
    assert tool(["show", game]) == 2
    assert "python -m aoi_env.playthrough write tests/playthroughs" in capsys.readouterr().out


# -- renderers and agents ----------------------------------------------------------------------


def test_svg_draws_a_neutral_monument_as_a_dashed_diamond_in_the_owners_colour() -> None:
    """aoi_env/render/svg.py: monument = diamond, neutral pieces have a dashed outline, buildings in
    the owner's colour.  The innovation "neutral monument" puts such a piece on the board; no game
    of the suite drew one, so the shape is set on a hex directly."""
    from aoi_env import Game
    from aoi_env.core.state import H_BUILDING, H_NEUTRAL, H_OWNER, H_TERRAIN
    from aoi_env.data.enums import Building, Terrain
    from aoi_env.render.svg import center, owner_colour, render_svg

    g = Game("aoi(players=2,setup_choices=random)", seed=0)
    hexes = g.state.hexes
    pos = next(p for p in range(len(hexes)) if hexes[p, H_BUILDING] == 0 and hexes[p, H_TERRAIN] < Terrain.RIVER)
    hexes[pos, H_BUILDING], hexes[pos, H_OWNER], hexes[pos, H_NEUTRAL] = Building.MONUMENT, 1, 1
    svg = render_svg(g)
    shapes = re.findall(r'<polygon class="monument" points="([^"]+)" ([^/]*)/>', svg)
    assert len(shapes) == 1
    points, style = shapes[0]
    xy = np.array([[float(c) for c in p.split(",")] for p in points.split()])
    x, y = center(pos)
    np.testing.assert_allclose(xy, [(x, y - 16), (x + 10, y - 3), (x, y + 10), (x - 10, y - 3)], atol=0.11)
    assert f'fill="{owner_colour(g, 1)}"' in style and "stroke-dasharray" in style


def test_heuristic_depth_knob_budget_zero_is_depth_one_and_depth_two_plays_legal_games() -> None:
    """docs/agents.md: ``max_depth`` > 1 searches more levels exhaustively and ``budget`` caps the
    nodes of those levels, so with budget 0 a depth-2 player decides exactly as the depth-1 one.
    With the default budget the depth-2 player must still finish a game with legal moves, and it
    does search (it decides differently somewhere)."""
    from agents import HeuristicAgent, RandomAgent
    from aoi_env import Game
    from train.records import play_record

    one = play_record("aoi(players=2)", [HeuristicAgent(seed=1), RandomAgent(2)], seed=5)
    capped = play_record("aoi(players=2)", [HeuristicAgent(seed=1, max_depth=2, budget=0), RandomAgent(2)], seed=5)
    assert capped.moves == one.moves and capped.scores == one.scores

    g = Game("aoi(players=2)", seed=5)
    deep, shallow = HeuristicAgent(seed=1, max_depth=2), HeuristicAgent(seed=1)
    differs = 0
    while not g.is_over():
        action = deep.choose(g)
        assert action in g.legal_actions()
        differs += action != shallow.choose(g)
        g.apply_action(action)
    assert differs > 0


# -- the fuzzer's failure reports --------------------------------------------------------------


def test_fuzz_reports_a_broken_invariant_and_an_engine_exception_with_the_decision_and_a_repro(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys
) -> None:
    """aoi_env/fuzz.py: a game that breaks an invariant or raises is a failure naming the decision
    (number and move); failures are grouped by message with a reproduce command, ``--json`` holds
    the groups and the exit status is 1.  An engine fault is injected from decision 5 on (the
    suite's engine has none, so these reports were never produced)."""
    import aoi_env.core.invariants as invariants
    from aoi_env.core.engine import Game
    from aoi_env.core.state import G_DECISIONS

    def after_5(g: Game) -> bool:
        return int(g.state.glob[G_DECISIONS]) >= 5

    argv = ["fuzz", "--games", "2", "--workers", "1", "--oracle-every", "0", "--no-progress"]
    with monkeypatch.context() as m:
        m.setattr(invariants, "violations", lambda g, strict=False: ["fake problem"] if after_5(g) else [])
        assert main([*argv, "--json", str(tmp_path / "inv.json")]) == 1
    out = capsys.readouterr().out
    assert "2 games (0 with the oracle)" in out and "2 failed" in out
    assert "FAILED x2: GameFailure: invariant broken after decision N: fake problem" in out
    assert out.count("    reproduce: python -m aoi_env.fuzz --repro 'aoi(") == 2
    summary = json.loads((tmp_path / "inv.json").read_text(encoding="utf-8"))
    assert summary["failures"] == 2 and [g["count"] for g in summary["failure_groups"]] == [2]
    for ex in summary["failure_groups"][0]["examples"]:  # the first decision at or after 5 (a random
        n = ex["decisions"]  # setup may start the game at decision 6), named with the move before it
        assert n >= 5 and re.search(rf"after decision {n} \((setup|seat \d: [^)]+)\): fake problem", ex["error"])
        assert f"{ex['config']} seed {ex['seed']} {ex['policy']}: GameFailure: invariant broken" in out
        assert f"reproduce: python -m aoi_env.fuzz --repro '{ex['config']}' --seed {ex['seed']}" in out

    apply = Game.apply_action

    def faulty(self: Game, action: int) -> None:
        if after_5(self):
            raise RuntimeError("boom")
        apply(self, action)

    with monkeypatch.context() as m:
        m.setattr(Game, "apply_action", faulty)
        assert main(argv) == 1
    out = capsys.readouterr().out
    assert "FAILED x2: GameFailure: decision N raised RuntimeError: boom" in out
    assert len(re.findall(r"decision [56] \(seat \d: [^)]+\) raised RuntimeError: boom", out)) == 2


# -- training: the league's snapshot drawing and model: opponents ------------------------------


@pytest.fixture
def saved_models(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Three tiny untrained MaskablePPO models (different seeds) saved in tmp_path as aoi train
    saves them.  Loading one imports train.policy_agent, which registers ``model:PATH``: the agent
    registry is put back afterwards (as the training tests do)."""
    import agents
    from tests.test_training_league import save_model

    monkeypatch.setattr(agents, "_REGISTRY", dict(agents._REGISTRY))
    return [save_model(tmp_path / f"snapshot_{i}.zip", seed=i) for i in range(3)]


def test_league_self_opponent_is_the_newest_snapshot_with_latest_prob_else_a_uniform_pick(
    saved_models: list[Path],
) -> None:
    """docs/training.md (league.latest_prob): a ``self`` opponent is the newest snapshot with
    probability latest_prob, otherwise one drawn uniformly from all kept snapshots (the newest
    included), so older versions of the learner keep being played and it does not overfit to its
    latest self.  With latest_prob 0.4 and 3 snapshots the newest is drawn 0.4 + 0.6/3 = 60% of the
    time and each older one 20%; with latest_prob 0 all three equally; each draw is a stochastic
    policy agent of the drawn file, and the same rng seed draws the same sequence."""
    from train.opponents import OpponentPool
    from train.policy_agent import PolicyAgent

    paths = [str(p) for p in saved_models]

    def draws(latest_prob: float, n: int, seed: int = 0) -> list[str]:
        pool = OpponentPool({"self": 1.0}, max_snapshots=5, latest_prob=latest_prob)
        for path in paths:
            pool.add_snapshot(path)
        rng = np.random.default_rng(seed)
        agents = [pool.make("self", rng) for _ in range(n)]
        assert all(isinstance(a, PolicyAgent) and not a.deterministic for a in agents)
        assert all(a.policy is pool._policies[a.label] for a in agents)  # the drawn file's network
        return [a.label for a in agents]

    n = 600
    labels = draws(0.4, n)
    share = {p: labels.count(p) / n for p in paths}
    assert share[paths[2]] == pytest.approx(0.6, abs=0.06)
    assert share[paths[0]] == pytest.approx(0.2, abs=0.05) and share[paths[1]] == pytest.approx(0.2, abs=0.05)
    uniform = draws(0.0, n)
    assert all(uniform.count(p) / n == pytest.approx(1 / 3, abs=0.06) for p in paths)
    assert draws(0.4, 50, seed=9) == draws(0.4, 50, seed=9)  # reproducible from the env's seed


def test_model_opponent_in_the_pool_loads_the_saved_file_and_plays_legal_moves(
    saved_models: list[Path], tmp_path: Path
) -> None:
    """docs/training.md: ``model:PATH`` trains (and evaluates) against a fixed saved policy.  The
    pool must load that file (the opponent's network has the saved weights; ``.zip`` may be left
    off as aoi train's model names are given), seat it as a stochastic policy agent and every
    decision it makes must be legal through a whole game.  A missing file must fail with a
    ValueError naming the path, not a torch or zipfile traceback from inside an env worker."""
    import torch
    from sb3_contrib import MaskablePPO

    from train.opponents import OpponentPool
    from train.policy_agent import PolicyAgent
    from train.seat_env import SeatEnv

    path = saved_models[1]
    spec = f"model:{path.with_suffix('')}"  # without .zip
    pool = OpponentPool({spec: 1.0})
    env = SeatEnv("aoi(players=2)", pool, learner_seat=0)
    env.reset(seed=4)
    (opponent,) = env.opponents.values()
    assert isinstance(opponent, PolicyAgent) and not opponent.deterministic
    assert opponent.label == str(path.with_suffix(""))
    saved = MaskablePPO.load(path, device="cpu").policy.state_dict()
    loaded = opponent.policy.state_dict()
    assert saved.keys() == loaded.keys() and all(torch.equal(saved[k], loaded[k]) for k in saved)

    choose, decisions = opponent.choose, []

    def checked(game) -> int:
        action = choose(game)
        assert action in game.legal_actions(), (action, game.move_str(action))
        decisions.append(action)
        return action

    opponent.choose = checked
    rng = np.random.default_rng(4)
    terminated, info = False, {}
    while not terminated:
        _, _, terminated, _, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
    assert len(decisions) > 50 and env.game.is_over()
    assert info["episode_stats"]["opponent"] == spec and env.illegal_actions == 0

    missing = tmp_path / "nowhere" / "missing.zip"
    pool = OpponentPool({f"model:{missing}": 1.0})
    with pytest.raises((ValueError, FileNotFoundError), match=re.escape(repr(str(missing)))) as exc:
        pool.make(f"model:{missing}", np.random.default_rng(0))
    assert "model file not found" in str(exc.value)


# -- the tournament's progress bar -------------------------------------------------------------


@pytest.mark.skipif(importlib.util.find_spec("tqdm") is None, reason="tqdm comes with the train extra")
def test_tournament_progress_bar_counts_every_game_and_is_off_when_asked(
    monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    """docs/tools.md: ``aoi tournament`` shows a tqdm bar of the games (the ``train`` extra) unless
    ``--no-progress`` / ``progress: false``.  The bar's total and final count must be the games
    played (a bar stopping short or overshooting misreports how far the run is), it writes to
    stderr (stdout holds the table), and without tqdm installed the games still run, bar-less."""
    import io
    import sys

    import tqdm

    from train.tournament import TournamentConfig, run_parallel, run_tournament

    bars: list[tqdm.tqdm] = []

    class Recorded(tqdm.tqdm):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            bars.append(self)

    monkeypatch.setattr(tqdm, "tqdm", Recorded)
    cfg = {"agents": ["random", "random"], "games": 2, "workers": 1, "out": None, "seed": 1}
    summary = run_tournament(TournamentConfig(**cfg), out=io.StringIO())
    (bar,) = bars
    assert bar.total == bar.n == 2 == sum(r["games"] for r in summary["participants"]) // 2
    assert bar.desc == "tournament" and bar.unit == "game"
    err = capsys.readouterr().err
    assert "tournament: 100%" in err and "2/2" in err

    run_tournament(TournamentConfig(**cfg, progress=False), out=io.StringIO())
    assert len(bars) == 1 and "tournament" not in capsys.readouterr().err  # no bar

    assert run_parallel(abs, [-1, -2, -3], 1, "squares", True) == [1, 2, 3]
    assert bars[-1].total == bars[-1].n == 3
    monkeypatch.setitem(sys.modules, "tqdm", None)  # not installed: ``from tqdm import tqdm`` fails
    assert run_parallel(abs, [-1, -2, -3], 1, "squares", True) == [1, 2, 3]
    assert len(bars) == 2 and capsys.readouterr().err.count("squares: 100%") == 1  # only the first run's bar


# -- SeatEnv's ansi render ---------------------------------------------------------------------


def test_seat_env_ansi_render_is_the_text_of_the_current_position() -> None:
    """SeatEnv declares render_modes ["ansi"]: ``render()`` then returns the text board of the
    game the learner is in (aoi_env.render.text, what ``aoi demo`` prints), following the game as
    it is played, so a training position can be looked at; without a render mode it returns None,
    and before ``reset`` it says to call reset instead of failing on a missing game."""
    from aoi_env import Game
    from aoi_env.render.text import render_text
    from train.seat_env import SeatEnv

    env = SeatEnv("aoi(players=2)", "random", render_mode="ansi")
    with pytest.raises(RuntimeError, match=r"call reset\(\)"):
        env.render()
    config = env.config_for("random")
    first = Game(config, seed=21).current_seat()  # the learner decides first: no opponent move yet
    env.reset(seed=0, options={"game_seed": 21, "seat": first})
    start = env.render()
    assert isinstance(start, str) and start == render_text(Game(config, seed=21))  # the same position, drawn anew
    assert start.startswith(f"{config}  round 1, ") and f"seat {first} to decide" in start.splitlines()[0]
    rng = np.random.default_rng(0)
    for _ in range(5):
        env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
    now = env.render()
    assert now != start and now == render_text(env.game)
    assert f"seat {env.seat} to decide" in now.splitlines()[0]  # back at the learner's decision

    plain = SeatEnv("aoi(players=2)", "random")
    plain.reset(seed=0)
    assert plain.render() is None


# -- records.play: agent count, on_decision, max_decisions -------------------------------------


def test_play_rejects_a_wrong_agent_or_seed_count_naming_both_counts() -> None:
    """``play`` needs one agent (and, if given, one agent seed) per player seat; zip() would
    otherwise drop the extra seats silently or fail deep inside the game.  The ValueError names the
    count given and the count needed, before any game is played."""
    from train.records import play

    with pytest.raises(ValueError, match=re.escape("need one agent per player: got 2 for 3 players (aoi(players=3))")):
        play("aoi(players=3)", ["random", "random"], seed=1)
    with pytest.raises(ValueError, match=re.escape("need one agent per player: got 3 for 2 players")):
        play("aoi(players=2)", ["random"] * 3, seed=1)
    with pytest.raises(ValueError, match=re.escape("need one agent seed per player: got 1 for 2 players")):
        play("aoi(players=2)", ["random", "random"], seed=1, agent_seeds=[5])


def test_play_calls_on_decision_once_per_decision_before_it_is_applied() -> None:
    """``on_decision(game, action, move)`` is called before each agent decision is applied (its
    docstring; the hook a caller uses to watch, log or check a game as it is played): once per
    recorded move, with the game still at that decision (the deciding seat is the recorded one,
    the action legal there), the action id and its notation, in order."""
    from train.records import play

    calls: list[tuple[int, int, str]] = []

    def on_decision(game, action: int, move: str) -> None:
        assert action in game.legal_actions() and game.move_str(action) == move  # not yet applied
        calls.append((game.current_seat(), action, move))

    rec, game = play("aoi(players=2)", ["random", "heuristic"], seed=6, on_decision=on_decision)
    assert game.is_over() and len(calls) == len(rec.moves) > 50
    assert calls == list(zip(rec.move_seats, rec.actions, rec.moves, strict=True))


def test_play_stops_after_max_decisions_and_a_game_of_exactly_that_many_is_over() -> None:
    """``max_decisions`` caps the agent decisions of a game (a guard against a stuck agent): with
    fewer than the game needs, play stops after exactly that many decisions with a ValueError
    saying so; a game that ends on its max_decisions-th decision is finished, not an error (it was
    one: the for-else raised "not over" for a game that was over)."""
    from train.records import play

    rec, _ = play("aoi(players=2)", ["random", "random"], seed=3)
    n = len(rec.moves)
    seen: list[str] = []
    with pytest.raises(ValueError, match=re.escape("game aoi(players=2) seed 3 not over after 10 decisions")):
        play("aoi(players=2)", ["random", "random"], seed=3, max_decisions=10,
             on_decision=lambda g, a, m: seen.append(m))  # fmt: skip
    assert seen == rec.moves[:10]  # the first 10 decisions of the same game, then it stopped
    exact, game = play("aoi(players=2)", ["random", "random"], seed=3, max_decisions=n)
    assert game.is_over() and exact.moves == rec.moves and exact.scores == rec.scores
