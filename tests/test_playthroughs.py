"""Golden playthroughs (STYLE §5.10a): regenerate every recorded game and compare line by line.

A failure names the first differing line.  If the change of behaviour is intended, regenerate with
``python -m aoi_env.playthrough write tests/playthroughs`` and explain the diff in review.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from aoi_env.playthrough import GAMES, file_name, playthrough

DIR = Path(__file__).parent / "playthroughs"


@pytest.mark.parametrize(("game", "seed"), GAMES)
def test_playthrough_matches_the_golden_file(game: str, seed: int) -> None:
    expected = (DIR / file_name(game, seed)).read_text(encoding="utf-8").splitlines()
    actual = playthrough(game, seed).splitlines()
    for i, (want, got) in enumerate(zip(expected, actual, strict=False)):
        assert got == want, f"{file_name(game, seed)} line {i + 1} differs:\n  golden: {want}\n  now:    {got}"
    assert len(actual) == len(expected), f"{file_name(game, seed)}: {len(actual)} lines, golden has {len(expected)}"
