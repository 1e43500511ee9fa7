"""The ``aoi`` command: one entry point with subcommands (later issues add train, eval, play, ...)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from aoi_env import __version__

Command = Callable[[argparse.Namespace], int]
_COMMANDS: dict[str, tuple[Callable[[argparse.ArgumentParser], None], Command]] = {}


def command(name: str, help_text: str) -> Callable[[Callable[[argparse.ArgumentParser], None]], Callable]:
    """Register a subcommand: the decorated function adds its arguments; ``run`` is attached later."""

    def wrap(add_args: Callable[[argparse.ArgumentParser], None]) -> Callable:
        def bind(run: Command) -> Command:
            _COMMANDS[name] = (add_args, run)
            _HELP[name] = help_text
            return run

        return bind

    return wrap


_HELP: dict[str, str] = {}


def _setup_demo_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=int, default=3, help="number of players, 2-5 (default 3)")
    p.add_argument("--seed", type=int, default=0, help="random seed (same seed, same game)")
    p.add_argument("--game", default=None, help="full game string, e.g. 'aoi(players=4,distribution=draft)'")
    p.add_argument("--color", action="store_true", help="colour the terrains with ANSI codes")


@command("setup-demo", "print a freshly set-up game (setup choices taken at random)")(_setup_demo_args)
def _setup_demo(args: argparse.Namespace) -> int:
    from aoi_env.core.config import GameConfig
    from aoi_env.core.engine import Game
    from aoi_env.render.text import render_text

    params = GameConfig.parse(args.game).to_params() if args.game else {"players": args.players}
    params["setup_choices"] = "random"
    game = Game(GameConfig.from_params(params), seed=args.seed)
    print(f"seed {args.seed}")
    print(render_text(game, color=args.color))
    return 0


def _demo_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=int, default=3, help="number of players, 2-5 (default 3)")
    p.add_argument("--seed", type=int, default=0, help="random seed for the setup and the players")
    p.add_argument("--game", default=None, help="full game string, e.g. 'aoi(players=4,ruleset=v1.0)'")
    p.add_argument("--moves", action="store_true", help="print every decision")


@command("demo", "play one full game between random players and print the result")(_demo_args)
def _demo(args: argparse.Namespace) -> int:
    import numpy as np

    from aoi_env.core.config import GameConfig
    from aoi_env.core.engine import Game
    from aoi_env.render.text import render_text

    params = GameConfig.parse(args.game).to_params() if args.game else {"players": args.players}
    game = Game(GameConfig.from_params(params), seed=args.seed)
    rng = np.random.default_rng(args.seed)
    decisions = 0
    while not game.is_over():
        legal = game.legal_actions()
        action = legal[int(rng.integers(len(legal)))]
        if args.moves:
            print(f"{decisions:5d} seat {game.current_seat()}: {game.move_str(action)}")
        game.apply_action(action)
        decisions += 1
    print(render_text(game))
    print(
        f"\n{decisions} decisions; final VP: " + ", ".join(f"seat {i}: {int(v)}" for i, v in enumerate(game.scores()))
    )
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="aoi", description="Age of Innovation RL environment tools")
    parser.add_argument("--version", action="version", version=f"aoi-env {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (add_args, _) in _COMMANDS.items():
        add_args(sub.add_parser(name, help=_HELP[name], description=_HELP[name]))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return 0
    try:
        return _COMMANDS[args.command][1](args)
    except ValueError as err:
        print(f"aoi {args.command}: error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
