"""Golden playthroughs (STYLE §5.10a, OpenSpiel style): a seeded game written one decision per block.

Each block shows the decision number, the seat, the pending kind, a short resource line, the legal
moves in notation and the move applied; the file ends with the final scores.  The test replays the
recorded games and compares the regenerated text line by line, so any behaviour change shows up as
a diff (explain it in review, then regenerate)::

    python -m aoi_env.playthrough write tests/playthroughs   # regenerate every file
    python -m aoi_env.playthrough show "aoi(players=3)" 7    # print one to the terminal
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from aoi_env.core.engine import Game
from aoi_env.core.moves import ACTION_SCHEMA_VERSION
from aoi_env.core.state import P_BOWLS, P_COINS, P_FACTION, P_SCHOLARS, P_TOOLS, P_VP, STATE_SCHEMA_VERSION
from aoi_env.data.enums import Faction
from aoi_env.testing import biased_random_action

GAMES: tuple[tuple[str, int], ...] = (
    ("aoi(players=2)", 1),
    ("aoi(players=3,distribution=draft)", 2),
    ("aoi(players=4,ruleset=v1.0)", 3),
    ("aoi(players=1,automa=druids:4)", 4),
)


def file_name(game: str, seed: int) -> str:
    body = game.removeprefix("aoi(").removesuffix(")")
    return f"{body}_seed{seed}.txt".replace("=", "-").replace(",", "_").replace(":", "-").replace("+", "-")


def _who(g: Game, seat: int) -> str:
    f = int(g.state.players[seat, P_FACTION])
    return Faction(f).name.lower() if f >= 0 else ("automa" if g.is_automa(seat) else "-")


def playthrough(game: str, seed: int) -> str:
    """The playthrough text of one seeded game (biased random play seeded with ``seed``)."""
    g = Game(game, seed=seed)
    rng = np.random.default_rng(seed)
    lines = [f"game: {g.config}   seed: {seed}   schemas: action {ACTION_SCHEMA_VERSION}, state {STATE_SCHEMA_VERSION}"]
    n = 0
    while not g.is_over():
        seat = g.current_seat()
        p = g.state.players[seat]
        kind = g.pending_kind()
        bowls = "/".join(str(int(x)) for x in p[P_BOWLS])
        lines.append(
            f"# Decision {n}: seat {seat} ({_who(g, seat)}), pending: {kind.name.lower() if kind else '-'} | "
            f"VP {int(p[P_VP])}  C {int(p[P_COINS])}  T {int(p[P_TOOLS])}  S {int(p[P_SCHOLARS])}  P {bowls}"
        )
        lines.append("LegalMoves() = [" + ", ".join(f'"{m}"' for m in g.legal_moves()) + "]")
        action = biased_random_action(g, rng)
        lines.append(f'# Apply "{g.move_str(action)}"')
        g.apply_action(action)
        n += 1
    lines.append("# Final scores: " + ", ".join(f"seat {s} ({_who(g, s)}) {int(v)}" for s, v in enumerate(g.scores())))
    return "\n".join(lines) + "\n"


def write(directory: str | Path) -> list[Path]:
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for game, seed in GAMES:
        path = out / file_name(game, seed)
        path.write_text(playthrough(game, seed), encoding="utf-8")
        paths.append(path)
    return paths


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) == 2 and args[0] == "write":
        for path in write(args[1]):
            print(f"wrote {path}")
        return 0
    if len(args) == 3 and args[0] == "show":
        print(playthrough(args[1], int(args[2])), end="")
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
