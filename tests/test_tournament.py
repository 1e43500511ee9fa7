"""``aoi tournament`` (issue 8 item 2): schedule, statistics, ratings and the command on tiny sizes."""

from __future__ import annotations

import csv
import io
import json
import math
from collections import Counter
from pathlib import Path

import pytest

from aoi_env.cli import main
from aoi_env.core.config import GameConfig
from train.stats import (
    Z95,
    bootstrap_ci,
    holm,
    margins,
    mean_ci,
    normal_two_sided_p,
    student_t_quantile,
    student_t_two_sided_p,
    wilson,
    win_shares,
)
from train.tournament import (
    Participant,
    TournamentConfig,
    cycle_length,
    parse_participants,
    play_task,
    run_tournament,
    schedule,
    summarise,
)

# -- statistics ---------------------------------------------------------------------------------


def test_wilson_interval_of_5_in_10():
    """Wilson 95%: p=0.5, n=10, z=1.96: centre (0.5 + 1.92/10)/(1 + 3.84/10) = 0.5,
    half = 1.96 * sqrt(0.025 + 0.0096) / 1.384 = 0.2634 -> [0.2366, 0.7634]."""
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4)
    assert hi == pytest.approx(0.7634, abs=1e-4)
    assert wilson(0, 10)[0] == pytest.approx(0.0) and wilson(10, 10)[1] == pytest.approx(1.0)
    assert all(math.isnan(x) for x in wilson(0, 0))
    for n in range(1, 40):  # the interval always holds p, also at 0 / n and n / n (error bars >= 0)
        for k in (0, n):
            lo, hi = wilson(k, n)
            assert lo <= k / n <= hi


def test_mean_ci_and_bootstrap_contain_the_mean():
    # mean of 1..5 = 3, sd = sqrt(2.5) = 1.581, half = t(4) 2.776 * 1.581 / sqrt(5) = 1.963
    m, lo, hi = mean_ci([1, 2, 3, 4, 5])
    assert (m, round(lo, 3), round(hi, 3)) == (3.0, 1.037, 4.963)
    m, lo, hi = mean_ci([1, 2, 3, 4, 5], z=Z95)  # the normal interval on request: half = 1.386
    assert (m, round(lo, 3), round(hi, 3)) == (3.0, 1.614, 4.386)
    blo, bhi = bootstrap_ci([1, 2, 3, 4, 5], seed=1)
    assert 1 <= blo < 3 < bhi <= 5
    assert bootstrap_ci([1, 2, 3, 4, 5], seed=1) == (blo, bhi)  # deterministic for a seed


def test_student_t_matches_the_printed_table():
    # two-sided 95% quantiles from any t table; the series branch (df > 100) meets the bisection
    table = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 9: 2.262, 10: 2.228, 29: 2.045, 100: 1.984, 1000: 1.962}
    for df, t in table.items():
        assert round(student_t_quantile(df), 3) == t
    assert abs(student_t_quantile(101) - student_t_quantile(100)) < 3e-4
    assert abs(student_t_quantile(10**6) - Z95) < 1e-5
    # p-values: t = 2.0 with 10 df is p = 0.0734; the quantile gives p = 0.05 back; t = 0 is p = 1
    assert round(student_t_two_sided_p(2.0, 10), 4) == 0.0734
    for df in (1, 2, 7, 40, 300):
        assert abs(student_t_two_sided_p(-student_t_quantile(df), df) - 0.05) < 1e-6
    assert student_t_two_sided_p(0.0, 5) == 1.0
    assert abs(student_t_two_sided_p(1.96, 10**5) - normal_two_sided_p(1.96)) < 1e-4
    with pytest.raises(ValueError, match="degrees of freedom"):
        student_t_two_sided_p(1.0, 0)
    assert math.isnan(student_t_two_sided_p(math.nan, 5))  # as normal_two_sided_p: no statistic, no p
    with pytest.raises(ValueError, match="level must lie strictly between 0 and 1"):
        student_t_quantile(5, 1.0)


def test_student_t_p_values_stay_exact_far_into_the_tail():
    """``1 - coverage`` lost every digit below ~1e-13 and gave 0 below ~1e-16 (balance reports
    printed p = 0.0e+00, no possible p-value); the incomplete beta keeps them.  The values are
    mpmath's betainc at 50 digits (audit, session 13); t = 1 with 1 df is p = 1/2 exactly."""
    exact = {(8.0, 349): 1.855024127908e-14, (10.0, 349): 7.213956140178e-21,
             (12.0, 699): 2.681372520773e-30, (17.246, 349): 1.216254257858e-48}  # fmt: skip
    for (t, df), p in exact.items():
        assert student_t_two_sided_p(t, df) == pytest.approx(p, rel=1e-9, abs=0)  # approx's default abs=1e-12 took 0
        assert student_t_two_sided_p(-t, df) == student_t_two_sided_p(t, df)
    assert student_t_two_sided_p(1.0, 1) == pytest.approx(0.5, rel=1e-12)
    assert student_t_two_sided_p(1e-6, 10**4) == pytest.approx(0.999999202135386, rel=1e-12)  # x near 1
    assert student_t_two_sided_p(2e154, 1) == pytest.approx(2 / (math.pi * 2e154), rel=1e-12, abs=0)  # t^2 overflows
    assert student_t_two_sided_p(math.inf, 3) == 0.0 and student_t_two_sided_p(1e6, 3) > 0.0


def test_holm_adjustment():
    # sorted 0.01, 0.03, 0.04: 3*0.01 = 0.03; 2*0.03 = 0.06; max(0.06, 1*0.04) = 0.06
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert math.isnan(holm([math.nan, 0.5])[0])


def test_win_shares_and_margins():
    # two seats tie on 80: each gets half a win; margins are own VP - best other VP
    assert win_shares([80, 80, 60]) == [0.5, 0.5, 0.0]
    assert margins([80, 70, 60]) == [10, -10, -20]  # 80-70, 70-80, 60-80


# -- participants and schedule --------------------------------------------------------------------


def test_parse_participants_labels_and_repeats():
    ps = parse_participants(["heuristic", "random", "r2=random", "random"])
    assert [(p.name, p.spec) for p in ps] == [
        ("heuristic", "heuristic"),
        ("random", "random"),
        ("r2", "random"),
        ("random#2", "random"),
    ]
    with pytest.raises(ValueError, match="at least 2 participants"):
        parse_participants(["random"])
    with pytest.raises(ValueError, match="used twice"):
        parse_participants(["a=random", "a=heuristic"])
    model = "model:runs/quick/age_of_innovation_v0-aoi_players=2-seed0.zip"  # the name aoi train gives
    ps = parse_participants([model, "m=" + model])
    assert [(p.name, p.spec) for p in ps] == [(model, model), ("m", model)]


def test_schedule_rotates_seats_within_a_deal():
    """Deals of 3 games share a seed; every participant sits at every seat once per deal."""
    ps = parse_participants(["a=random", "b=random", "c=random"])
    tasks = schedule(ps, 3, 6, GameConfig(players=3), seed=10)
    seeds = [t.seed for t in tasks]
    assert seeds[:3] == [seeds[0]] * 3 and seeds[3:] == [seeds[3]] * 3 and seeds[0] != seeds[3]
    other = schedule(ps, 3, 30, GameConfig(players=3), seed=11)
    assert not {t.seed for t in other} & set(seeds)  # another tournament seed shares no setup
    assert [t.seats for t in tasks[:3]] == [["a", "b", "c"], ["b", "c", "a"], ["c", "a", "b"]]
    per_seat = Counter((name, seat) for t in tasks for seat, name in enumerate(t.seats))
    assert set(per_seat.values()) == {2}  # 6 games / 3 seats: each name twice at each seat
    assert all(t.game == "aoi(players=3)" for t in tasks)
    # each participant has its own random stream, fresh in every game
    assert len({s for t in tasks for s in t.agent_seeds}) == 18


def test_schedule_with_more_participants_than_seats_cycles_the_subsets():
    ps = parse_participants(["a=random", "b=random", "c=random"])
    tasks = schedule(ps, 2, 6, GameConfig(players=2), seed=0)
    # deals of 2 games over the subsets (a,b), (a,c), (b,c)
    assert [t.seats for t in tasks] == [["a", "b"], ["b", "a"], ["a", "c"], ["c", "a"], ["b", "c"], ["c", "b"]]
    with pytest.raises(ValueError, match="players must be 2..3"):
        schedule(ps, 4, 2, GameConfig(), seed=0)


def test_automa_participant_becomes_an_automa_seat_of_the_game_config():
    """An 'automa:L[:faction]' participant is an engine-level Automa seat (GameConfig automa=...,
    after the player seats), not an agent; its default faction is the first Automa faction."""
    ps = parse_participants(["random", "r2=random", "automa:3", "d=automa:5:druids"])
    assert [p.is_automa for p in ps] == [False, False, True, True]
    tasks = schedule(ps, 3, 4, GameConfig(), seed=0)
    # deal 0 = participants 0, 1, 2: two players + simpletons level 3, the two player seats rotated;
    # deal 1 = participants 0, 1, 3 (the Druids); a deal has one game per player seat
    games = ["aoi(players=2,automa=simpletons:3)"] * 2 + ["aoi(players=2,automa=druids:5)"] * 2
    assert [t.game for t in tasks] == games
    assert [t.seats for t in tasks] == [["random", "r2"], ["r2", "random"]] * 2
    assert [t.automa for t in tasks] == [["automa:3"]] * 2 + [["d"]] * 2
    assert [t.deal for t in tasks] == [0, 0, 1, 1]
    summary = summarise(ps, [play_task(t) for t in tasks[:1]])
    assert {r["name"]: r["games"] for r in summary["participants"]} == {"random": 1, "r2": 1, "automa:3": 1, "d": 0}


def test_schedule_with_automa_participants_rotates_only_the_player_seats_evenly():
    """Every agent plays each player seat equally often over whole cycles; a subset of Automas
    only makes no game (it is skipped, and a field of Automas only is an error)."""
    ps = parse_participants(["h=heuristic", "r=random", "automa:3"])
    assert cycle_length(ps, 3) == 2 and cycle_length(ps, 2) == 1 + 2 + 1  # (h,r,A); (h,r) (h,A) (r,A)
    tasks = schedule(ps, 3, 30, GameConfig(), seed=0)
    per_seat = Counter((name, seat) for t in tasks for seat, name in enumerate(t.seats))
    assert per_seat == {("h", 0): 15, ("h", 1): 15, ("r", 0): 15, ("r", 1): 15}
    two = parse_participants(["heuristic", "automa:3", "automa:druids:4"])
    tasks = schedule(two, 2, cycle_length(two, 2), GameConfig(), seed=0)
    assert [t.game for t in tasks] == ["aoi(players=1,automa=simpletons:3)", "aoi(players=1,automa=druids:4)"]
    with pytest.raises(ValueError, match="Automas only"):
        schedule(parse_participants(["automa:3", "automa:druids:4"]), 2, 1, GameConfig(), seed=0)


# -- summary -------------------------------------------------------------------------------------


def synthetic_games() -> list[dict]:
    """10 games: 'strong' always 90 VP, 'weak' always 60, 'mid' 70 except a tie on top in game 0."""
    games = []
    for i in range(10):
        seated = ["strong", "mid", "weak"][i % 3 :] + ["strong", "mid", "weak"][: i % 3]
        vp = {"strong": 90, "mid": 90 if i == 0 else 70, "weak": 60}
        games.append({"meta": {"index": i, "participants": seated}, "scores": [vp[n] for n in seated]})
    return games


def test_summarise_ratings_win_rates_and_head_to_head():
    ps = [Participant("strong", "heuristic"), Participant("mid", "random"), Participant("weak", "random")]
    summary = summarise(ps, synthetic_games())
    rows = {r["name"]: r for r in summary["participants"]}
    assert [r["name"] for r in summary["participants"]] == ["strong", "mid", "weak"]  # by ordinal
    assert rows["strong"]["mu"] > rows["mid"]["mu"] > rows["weak"]["mu"]
    # strong: 9 wins + half of the tied game 0 = 9.5 of 10; mid: 0.5
    assert rows["strong"]["wins"] == 9.5 and rows["mid"]["wins"] == 0.5 and rows["weak"]["wins"] == 0
    assert rows["strong"]["win_rate_ci"] == pytest.approx(wilson(9.5, 10))
    # strong's margin: 0 in game 0 (tie), +20 (90 - 70) in 9 games: mean 18
    assert rows["strong"]["mean_margin"] == pytest.approx(18.0)
    assert rows["weak"]["mean_vp"] == 60 and rows["weak"]["mean_rank"] == 3
    h2h = summary["head_to_head"]
    assert h2h["strong"]["mid"]["rate"] == pytest.approx(0.95)  # 9 above + 1 tie (1/2) of 10
    assert h2h["weak"]["strong"]["rate"] == 0.0 and h2h["weak"]["strong"]["games"] == 10


# -- the command -----------------------------------------------------------------------------------


def test_cli_tournament_writes_table_json_and_csv(tmp_path: Path, capsys):
    out = tmp_path / "t"
    code = main(["tournament", "--agents", "random", "r2=random", "--games", "4", "--workers", "1",
                 "--out", str(out), "--no-progress", "--records"])  # fmt: skip
    assert code == 0
    text = capsys.readouterr().out
    assert "4 games, 2 seats each, first game aoi(players=2)" in text
    assert "head-to-head" in text
    doc = json.loads((out / "tournament.json").read_text())
    rows = {r["name"]: r for r in doc["summary"]["participants"]}
    assert rows["random"]["games"] == rows["r2"]["games"] == 4
    assert rows["random"]["wins"] + rows["r2"]["wins"] == 4  # one win (or two halves) per game
    assert [g["index"] for g in doc["games"]] == [0, 1, 2, 3]
    with open(out / "participants.csv") as fh:
        assert {r["name"] for r in csv.DictReader(fh)} == {"random", "r2"}
    with open(out / "games.csv") as fh:
        assert len(list(csv.DictReader(fh))) == 4
    assert len(list((out / "records").glob("game_*.json"))) == 4
    assert main(["replay", str(out / "records" / "game_00003.json"), "--final"]) == 0
    assert (out / "tournament.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"  # train/plots.py
    assert "tournament.png" in text


def test_cli_tournament_no_plots(tmp_path: Path, capsys):
    out = tmp_path / "t"
    code = main(["tournament", "--agents", "random", "r2=random", "--games", "2", "--workers", "1",
                 "--out", str(out), "--no-progress", "--no-plots"])  # fmt: skip
    assert code == 0 and (out / "tournament.json").exists() and not (out / "tournament.png").exists()
    assert "tournament.png" not in capsys.readouterr().out


def test_tournament_in_two_processes_matches_one_process():
    """Parallel workers change nothing: every game is seeded by the schedule."""
    base = {"agents": ["random", "random"], "games": 4, "out": None, "progress": False}
    serial = run_tournament(TournamentConfig(**base, workers=1), out=io.StringIO())
    parallel = run_tournament(TournamentConfig(**base, workers=2), out=io.StringIO())
    assert serial == parallel


def test_cli_tournament_yaml_config_with_overrides(tmp_path: Path, capsys):
    cfg = tmp_path / "t.yaml"
    cfg.write_text("agents: [random, random]\ngames: 2\nworkers: 1\nprogress: false\nseed: 4\n")
    out = tmp_path / "o"
    assert main(["tournament", "--config", str(cfg), "--games", "3", "--out", str(out)]) == 0
    doc = json.loads((out / "tournament.json").read_text())
    assert doc["config"]["games"] == 3 and doc["config"]["seed"] == 4  # CLI over YAML, YAML over defaults
    assert len(doc["games"]) == 3


def test_cli_tournament_unknown_agent_exits_2(tmp_path: Path, capsys):
    code = main(["tournament", "--agents", "random", "wizard", "--games", "1", "--out", str(tmp_path)])
    assert code == 2
    assert "unknown agent 'wizard'" in capsys.readouterr().err


def test_cli_tournament_checks_the_output_folder_before_playing_and_notes_uneven_counts(tmp_path: Path, capsys):
    """An output folder that cannot be made is an exit 2 before any game; a game count that is not
    a whole cycle is played with a note that seats will be uneven."""
    blocker = tmp_path / "file"
    blocker.write_text("")
    code = main(["tournament", "--agents", "random", "random", "--games", "3", "--workers", "1",
                 "--out", str(blocker / "sub"), "--no-progress"])  # fmt: skip
    captured = capsys.readouterr()
    assert code == 2 and "cannot create the folder" in captured.err and "games" not in captured.out
    assert "3 games is not a multiple of 2" in captured.err


def test_cli_tournament_unknown_yaml_option_exits_2(tmp_path: Path, capsys):
    cfg = tmp_path / "t.yaml"
    cfg.write_text("agents: [random, random]\nrounds: 3\n")
    assert main(["tournament", "--config", str(cfg)]) == 2
    assert "unknown tournament option 'rounds'" in capsys.readouterr().err


def test_a_redirected_progress_bar_updates_every_30_seconds(monkeypatch):
    """Into a log file (stderr not a terminal) a tqdm bar writes a line per update: one every 30 s,
    not ten a second; on a terminal it stays live."""
    from train.tournament import bar_interval

    monkeypatch.setattr("sys.stderr.isatty", lambda: False, raising=False)
    assert bar_interval() == 30.0
    monkeypatch.setattr("sys.stderr.isatty", lambda: True, raising=False)
    assert bar_interval() == 0.1
