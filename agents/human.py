"""A human at the terminal: shows the legal moves and reads one (by number or notation)."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from typing import Any, TextIO

import numpy as np

from aoi_env.core.engine import Game

HELP = """commands:
  <number>    play the move with that number from the list
  <notation>  play a move by its notation, e.g. 'build', 'target r3c4', 'pass' (docs/notation.md)
  ?           show the board and the moves again
  <enter>     show the moves again
  help        this list
  quit        leave the game (aoi play stops)"""


class HumanQuit(EOFError):
    """The human typed ``quit``.  An ``EOFError`` so that callers which stop on end of input
    (``aoi play``) stop here too."""


class HumanAgent:
    """Reads moves from a text stream (stdin by default); re-asks on bad input.

    Type a move in notation (``build``, ``target r3c4``, ``pass``; see docs/notation.md) or the
    number shown next to it; ``?`` shows the board and the moves again, an empty line the moves,
    ``help`` lists the commands, ``quit`` leaves.  Before a decision the text view is shown when
    the board or the player table changed since the human last saw it (``show_board=False``
    turns that off); ``color`` colours it with ANSI codes (``aoi play --color``).
    """

    name = "human"

    def __init__(
        self,
        stream: TextIO | None = None,
        out: Callable[..., Any] = print,
        show_board: bool = True,
        color: bool = False,
    ) -> None:
        self.stream = stream or sys.stdin
        self.out = out
        self.show_board = show_board
        self.color = color
        self._seen = ""  # board and player table as last shown

    @staticmethod
    def _view_key(game: Game) -> str:
        from aoi_env.render.text import board_text, players_text

        return board_text(game) + players_text(game)

    def saw(self, game: Game) -> None:
        """The human has just been shown this position (``aoi play``'s round banner): the next
        decision does not print the same view again."""
        self._seen = self._view_key(game)

    def _show_if_changed(self, game: Game) -> None:
        """The whole text view, but only when the board or a player changed: within a turn most
        decisions change nothing the human has not seen yet."""
        from aoi_env.render.text import render_text

        seen = self._view_key(game)
        if seen != self._seen:
            self._seen = seen
            self.out(render_text(game, color=self.color))

    def _prompt(self, game: Game, moves: list[str]) -> None:
        from aoi_env.render.text import describe_pending

        kind = game.pending_kind()
        about = describe_pending(game)
        self.out(
            f"seat {game.current_seat()} decides ({kind.name.lower() if kind else '-'})"
            + (f": {about}" if about else ":")
        )
        self.out("  " + "  ".join(f"[{i}] {m}" for i, m in enumerate(moves)))
        self.out("  (? board, enter moves, help commands, quit leave)")

    def choose(self, game: Game) -> int:
        from aoi_env.render.text import render_text

        if self.show_board:
            self._show_if_changed(game)
        moves = game.legal_moves()
        self._prompt(game, moves)
        while True:
            if self.out is print:  # readline() does not flush stdout as input() does: the prompt
                print("> ", end="", flush=True)  # would show late, or not at all when piped
            line = self.stream.readline()
            if not line:
                raise EOFError("no more input: the human player left the game")
            text = line.strip()
            if text == "?":
                self.out(render_text(game, color=self.color))
                self._prompt(game, moves)
            elif not text:
                self._prompt(game, moves)
            elif text.lower() == "help":
                self.out(HELP)
            elif text.lower() == "quit":
                raise HumanQuit("the human player quit")
            elif re.fullmatch(r"[+-]?[0-9]+", text):  # ASCII digits: "²" is a digit to isdigit(), not to int()
                if 0 <= int(text) < len(moves):
                    return game.legal_actions()[int(text)]
                self.out(f"no move number {text} (0..{len(moves) - 1})")
            else:
                try:
                    return game.parse_move(text)
                except ValueError as err:
                    self.out(str(err))

    def act(self, observation: Any, mask: np.ndarray | None = None) -> int:
        raise ValueError("the human agent plays through the engine: use choose(game) (aoi play)")
