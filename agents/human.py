"""A human at the terminal: shows the legal moves and reads one (by number or notation)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TextIO

import numpy as np

from aoi_env.core.engine import Game


class HumanAgent:
    """Reads moves from a text stream (stdin by default); re-asks on bad input.

    Type a move in notation (``build``, ``target r3c4``, ``pass``; see docs/notation.md) or the
    number shown next to it.  ``?`` shows the board again.
    """

    name = "human"

    def __init__(self, stream: TextIO | None = None, out: Callable[[str], Any] = print) -> None:
        self.stream = stream or sys.stdin
        self.out = out

    def choose(self, game: Game) -> int:
        from aoi_env.render.text import render_text

        moves = game.legal_moves()
        kind = game.pending_kind()
        self.out(f"seat {game.current_seat()} decides ({kind.name.lower() if kind else '-'}):")
        self.out("  " + "  ".join(f"[{i}] {m}" for i, m in enumerate(moves)))
        while True:
            self.out("> ", end="") if self.out is print else None
            line = self.stream.readline()
            if not line:
                raise EOFError("no more input: the human player left the game")
            text = line.strip()
            if text == "?":
                self.out(render_text(game))
                continue
            if text.isdigit() and int(text) < len(moves):
                return game.legal_actions()[int(text)]
            try:
                return game.parse_move(text)
            except ValueError as err:
                self.out(str(err))

    def act(self, observation: Any, mask: np.ndarray | None = None) -> int:
        raise ValueError("the human agent plays through the engine: use choose(game) (aoi play)")
