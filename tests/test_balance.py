"""``aoi balance`` (issue 8 item 3): even dealing of factions and boards, group statistics with
Holm-corrected outlier flags, and the command's report on a tiny run."""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from aoi_env.cli import main
from aoi_env.core.config import FACTION_NAMES, GameConfig
from train.balance import BalanceConfig, _Deck, analyse, flagged_by, group_table, schedule
from train.stats import holm


def test_deck_deals_every_faction_equally_often_without_repeats_in_a_game():
    """12 factions dealt 4 per game for 9 games = 36 cards: each faction exactly 3 times."""
    deck = _Deck(FACTION_NAMES, np.random.default_rng(0))
    hands = [deck.deal(4) for _ in range(9)]
    assert all(len(set(h)) == 4 for h in hands)
    assert set(Counter(f for h in hands for f in h).values()) == {3}  # 36 / 12 = 3


def test_r5_schedule_fixes_factions_and_boards_per_seat_for_each_player_count():
    """R5: 2-5 players; balanced mode fixes factions= and boards= in every game string, and the
    player counts alternate (2, 3, 2, 3, ...)."""
    tasks = schedule(BalanceConfig(players=[2, 3], games=3, agents=["random", "heuristic"]))
    configs = [GameConfig.parse(t.game) for t in tasks]
    assert [c.players for c in configs] == [2, 3, 2, 3, 2, 3]
    assert all(len(c.factions) == len(c.boards) == c.players for c in configs)
    assert tasks[1].agents == ["random", "heuristic", "random"]  # seat s plays agents[s % 2]
    assert len({t.seed for t in tasks}) == 6


def test_distribution_mode_leaves_the_setup_to_the_game():
    tasks = schedule(BalanceConfig(players=[4], games=2, mode="distribution", game="aoi(distribution=draft)"))
    assert [t.game for t in tasks] == ["aoi(players=4,distribution=draft)"] * 2


def rows_for(faction: str, n: int, wins: int, players: int = 2, vp: int = 60, share: float = 0.5) -> list[dict]:
    return [
        {
            "faction": faction,
            "terrain": "lake",
            "seat": i % players,
            "players": players,
            "fair": 1 / players,
            "win": 1.0 if i < wins else 0.0,
            "vp": vp + (i % 3),
            "share": share + 0.01 * (i % 3 - 1),
        }  # fmt: skip
        for i in range(n)
    ]


def test_group_win_rate_test_against_the_fair_rate():
    """8 wins in 10 two-player seatings: fair 1/2, z = (8 - 5) / sqrt(10 * 1/4) = 1.897,
    two-sided p = erfc(1.897 / sqrt 2) = 0.0578 (one group, two tests: Holm's family is the pair)."""
    (row,) = group_table(rows_for("monks", 10, 8), ["faction"], alpha=0.05, min_games=5)
    assert row["win_rate"] == 0.8 and row["fair"] == 0.5
    assert row["p_win"] == pytest.approx(0.0578, abs=1e-4)
    assert [row["p_win_holm"], row["p_share_holm"]] == holm([row["p_win"], row["p_share"]])
    assert row["win_excess"] == pytest.approx(0.3)  # 0.8 - 0.5
    assert "win+" not in row["flags"]  # 0.058 > 0.05


def test_a_faction_below_the_fair_rate_is_flagged_low():
    """10 wins in 50 two-player seatings: z = (10 - 25) / sqrt(50 * 1/4) = -15 / sqrt(12.5) =
    -3 sqrt 2, two-sided p = erfc(3) = 2.209e-5, the same as 40 wins would give; with shares
    near 0.4 against a fair 0.5 the group is flagged low in both tests."""
    (row,) = group_table(rows_for("felines", 50, 10, share=0.4), ["faction"], alpha=0.05, min_games=10)
    assert row["p_win"] == pytest.approx(math.erfc(3.0), rel=1e-9)
    assert row["flags"] == ["win-", "share-"]


def test_outliers_are_flagged_after_holm_correction_and_small_groups_are_not_tested():
    """A faction winning 40 of 50 two-player seatings is flagged (z = 15 / 3.54 = 4.24); one
    winning 25 of 50 is not; a group below min_games gets no test at all."""
    rows = rows_for("monks", 50, 40, share=0.6) + rows_for("omar", 50, 25) + rows_for("lizards", 4, 4)
    table = {r["group"]: r for r in group_table(rows, ["faction"], alpha=0.05, min_games=10)}
    assert table["monks"]["flags"] == ["win+", "share+"]
    assert table["omar"]["flags"] == []
    assert math.isnan(table["lizards"]["p_win_holm"]) and table["lizards"]["flags"] == []
    # Holm over both tests of the 2 tested groups (4 p-values): monks' share p is the smallest
    # (x 4), its win p the second (x 3, and at least the first's adjusted value)
    monks = table["monks"]
    assert monks["p_share"] < monks["p_win"] < min(table["omar"]["p_win"], table["omar"]["p_share"])
    assert monks["p_share_holm"] == pytest.approx(4 * monks["p_share"])
    assert monks["p_win_holm"] == pytest.approx(max(3 * monks["p_win"], 4 * monks["p_share"]))


def test_a_table_of_fair_groups_flags_one_at_most_alpha_of_the_time():
    """Both tests of every group form one Holm family: with no real effect (12 factions, VP
    drawn at random, 400 games of 2-5 players), a table flags a group in about 5% of 400
    repetitions at alpha 0.05, not the ~9% of correcting each test on its own (audit, session 13)."""
    rng = np.random.default_rng(5)
    factions = [f"f{k}" for k in range(12)]
    flagged_tables = 0
    for _ in range(400):
        rows = []
        for _game in range(400):
            players = int(rng.integers(2, 6))
            vp = rng.normal(100, 20, players)
            best = vp == vp.max()
            for seat, f in enumerate(rng.choice(factions, players, replace=False)):
                rows.append({"faction": str(f), "win": float(best[seat]) / best.sum(), "fair": 1 / players,
                             "share": vp[seat] / vp.sum(), "vp": vp[seat]})  # fmt: skip
        table = group_table(rows, ["faction"], alpha=0.05, min_games=10)
        flagged_tables += any(r["flags"] for r in table)
    assert flagged_tables / 400 < 0.075  # 5% +- 1.1% (sd); two families per table gave 8.6%


def test_share_test_is_against_each_seatings_own_fair_share():
    """A faction taking 2 points more than its fair share in every seating of 2-5 player games
    is a clear outlier: the test uses share - 1/P per seating, so the spread of the raw shares
    between player counts (1/2 .. 1/5) does not hide it; a fair faction is not flagged."""
    strong, fair = [], []
    for players in (2, 3, 4, 5):
        strong += rows_for("monks", 10, 10 // players, players=players, share=1 / players + 0.02)
        fair += rows_for("omar", 10, 10 // players, players=players, share=1 / players)
    table = {r["group"]: r for r in group_table(strong + fair, ["faction"], alpha=0.05, min_games=10)}
    monks, omar = table["monks"], table["omar"]
    # rows_for adds -0.01 / 0 / +0.01 in turn (mean -0.001 over 10 seatings): excess 0.019
    assert monks["share"] == pytest.approx(monks["fair"] + 0.019)
    assert monks["p_share"] < 1e-9 and "share+" in monks["flags"]
    assert monks["share_ci"][0] > monks["fair"]
    assert omar["p_share"] > 0.3 and "share+" not in omar["flags"] and "share-" not in omar["flags"]


def test_share_test_of_a_small_group_is_a_t_test():
    """Three seatings with shares 0.51, 0.52, 0.53 against a fair 1/2: excess 0.02, sd 0.01,
    t = 0.02 / (0.01 / sqrt 3) = 3.464 with 2 df, two-sided p = 0.0742 (a normal test would say
    0.0005 and flag it); the interval is excess +- 4.303 * 0.01 / sqrt 3 = +-0.0248."""
    rows = rows_for("monks", 3, 1, share=0.52)
    (row,) = group_table(rows, ["faction"], alpha=0.05, min_games=3)
    assert row["p_share"] == pytest.approx(0.0742, abs=1e-4)
    assert row["share_ci"] == pytest.approx((0.5 + 0.02 - 0.0248, 0.5 + 0.02 + 0.0248), abs=1e-4)
    assert "share+" not in row["flags"]


def test_each_plot_colours_the_groups_flagged_by_its_own_test():
    """The win-rate plot marks ``win±`` groups and the share plot ``share±`` groups: a faction
    flagged only for its score share is not drawn as a win-rate outlier."""
    rows = [{"flags": ["share+"]}, {"flags": ["win-"]}, {"flags": ["win+", "share+"]}, {"flags": []}]
    assert flagged_by(rows, "win_rate") == [False, True, True, False]
    assert flagged_by(rows, "share") == [True, False, True, False]


def test_analyse_builds_every_table():
    tables = analyse(rows_for("monks", 6, 3), alpha=0.05, min_games=2)
    assert sorted(tables) == ["faction", "faction_terrain", "players", "seat", "terrain"]
    assert tables["faction_terrain"][0]["group"] == "monks x lake"
    assert [r["group"] for r in tables["seat"]] == ["0", "1"]


def test_cli_balance_writes_report_plots_and_json(tmp_path: Path, capsys):
    out = tmp_path / "bal"
    code = main(["balance", "--agents", "random", "--players", "2", "3", "--games", "2", "--workers", "1",
                 "--out", str(out), "--html", "--no-progress", "--min-games", "1"])  # fmt: skip
    assert code == 0
    assert "4 games (10 seatings)" in capsys.readouterr().out  # 2 games x (2 + 3) seats
    for name in ("report.md", "report.html", "balance.json", "seatings.csv", "balance_faction_winrate.png",
                 "balance_terrain_winrate.png", "balance_faction_terrain_heatmap.png"):  # fmt: skip
        assert (out / name).stat().st_size > 0, name
    assert (out / "balance_faction_winrate.png").read_bytes()[:4] == b"\x89PNG"
    doc = json.loads((out / "balance.json").read_text())
    assert sum(r["n"] for r in doc["tables"]["faction"]) == 10
    # one win (or its shares) per game
    assert sum(r["wins"] for r in doc["tables"]["faction"]) == pytest.approx(4)
    report = (out / "report.md").read_text()
    assert "Holm-Bonferroni" in report and "![balance_faction_winrate.png](balance_faction_winrate.png)" in report


def test_cli_balance_distribution_mode_reads_factions_from_the_game(tmp_path: Path, capsys):
    out = tmp_path / "bal"
    assert main(["balance", "--players", "3", "--games", "1", "--mode", "distribution", "--workers", "1",
                 "--out", str(out), "--no-progress", "--no-plots"]) == 0  # fmt: skip
    assert not list(out.glob("*.png"))
    seatings = (out / "seatings.csv").read_text().splitlines()
    factions = [line.split(",")[5] for line in seatings[1:]]
    assert len(factions) == 3 and all(f in FACTION_NAMES for f in factions)


def test_cli_balance_bad_player_count_exits_2(tmp_path: Path, capsys):
    assert main(["balance", "--players", "6", "--out", str(tmp_path)]) == 2
    assert "player counts must be 2..5" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["balance", "tournament"])
def test_style515_agents_as_a_mapping_and_out_as_a_file_are_named_before_any_game(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """STYLE §5.15: ``agents: {a: random}`` in a balance config was a bare ``KeyError: 0`` from
    inside the games (a tournament called it "unknown agent 'a'"), and ``--out`` naming a file was
    ``[Errno 17] File exists``; both now say which option is wrong and what is valid, before any
    game is played."""
    config = tmp_path / "bad.yaml"
    config.write_text("agents: {a: random, b: random}\ngames: 2\n")
    assert main([command, "--config", str(config), "--out", str(tmp_path / "out"), "--no-progress"]) == 2
    assert (
        "bad value for 'agents': {'a': 'random', 'b': 'random'}; valid: a list of agent specs"
        in capsys.readouterr().err
    )
    afile = tmp_path / "afile"
    afile.write_text("")
    agents = ["--agents", "random", "random"]
    assert main([command, *agents, "--games", "2", "--out", str(afile), "--no-progress"]) == 2
    assert f"out {afile} is a file, not a folder" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()
