"""train/plots.py: the learning curve ``aoi train`` writes to ``OUT/learning.png``."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.test_training import needs_train
from train.plots import kinds_in, plot_learning, smoothed

PNG = b"\x89PNG\r\n\x1a\n"

HISTORY = [
    {"timesteps": 100, "random": {"games": 2, "win_rate": 0.5, "margin": 4.0}, "illegal_actions": 0},
    {"timesteps": 200, "automa:1": {"games": 1, "win_rate": 0.0, "margin": -30.0}, "illegal_actions": 0},
    {"timesteps": 300, "random": {"games": 1, "win_rate": 1.0, "margin": 10.0}, "illegal_actions": 0},
    {"timesteps": 400, "illegal_actions": 0},  # a rollout in which no game ended
]


def test_kinds_are_listed_in_first_met_order():
    assert kinds_in(HISTORY) == ["random", "automa:1"]


def test_smoothing_weights_each_rollout_by_its_games():
    steps, win = smoothed(HISTORY, "random", "win_rate", window=2)
    assert steps.tolist() == [100, 300]  # only rollouts with games against the kind
    # at 300 the window holds rollouts 200 (no random game) and 300 (1 game): 1.0
    assert win.tolist() == [0.5, 1.0]
    steps, win = smoothed(HISTORY, "random", "win_rate", window=3)
    assert win.tolist() == [0.5, pytest.approx((0.5 * 2 + 1.0) / 3)]  # 2 games at 0.5 and 1 at 1.0
    steps, margin = smoothed(HISTORY, "automa:1", "margin", window=10)
    assert steps.tolist() == [200] and margin.tolist() == [-30.0]


def test_bad_arguments_are_clear_errors(tmp_path: Path):
    with pytest.raises(ValueError, match="window must be at least 1"):
        smoothed(HISTORY, "random", "win_rate", window=0)
    with pytest.raises(ValueError, match="no rollouts"):
        plot_learning([], tmp_path / "x.png")
    assert not (tmp_path / "x.png").exists()


def test_plot_with_and_without_periodic_evaluations(tmp_path: Path):
    two = plot_learning(HISTORY, tmp_path / "two.png", evaluations=tmp_path / "missing.npz")
    npz = tmp_path / "evaluations.npz"
    np.savez(npz, timesteps=np.array([200, 400]), results=np.array([[-1.0, 1.0], [1.0, 1.0]]))
    three = plot_learning(HISTORY, tmp_path / "three.png", evaluations=npz, eval_label="vs automa:1")
    assert two.read_bytes()[:8] == PNG and three.read_bytes()[:8] == PNG
    height = lambda path: int.from_bytes(path.read_bytes()[20:24], "big")  # noqa: E731 (PNG IHDR)
    assert height(three) > height(two)  # the evaluation panel


def test_a_run_with_no_finished_game_plots_a_note_without_a_warning(tmp_path: Path, monkeypatch):
    """A run too short to finish a game still writes its plot, saying so, and matplotlib has no
    empty legend to warn about (a user's first tiny run printed a UserWarning)."""
    import warnings

    import matplotlib.axes

    texts = []
    original = matplotlib.axes.Axes.text
    monkeypatch.setattr(matplotlib.axes.Axes, "text", lambda ax, *a, **k: texts.append(a[2]) or original(ax, *a, **k))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        path = plot_learning([{"timesteps": 128, "illegal_actions": 0}], tmp_path / "none.png")
    assert path.read_bytes()[:8] == PNG
    assert texts == ["no finished games yet"] * 2
    texts.clear()
    plot_learning(HISTORY, tmp_path / "games.png")
    assert texts == []  # with games: the legend, no note


@needs_train
def test_a_fresh_run_forgets_the_evaluations_of_an_earlier_run_in_its_directory(tmp_path: Path):
    from tests.test_training import tiny
    from train.config import TrainConfig
    from train.train import run_training

    stale = tmp_path / "run" / "eval" / "evaluations.npz"
    stale.parent.mkdir(parents=True)
    np.savez(stale, timesteps=np.array([10**9]), results=np.array([[1.0]]))
    doc = tiny(tmp_path, total_timesteps=128, checkpoint_every=0, eval={"every": 0}, final_eval={"games": 0})
    summary = run_training(TrainConfig.from_dict(doc))
    assert not stale.exists()
    assert Path(summary["learning_plot"]).read_bytes()[:8] == PNG


def test_tournament_plot_and_its_clear_error(tmp_path: Path):
    from train.plots import plot_tournament
    from train.tournament import Participant, summarise

    games = [{"meta": {"index": i, "participants": ["a", "b"]}, "scores": [100 + i, 90]} for i in range(3)]
    summary = summarise([Participant("a", "random"), Participant("b", "random")], games)
    path = plot_tournament(summary, tmp_path / "t.png", title="3 games")
    assert path.read_bytes()[:8] == PNG
    with pytest.raises(ValueError, match="no participants"):
        plot_tournament({"participants": [], "head_to_head": {}}, tmp_path / "none.png")


def test_without_matplotlib_a_plot_is_skipped_with_a_note(monkeypatch, capsys):
    import importlib.util

    from train.plots import can_plot

    assert can_plot("x")
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    assert not can_plot("learning curve")
    assert "learning curve skipped: matplotlib is not installed (the eval extra)" in capsys.readouterr().err
