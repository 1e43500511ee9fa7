"""``aoi balance``: many games over factions x planning boards x seats x player counts.

Each game seats the configured agents (``agents[seat % len(agents)]``) and fixes or draws its
setup by ``mode``:

* ``balanced`` (default): factions and planning boards are fixed per seat with
  ``GameConfig(factions=..., boards=...)``, dealt from shuffled decks that are refilled only when
  empty, so over a run every faction (and every terrain) is seated about equally often, at every
  seat, and the faction x terrain pairs are random;
* ``distribution``: the game's own distribution (standard sets R15 or ``draft`` R16, from the
  base game string) decides, and the factions and boards are read from the finished game.

Per faction, per terrain (planning board), per faction x terrain pair, per seat and per player
count the report gives the number of seatings, the win rate (a shared first place counts 1/k)
with a Wilson 95% interval, the mean VP and the mean score share (own VP / all VP in the game)
with Student-t 95% intervals.  The fair win rate and fair share of a group is the mean of 1/P over
its seatings (P = players in that game).  A group is *flagged* when the two-sided normal test of
"win rate = fair" (or the t test of "share = fair", on each seating's share minus its own 1/P, so that
mixing player counts adds no noise) has a Holm-adjusted p-value below ``alpha`` within its
table (Holm-Bonferroni over both tests of every group of one table, so a table of fair groups
flags one with probability at most ``alpha``; the tables themselves are not corrected against
each other) and it has at least ``min_games`` seatings.

Outputs in ``out``: ``balance.json`` (config, all tables), ``seatings.csv`` (one row per seat per
game), ``report.md`` (+ ``report.html`` with ``html: true``) and PNG plots (matplotlib, Agg; ``plots:
false`` skips them).
"""

from __future__ import annotations

import csv
import html
import json
import math
import os
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from aoi_env.core.config import FACTION_NAMES, TERRAIN_NAMES, GameConfig, is_integer
from train.config import load_yaml
from train.records import play_record, save
from train.stats import holm, mean_ci, normal_two_sided_p, student_t_two_sided_p, wilson, win_shares
from train.tournament import json_safe, run_parallel

MODES = ("balanced", "distribution")
GROUPINGS = {  # table name -> key of a seating row
    "faction": ("faction",),
    "terrain": ("terrain",),
    "faction_terrain": ("faction", "terrain"),
    "seat": ("seat",),
    "players": ("players",),
}


@dataclass
class BalanceConfig:
    agents: list[str] = field(default_factory=lambda: ["random"])  # seat s plays agents[s % len]
    players: list[int] = field(default_factory=lambda: [2, 3, 4, 5])  # player counts, games spread evenly
    games: int = 100  # per player count
    mode: str = "balanced"
    game: str = "aoi()"  # base game string (ruleset, distribution, ...); players/factions/boards set per game
    seed: int = 0
    workers: int = 2
    out: str = "runs/balance"
    alpha: float = 0.05
    min_games: int = 10  # groups with fewer seatings are never flagged
    html: bool = False
    plots: bool = True  # write the PNG plots (matplotlib)
    records: bool = False  # also save every game record under OUT/records/
    progress: bool = True

    def __post_init__(self) -> None:
        if isinstance(self.agents, str):  # "heuristic random" or "heuristic,random"
            self.agents = self.agents.replace(",", " ").split()
        if is_integer(self.players):
            self.players = [self.players]
        if isinstance(self.players, (str, dict)) or not isinstance(self.players, Sequence) or not self.players:
            raise ValueError(f"players must be a list of player counts 2..5, got {self.players!r}")
        ok = all(is_integer(p) for p in self.players)
        if not ok:  # 2.9 was played as 2
            raise ValueError(f"players must be player counts 2..5, got {self.players!r}")
        self.players = [int(p) for p in self.players]
        if self.mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}; got {self.mode!r}")
        if not self.agents:
            raise ValueError("balance needs at least one agent spec")
        from train.config import check_base_game, check_bool, check_float, check_int, check_out, check_specs

        check_specs("agents", self.agents)  # a mapping was a KeyError from agents[s % len] mid-run

        check_int("games", self.games, 1)
        check_int("workers", self.workers, 1)
        check_int("seed", self.seed, 0)
        check_int("min_games", self.min_games, 0)
        check_float("alpha", self.alpha, 0.0, 1.0, lo_open=True)
        for name in ("html", "plots", "records", "progress"):
            check_bool(name, getattr(self, name))
        check_base_game("game", self.game)
        check_out("out", self.out)
        for p in self.players:
            if not 2 <= p <= 5:
                raise ValueError(f"player counts must be 2..5, got {p}")

    @classmethod
    def from_dict(cls, doc: dict[str, Any]) -> BalanceConfig:
        valid = set(cls.__dataclass_fields__)
        unknown = sorted(set(doc) - valid, key=str)
        if unknown:
            raise ValueError(f"unknown balance option {unknown[0]!r}; valid: {', '.join(sorted(valid))}")
        return cls(**doc)


# ------------------------------------------------------------------------------------------------
# schedule and play


class _Deck:
    """Deal names from a shuffled deck, reshuffling a full deck only when it runs out."""

    def __init__(self, names: Sequence[str], rng: np.random.Generator) -> None:
        self.names, self.rng, self.cards = list(names), rng, []

    def deal(self, n: int) -> list[str]:
        out: list[str] = []
        while len(out) < n:
            if not self.cards:
                self.cards = [self.names[i] for i in self.rng.permutation(len(self.names))]
            card = self.cards.pop()
            if card in out:  # no duplicate within a game: put it back for the next game
                self.cards.insert(0, card)
                if all(c in out for c in self.cards):
                    self.cards = []
                continue
            out.append(card)
        return out


@dataclass
class BalanceTask:
    index: int
    game: str
    seed: int
    agents: list[str]
    record_dir: str | None = None


def schedule(cfg: BalanceConfig) -> list[BalanceTask]:
    """``cfg.games`` games per player count, interleaved over the counts."""
    base = GameConfig.parse(cfg.game).to_params()
    rng = np.random.default_rng([cfg.seed, 31337])
    factions, terrains = _Deck(FACTION_NAMES, rng), _Deck(TERRAIN_NAMES, rng)
    tasks = []
    for i in range(cfg.games * len(cfg.players)):
        players = cfg.players[i % len(cfg.players)]
        params = {**base, "players": players, "factions": [], "boards": []}
        if (players == 2 and params["map"] == "3-5") or (players >= 4 and params["map"] == "1-3"):
            params["map"] = "auto"  # the fixed side of the base game does not fit this count (R5)
        if cfg.mode == "balanced":
            params["factions"] = factions.deal(players)
            params["boards"] = terrains.deal(players)
        game = str(GameConfig.from_params(params))
        agents = [cfg.agents[s % len(cfg.agents)] for s in range(players)]
        tasks.append(BalanceTask(i, game, cfg.seed * 1_000_003 + i, agents))
    return tasks


def play_task(task: BalanceTask) -> list[dict[str, Any]]:
    """Play one game; one row per seat (faction, terrain, VP, win share, score share, rank)."""
    rec = play_record(task.game, task.agents, seed=task.seed)
    if task.record_dir:
        save(rec, Path(task.record_dir) / f"game_{task.index:05d}.json")
    scores = rec.scores
    total = sum(scores)
    wins = win_shares(scores)
    ranks = rec.ranks()
    n = len(scores)
    return [
        {
            "game": task.index,
            "seed": task.seed,
            "players": n,
            "seat": seat,
            "agent": task.agents[seat],
            "faction": rec.factions[seat],
            "terrain": rec.boards[seat],
            "vp": scores[seat],
            "win": wins[seat],
            "share": scores[seat] / total if total else 1.0 / n,
            "rank": ranks[seat],
            "fair": 1.0 / n,
            "decisions": len(rec.moves),
        }
        for seat in range(n)
    ]


# ------------------------------------------------------------------------------------------------
# analysis


def group_table(rows: Sequence[dict[str, Any]], keys: Sequence[str], alpha: float, min_games: int) -> list[dict]:
    """One line per group of ``rows`` sharing ``keys``: rates, means, intervals, tests and flags."""
    groups: dict[tuple, list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault(tuple(r[k] for k in keys), []).append(r)
    out = []
    for key in sorted(groups, key=lambda k: tuple(str(x) for x in k)):
        g = groups[key]
        n = len(g)
        wins = float(sum(r["win"] for r in g))
        fair = float(np.mean([r["fair"] for r in g]))
        var = sum(r["fair"] * (1 - r["fair"]) for r in g)  # binomial variance under "fair"
        z_win = (wins - fair * n) / math.sqrt(var) if var > 0 else 0.0
        # each seating's share minus its own fair share: a group mixing player counts has shares
        # near 1/2 .. 1/5, a spread that is no evidence either way and must not count as noise
        excess, lo, hi = mean_ci([r["share"] - r["fair"] for r in g])
        share = (fair + excess, fair + lo, fair + hi)
        sd_excess = float(np.std([r["share"] - r["fair"] for r in g], ddof=1)) if n > 1 else math.nan
        t_share = excess / (sd_excess / math.sqrt(n)) if n > 1 and sd_excess > 0 else math.nan
        vp = mean_ci([r["vp"] for r in g])
        out.append(
            {
                "group": " x ".join(str(x) for x in key),
                **{k: v for k, v in zip(keys, key, strict=True)},
                "n": n,
                "wins": wins,
                "win_rate": wins / n,
                "win_rate_ci": wilson(wins, n),
                "fair": fair,
                "win_excess": wins / n - fair,
                "p_win": normal_two_sided_p(z_win) if n >= 2 else math.nan,
                "mean_vp": vp[0],
                "mean_vp_ci": vp[1:],
                "share": share[0],
                "share_ci": share[1:],
                "p_share": student_t_two_sided_p(t_share, n - 1) if not math.isnan(t_share) else math.nan,
            }
        )
    # one Holm family per table: both tests of every eligible group (two tests per group flag a
    # fair table up to 2 x alpha of the time when each test is corrected on its own)
    tests = [(i, test) for i, r in enumerate(out) if r["n"] >= min_games for test in ("win", "share")]
    for r in out:
        r["p_win_holm"] = r["p_share_holm"] = math.nan
    for (i, test), p in zip(tests, holm([out[i][f"p_{test}"] for i, test in tests]), strict=True):
        out[i][f"p_{test}_holm"] = p
    for r in out:
        flags = []
        if r["p_win_holm"] < alpha:
            flags.append("win+" if r["win_excess"] > 0 else "win-")
        if r["p_share_holm"] < alpha:
            flags.append("share+" if r["share"] > r["fair"] else "share-")
        r["flags"] = flags
    return out


def analyse(rows: Sequence[dict[str, Any]], alpha: float, min_games: int) -> dict[str, list[dict]]:
    return {name: group_table(rows, keys, alpha, min_games) for name, keys in GROUPINGS.items()}


# ------------------------------------------------------------------------------------------------
# plots


def flagged_by(rows: Sequence[dict[str, Any]], value: str) -> list[bool]:
    """Per row: flagged by the test of the plotted ``value`` (``win_rate``: ``win±``, ``share``: ``share±``)."""
    test = "win" if value == "win_rate" else "share"
    return [any(flag.startswith(test) for flag in r["flags"]) for r in rows]


def _plot_rates(
    table: list[dict], title: str, path: Path, value: str = "win_rate", ci: str = "win_rate_ci", by_value: bool = True
) -> None:
    """Horizontal bars with 95% intervals and the fair rate; groups flagged by this plot's own test
    (``win±`` on the win-rate plot, ``share±`` on the share plot) in red."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = sorted(table, key=lambda r: r[value]) if by_value else table[::-1]
    labels = [r["group"] for r in rows]
    vals = np.array([r[value] for r in rows]) * 100
    lo = np.array([r[ci][0] for r in rows]) * 100
    hi = np.array([r[ci][1] for r in rows]) * 100
    fair = np.array([r["fair"] for r in rows]) * 100
    flagged_here = flagged_by(rows, value)
    colours = ["#c0392b" if f else "#4a78b5" for f in flagged_here]
    fig, ax = plt.subplots(figsize=(8, 0.38 * len(rows) + 1.6))
    y = np.arange(len(rows))
    ax.barh(y, vals, color=colours, alpha=0.85)
    err = np.clip(np.vstack([np.nan_to_num(vals - lo), np.nan_to_num(hi - vals)]), 0, None)
    ax.errorbar(vals, y, xerr=err, fmt="none", ecolor="black", capsize=3, lw=1)
    if np.allclose(fair, fair[0]):
        ax.axvline(fair[0], color="black", ls="--", lw=1, label=f"fair {fair[0]:.1f}%")
    else:
        ax.scatter(fair, y, marker="D", s=28, facecolor="white", edgecolor="black", label="fair (mean 1/P)", zorder=3)
    handles, _ = ax.get_legend_handles_labels()
    if any(flagged_here):
        from matplotlib.patches import Patch

        handles.append(Patch(color="#c0392b", alpha=0.85, label="flagged (Holm p < alpha)"))
    ax.set_yticks(y, [f"{lab} (n={r['n']})" for lab, r in zip(labels, rows, strict=True)])
    ax.set_xlabel(("win rate" if value == "win_rate" else "score share") + " % (95% CI)")
    ax.set_title(title)
    ax.legend(handles=handles, loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _plot_heatmap(table: list[dict], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    factions = sorted({r["faction"] for r in table})
    terrains = [t for t in TERRAIN_NAMES if any(r["terrain"] == t for r in table)]
    grid = np.full((len(factions), len(terrains)), np.nan)
    counts = np.zeros_like(grid)
    for r in table:
        i, j = factions.index(r["faction"]), terrains.index(r["terrain"])
        grid[i, j] = r["win_excess"] * 100
        counts[i, j] = r["n"]
    lim = max(5.0, float(np.nanmax(np.abs(grid))) if np.isfinite(grid).any() else 5.0)
    fig, ax = plt.subplots(figsize=(1.0 * len(terrains) + 3, 0.45 * len(factions) + 1.8))
    im = ax.imshow(grid, cmap="RdBu_r", vmin=-lim, vmax=lim, aspect="auto")
    ax.set_xticks(range(len(terrains)), terrains, rotation=30, ha="right")
    ax.set_yticks(range(len(factions)), factions)
    for i in range(len(factions)):
        for j in range(len(terrains)):
            if counts[i, j]:
                ink = "white" if abs(grid[i, j]) > 0.6 * lim else "black"
                ax.text(
                    j, i, f"{grid[i, j]:+.0f}\nn={int(counts[i, j])}", ha="center", va="center", fontsize=6, color=ink
                )
    fig.colorbar(im, ax=ax, label="win rate - fair (percentage points)")
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _plot_vp_box(rows: Sequence[dict[str, Any]], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    factions = sorted({r["faction"] for r in rows})
    data = [[r["vp"] for r in rows if r["faction"] == f] for f in factions]
    fig, ax = plt.subplots(figsize=(9, 4.5))
    ax.boxplot(data, tick_labels=factions, showmeans=True)
    ax.set_ylabel("final VP")
    ax.set_title(title)
    plt.setp(ax.get_xticklabels(), rotation=30, ha="right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


PLOTS = {
    "faction_winrate": "Win rate by faction",
    "terrain_winrate": "Win rate by planning board (terrain)",
    "faction_share": "Score share by faction",
    "seat_winrate": "Win rate by seat",
    "faction_terrain_heatmap": "Win rate - fair, faction x terrain",
    "faction_vp": "Final VP by faction",
}


def write_plots(tables: dict[str, list[dict]], rows: Sequence[dict[str, Any]], out: Path, subtitle: str) -> list[str]:
    """The PNG plots of ``PLOTS``; returns their file names."""
    names = []
    for key, title in PLOTS.items():
        path = out / f"balance_{key}.png"
        full = f"{title}\n{subtitle}"
        if key == "faction_winrate":
            _plot_rates(tables["faction"], full, path)
        elif key == "terrain_winrate":
            _plot_rates(tables["terrain"], full, path)
        elif key == "faction_share":
            _plot_rates(tables["faction"], full, path, "share", "share_ci")
        elif key == "seat_winrate":
            _plot_rates(tables["seat"], full, path, by_value=False)
        elif key == "faction_terrain_heatmap":
            _plot_heatmap(tables["faction_terrain"], path, full)
        else:
            _plot_vp_box(rows, path, full)
        names.append(path.name)
    return names


# ------------------------------------------------------------------------------------------------
# report


def _pct(v: float) -> str:
    return "-" if v is None or math.isnan(v) else f"{100 * v:.1f}"


def _ci(ci: Sequence[float], pct: bool = True) -> str:
    lo, hi = ci
    if math.isnan(lo):
        return "-"
    return f"[{_pct(lo)}, {_pct(hi)}]" if pct else f"[{lo:.1f}, {hi:.1f}]"


def _p(v: float) -> str:
    return "-" if math.isnan(v) else (f"{v:.3f}" if v >= 0.001 else f"{v:.1e}")


TABLE_HEADER = ["group", "n", "win %", "95% CI", "fair %", "p (Holm)", "mean VP", "95% CI", "share %", "95% CI",
                "p share (Holm)", "flag"]  # fmt: skip


def table_cells(table: list[dict]) -> list[list[str]]:
    return [
        [
            r["group"],
            str(r["n"]),
            _pct(r["win_rate"]),
            _ci(r["win_rate_ci"]),
            _pct(r["fair"]),
            _p(r["p_win_holm"]),
            f"{r['mean_vp']:.1f}",
            _ci(r["mean_vp_ci"], pct=False),
            _pct(r["share"]),
            _ci(r["share_ci"]),
            _p(r["p_share_holm"]),
            " ".join(r["flags"]),
        ]  # fmt: skip
        for r in table
    ]


def markdown_table(header: list[str], cells: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(c) + " |" for c in cells]
    return "\n".join(lines)


def html_table(header: list[str], cells: list[list[str]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in cells)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


TABLE_TITLES = {
    "faction": "Factions",
    "terrain": "Planning boards (home terrain)",
    "seat": "Seats",
    "players": "Player counts",
    "faction_terrain": "Faction x terrain pairs",
}


def flagged(tables: dict[str, list[dict]]) -> list[tuple[str, dict]]:
    return [(name, r) for name, table in tables.items() for r in table if r["flags"] and name != "players"]


def report_markdown(cfg: BalanceConfig, tables: dict[str, list[dict]], plots: list[str], n_games: int) -> str:
    lines = [
        "# Balance report",
        "",
        f"{n_games} games; agents {', '.join(cfg.agents)}; player counts {', '.join(map(str, cfg.players))}; "
        f"mode `{cfg.mode}`; base game `{cfg.game}`; seed {cfg.seed}.",
        "",
        "Win rate: a shared first place counts 1/k. *fair* = mean of 1/P over the group's seatings. "
        "Intervals are 95% (Wilson for win rates, Student t for means). p-values test win rate = fair "
        "(two-sided normal test) and score share = fair (two-sided t test), Holm-Bonferroni-adjusted "
        "within each table over both tests of the "
        f"groups with at least {cfg.min_games} seatings; flagged: adjusted p < {cfg.alpha}. The tables are not "
        "corrected against each other, and the player-count table is a sanity check (its fair rate is "
        "exact by construction).",
        "",
        "## Flagged outliers",
        "",
    ]
    flags = flagged(tables)
    if flags:
        for name, r in flags:
            lines.append(
                f"- {TABLE_TITLES[name].lower()}: **{r['group']}** {' '.join(r['flags'])} "
                f"(win {_pct(r['win_rate'])}% {_ci(r['win_rate_ci'])} vs fair {_pct(r['fair'])}%, "
                f"share {_pct(r['share'])}%, n={r['n']})"
            )
    else:
        lines.append("None at this sample size.")
    lines.append("")
    for name in ("faction", "terrain", "seat", "players", "faction_terrain"):
        lines += [f"## {TABLE_TITLES[name]}", "", markdown_table(TABLE_HEADER, table_cells(tables[name])), ""]
    if plots:
        lines += ["## Plots", ""]
        lines += [f"![{p}]({p})" for p in plots]
    return "\n".join(lines) + "\n"


def report_html(markdown_title: str, cfg: BalanceConfig, tables: dict[str, list[dict]], plots: list[str]) -> str:
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{html.escape(markdown_title)}</title>",
        "<style>body{font-family:sans-serif;margin:1em}table{border-collapse:collapse;font-size:12px}"
        "td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}td:first-child{text-align:left}</style>",
        "</head><body>",
        f"<h1>{html.escape(markdown_title)}</h1>",
        f"<p>agents {html.escape(', '.join(cfg.agents))}; players {cfg.players}; mode {cfg.mode}; "
        f"base game {html.escape(cfg.game)}; seed {cfg.seed}</p>",
    ]
    for name in ("faction", "terrain", "seat", "players", "faction_terrain"):
        parts += [f"<h2>{html.escape(TABLE_TITLES[name])}</h2>", html_table(TABLE_HEADER, table_cells(tables[name]))]
    parts += [f"<p><img src='{html.escape(p)}' alt='{html.escape(p)}'></p>" for p in plots]
    parts.append("</body></html>")
    return "\n".join(parts)


def run_balance(cfg: BalanceConfig, out: TextIO | None = None) -> dict[str, Any]:
    """Play, analyse, write JSON/CSV/plots/report into ``cfg.out``; returns the tables."""
    stream = out or sys.stdout
    tasks = schedule(cfg)
    from agents import make_agent

    for spec in cfg.agents:  # fail before starting workers on a bad spec
        make_agent(spec, seed=0)
    from aoi_env.cli import check_output_folder

    check_output_folder(cfg.out, "out")  # a file there was a bare "[Errno 17] File exists"
    out_dir = Path(cfg.out)
    if cfg.records:
        for t in tasks:
            t.record_dir = str(out_dir / "records")
    per_game = run_parallel(play_task, tasks, cfg.workers, "balance", cfg.progress)
    rows = [r for game in per_game for r in game]
    tables = analyse(rows, cfg.alpha, cfg.min_games)
    subtitle = f"{len(tasks)} games, {'/'.join(map(str, cfg.players))} players, agents {'+'.join(cfg.agents)}"
    doc = {"config": asdict(cfg), "games": len(tasks), "tables": tables}  # the data first: a plot
    (out_dir / "balance.json").write_text(json.dumps(json_safe(doc), indent=1) + "\n", encoding="utf-8")
    with open(out_dir / "seatings.csv", "w", newline="", encoding="utf-8") as fh:  # error loses no games
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    plots = write_plots(tables, rows, out_dir, subtitle) if cfg.plots else []
    (out_dir / "report.md").write_text(report_markdown(cfg, tables, plots, len(tasks)), encoding="utf-8")
    if cfg.html:
        (out_dir / "report.html").write_text(report_html("Balance report", cfg, tables, plots), encoding="utf-8")
    print(f"{len(tasks)} games ({len(rows)} seatings) -> {out_dir}", file=stream)
    print(markdown_table(TABLE_HEADER, table_cells(tables["faction"])), file=stream)
    flags = flagged(tables)
    print(f"flagged outliers: {len(flags)}", file=stream)
    for name, r in flags:
        print(f"  {name}: {r['group']} {' '.join(r['flags'])}", file=stream)
    return tables


def config_from(path: str | os.PathLike[str] | None, overrides: dict[str, Any]) -> BalanceConfig:
    doc = load_yaml(path, "balance")
    doc.update({k: v for k, v in overrides.items() if v is not None})
    return BalanceConfig.from_dict(doc)
