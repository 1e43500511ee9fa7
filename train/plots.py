"""Pictures of training and tournaments: the learning curve of ``aoi train`` (``OUT/learning.png``)
and the ratings and head-to-head matrix of ``aoi tournament`` (``OUT/tournament.png``).

TensorBoard shows the same numbers live; the picture is for the end of a run, and for people who
never start TensorBoard: from ``SelfPlayStats.history`` (one entry per rollout, also saved in
``OUT/results.json`` as ``selfplay_history``), the learner's win rate and VP margin against each
opponent kind over the training steps, each smoothed over a window of rollouts weighted by the
games in them (a rollout holds only a few games per kind).  When the run evaluated periodically
(``eval.every``), a third panel shows the mean final reward of those evaluations (a line of
``OUT/eval/evaluations.npz`` per evaluation).

matplotlib (the ``eval`` extra) is imported only when a plot is drawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

WINDOW = 10  # rollouts per smoothing window


def can_plot(what: str) -> bool:
    """True if matplotlib is installed; otherwise says on stderr that ``what`` is skipped."""
    import importlib.util
    import sys

    if importlib.util.find_spec("matplotlib") is not None:
        return True
    print(f"{what} skipped: matplotlib is not installed (the eval extra)", file=sys.stderr)
    return False


def kinds_in(history: Sequence[dict[str, Any]]) -> list[str]:
    """The opponent kinds met in the history, in first-met order."""
    seen: dict[str, None] = {}
    for entry in history:
        for key, value in entry.items():
            if isinstance(value, dict):
                seen.setdefault(key)
    return list(seen)


def smoothed(
    history: Sequence[dict[str, Any]], kind: str, field: str, window: int = WINDOW
) -> tuple[np.ndarray, np.ndarray]:
    """(timesteps, values): ``field`` against ``kind``, averaged over the games of the last
    ``window`` rollouts at each rollout that had games against it."""
    if window < 1:
        raise ValueError(f"window must be at least 1 rollout, got {window}")
    steps, sums, games = [], [], []
    for entry in history:
        row = entry.get(kind)
        n = row["games"] if row else 0
        steps.append(entry["timesteps"])
        games.append(n)
        sums.append(row[field] * n if row else 0.0)
    games_c = np.convolve(np.asarray(games, dtype=float), np.ones(window))[: len(games)]
    sums_c = np.convolve(np.asarray(sums, dtype=float), np.ones(window))[: len(sums)]
    had_games = np.asarray(games) > 0
    return np.asarray(steps)[had_games], (sums_c / np.maximum(games_c, 1))[had_games]


def plot_learning(
    history: Sequence[dict[str, Any]],
    path: str | Path,
    title: str = "",
    evaluations: str | Path | None = None,
    eval_label: str = "periodic evaluation",
    window: int = WINDOW,
) -> Path:
    """Write the learning curve of ``history`` to ``path`` (see the module docstring)."""
    if not history:
        raise ValueError("no rollouts in the history: nothing to plot")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    evals = _evaluations(evaluations)
    panels = 3 if evals is not None else 2
    fig, axes = plt.subplots(panels, 1, figsize=(8, 2.6 * panels + 0.6), sharex=True)
    for kind in kinds_in(history):
        steps, win = smoothed(history, kind, "win_rate", window)
        axes[0].plot(steps, 100 * win, label=kind, lw=1.4)
        steps, margin = smoothed(history, kind, "margin", window)
        axes[1].plot(steps, margin, label=kind, lw=1.4)
    axes[0].set_ylabel("win rate %")
    axes[0].set_ylim(-2, 102)
    if axes[0].get_legend_handles_labels()[0]:
        axes[0].legend(loc="best", fontsize=8, title="opponent", title_fontsize=8)
    else:  # a run too short to finish a game: say so instead of an empty legend (and matplotlib's warning)
        for ax in axes[:2]:
            ax.text(0.5, 0.5, "no finished games yet", ha="center", va="center", transform=ax.transAxes, color="gray")
    axes[1].axhline(0, color="black", lw=0.8, ls="--")
    axes[1].set_ylabel("VP margin")
    axes[0].set_title(
        f"{title or 'self-play: the learner against each opponent kind'}\n"
        f"(each point: the games of the last {window} rollouts)",
        fontsize=10,
    )
    if evals is not None:
        steps, rewards = evals
        means = rewards.mean(axis=1)
        axes[2].plot(steps, means, "o-", color="black")
        axes[2].set_ylim(min(-1.05, means.min() - 0.05), max(1.05, means.max() + 0.05))  # rank / win: -1..1
        axes[2].set_ylabel("mean final reward")
        axes[2].set_title(eval_label, fontsize=9)
    axes[-1].set_xlabel("learner steps")
    fig.tight_layout()
    out = Path(path)
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out


def _evaluations(path: str | Path | None) -> tuple[np.ndarray, np.ndarray] | None:
    """(timesteps, rewards per game) of sb3's ``evaluations.npz``, None when absent or empty."""
    if path is None or not Path(path).exists():
        return None
    with np.load(path) as data:
        steps, results = data["timesteps"], data["results"]
    return (steps, results) if len(steps) else None


def plot_tournament(summary: dict[str, Any], path: str | Path, title: str = "") -> Path:
    """``OUT/tournament.png`` of ``aoi tournament``: each participant's win rate with its 95%
    interval (ordered by rating, the rating written beside it) and the head-to-head matrix."""
    rows = summary["participants"]
    if not rows:
        raise ValueError("no participants in the summary: nothing to plot")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [r["name"] for r in rows]
    fig, (bars, grid) = plt.subplots(1, 2, figsize=(11, 0.5 * len(rows) + 2.4), gridspec_kw={"width_ratios": [1.2, 1]})
    y = np.arange(len(rows))[::-1]  # the best rated on top
    win = np.array([np.nan_to_num(r["win_rate"]) for r in rows]) * 100
    lo = np.array([np.nan_to_num(r["win_rate_ci"][0], nan=0.0) for r in rows]) * 100
    hi = np.array([np.nan_to_num(r["win_rate_ci"][1], nan=1.0) for r in rows]) * 100
    bars.barh(y, win, color="#4a78b5", alpha=0.85)
    bars.errorbar(win, y, xerr=np.clip([win - lo, hi - win], 0, None), fmt="none", ecolor="black", capsize=3, lw=1)
    labels = [f"{r['name']}\nrating {r['mu']:.1f}±{r['sigma']:.1f}, n={r['games']}" for r in rows]
    bars.set_yticks(y, labels, fontsize=8)
    bars.set_xlim(0, 100)
    bars.set_xlabel("win rate % (95% CI; a shared first place counts 1/k)")
    matrix = np.full((len(rows), len(rows)), np.nan)
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            cell = summary["head_to_head"].get(a, {}).get(b)
            if cell and cell["games"]:
                matrix[i, j] = 100 * cell["rate"]
    grid.imshow(matrix, cmap="RdBu", vmin=0, vmax=100)
    for i in range(len(rows)):
        for j in range(len(rows)):
            if not np.isnan(matrix[i, j]):
                ink = "white" if abs(matrix[i, j] - 50) > 30 else "black"
                grid.text(j, i, f"{matrix[i, j]:.0f}", ha="center", va="center", fontsize=8, color=ink)
    grid.set_xticks(range(len(rows)), names, rotation=30, ha="right", fontsize=8)
    grid.set_yticks(range(len(rows)), names, fontsize=8)
    grid.set_title("head to head:\n% of shared games the row finished above the column", fontsize=9)
    fig.suptitle(title or "tournament")
    fig.tight_layout()
    out = Path(path)
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out
