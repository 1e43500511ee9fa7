"""The ``aoi`` command: one entry point with subcommands (setup-demo, demo, play, replay, tournament,
balance, bench, fuzz, train, eval; ``aoi --help`` lists them)."""

from __future__ import annotations

import argparse
import contextlib
import os
import select
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from aoi_env import __version__

Command = Callable[[argparse.Namespace], int]
_COMMANDS: dict[str, tuple[Callable[[argparse.ArgumentParser], None], Command]] = {}


def check_output_file(path: str | None, option: str) -> None:
    """Fail before the work rather than after it: the file's folder exists (it is created) and
    the path is not a folder."""
    if not path:
        return
    target = Path(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ValueError(f"{option} {path}: cannot create its folder ({err.strerror or err})") from None
    if target.is_dir():
        raise ValueError(f"{option} {path} is a folder, not a file")


def check_output_folder(path: str | None, option: str) -> None:
    """Fail before the work rather than after it: the folder exists or can be made."""
    if not path:
        return
    target = Path(path)
    if target.exists() and not target.is_dir():
        raise ValueError(f"{option} {path} is a file, not a folder")
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ValueError(f"{option} {path}: cannot create the folder ({err.strerror or err})") from None


def seed_arg(text: str) -> int:
    """argparse type of ``--seed``: a non-negative integer (numpy's error would not name the option)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {value}")
    return value


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
    p.add_argument("--seed", type=seed_arg, default=0, help="random seed (same seed, same game)")
    p.add_argument("--game", default=None, help="full game string, e.g. 'aoi(players=4,distribution=draft)'")
    p.add_argument("--color", action="store_true", help="colour the terrains with ANSI codes")


@command("setup-demo", "print a freshly set-up game (setup choices taken at random)")(_setup_demo_args)
def _setup_demo(args: argparse.Namespace) -> int:
    from aoi_env.core.config import GameConfig
    from aoi_env.core.engine import Game
    from aoi_env.render.text import render_text

    params = GameConfig.parse_params(args.game) if args.game else {}
    params.setdefault("players", args.players)  # --players unless the game string names them
    params["setup_choices"] = "random"
    game = Game(GameConfig.from_params(params), seed=args.seed)
    print(f"seed {args.seed}")
    print(render_text(game, color=args.color))
    return 0


def _demo_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=int, default=3, help="number of players, 2-5 (default 3)")
    p.add_argument("--seed", type=seed_arg, default=0, help="random seed for the setup and the players")
    p.add_argument("--game", default=None, help="full game string, e.g. 'aoi(players=4,ruleset=v1.0)'")
    p.add_argument("--moves", action="store_true", help="print every decision")


@command("demo", "play one full game between random players and print the result")(_demo_args)
def _demo(args: argparse.Namespace) -> int:
    import numpy as np

    from aoi_env.core.config import GameConfig
    from aoi_env.core.engine import Game
    from aoi_env.render.text import render_text

    params = GameConfig.parse_params(args.game) if args.game else {}
    params.setdefault("players", args.players)  # --players unless the game string names them
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


# -- tools (issue 8): replay, tournament, balance, bench; imports stay inside the run functions ----


def _play_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--agents",
        default="heuristic,automa:3",
        help="comma-separated seats: random, heuristic, human, model:PATH, "
        "automa:LEVEL[:FACTION[:TERRAIN]] or automa:FACTION:LEVEL[:TERRAIN] "
        "(Automa seats come after the players; default: heuristic,automa:3)",
    )
    p.add_argument("--game", default=None, help="further game parameters, e.g. 'aoi(ruleset=v1.0,map=1-3)'")
    p.add_argument("--seed", type=seed_arg, default=0, help="seed of the setup and of the agents")
    p.add_argument(
        "--watch",
        choices=("moves", "rounds", "end"),
        default=None,
        help="print every decision, each round, or the end (default: moves when a human plays, so that "
        "they see the other seats' moves; else rounds)",
    )
    p.add_argument("--color", action="store_true", help="colour the terrains with ANSI codes")
    p.add_argument("--record", default=None, help="save the game record (JSON) to this file")


@command("play", "play one game between agents (and the Automa) and watch it in the terminal")(_play_args)
def _play(args: argparse.Namespace) -> int:
    from agents import automa_seat_spec, make_agent
    from agents.human import HumanAgent
    from aoi_env.core.config import GameConfig
    from aoi_env.core.engine import Game
    from aoi_env.render.text import render_text
    from train.records import GameRecord, finish_record, save

    specs = [x.strip() for x in args.agents.split(",") if x.strip()]
    automa = [a for a in (automa_seat_spec(x) for x in specs) if a]
    players = [x for x in specs if automa_seat_spec(x) is None]
    if not players:
        raise ValueError("--agents needs at least one player besides the Automa")
    check_output_file(args.record, "--record")
    params = GameConfig.parse_params(args.game) if args.game else {}
    seats = sorted({"players", "automa"} & set(params))
    if seats:
        raise ValueError(f"--game may not set {', '.join(seats)}: the seats come from --agents "
                         f"(e.g. --agents heuristic,automa:druids:2)")  # fmt: skip
    seeds = [args.seed * 100 + seat for seat in range(len(players))]
    agents = [make_agent(spec, seed=seed) for spec, seed in zip(players, seeds, strict=True)]  # names a bad spec
    if len(players) == 1 and not automa:
        raise ValueError(f"one player plays against the Automa: e.g. --agents {players[0]},automa:1 (or 2-5 players)")
    params.update(players=len(players), automa=tuple(automa))
    config = GameConfig.from_params(params)
    watch = args.watch or ("moves" if any(p.split(":")[0].lower() == "human" for p in players) else "rounds")
    for agent in agents:
        if isinstance(agent, HumanAgent):
            agent.color = args.color
    game = Game(config, seed=args.seed)
    record = GameRecord(game=str(config), seed=args.seed, agents=players, agent_seeds=seeds)
    names = [*players, *(f"automa:{a}" for a in automa)]
    print(f"{config}  seed {args.seed}: " + ", ".join(f"seat {i} = {n}" for i, n in enumerate(names)))
    watching: contextlib.AbstractContextManager[Any] = contextlib.nullcontext()
    if watch == "moves":  # the Automa's steps happen inside the move that hands her the turn
        from aoi_env.core.flow import automa_frames

        watching = automa_frames(  # this game's turns only, not those an agent's lookahead plays in clones
            lambda g: None, lambda g, seat, what: print(f"      seat {seat} (Automa): {what}"), game=game
        )
    with watching:
        _play_loop(game, agents, players, record, watch, args.color)
    print("\n== final ==\n" + render_text(game, color=args.color))
    scores = game.scores()
    best = int(scores.max())
    for seat, vp in enumerate(scores):
        print(f"seat {seat} {names[seat]:<24} {int(vp):4d} VP" + ("  winner" if vp == best else ""))
    if args.record:  # the game just played, not a new one (a human would have to play it again)
        finish_record(record, game)
        save(record, args.record)
        print(f"record written to {args.record}")
    return 0


def _play_loop(game: Any, agents: list[Any], players: list[str], record: Any, watch: str, color: bool) -> None:
    """``aoi play``'s game loop: ask the deciding seat's agent, print (``watch``) and record each move."""
    from aoi_env.core.state import G_ROUND
    from aoi_env.render.text import render_text

    last_round = int(game.state.glob[G_ROUND])
    while not game.is_over():
        seat = game.current_seat()
        action = agents[seat].choose(game)
        text = game.move_str(action)
        if watch == "moves":
            print(f"{len(record.moves) + 1:5d} seat {seat} ({players[seat]}): {text}")
        game.apply_action(action)
        record.moves.append(text)
        record.actions.append(int(action))
        record.move_seats.append(seat)
        rnd = int(game.state.glob[G_ROUND])
        if watch in ("moves", "rounds") and rnd != last_round and not game.is_over():
            print(f"\n== round {rnd} ==\n" + render_text(game, color=color))
            for agent in agents:  # a human deciding next has just seen this view: not twice
                if hasattr(agent, "saw"):
                    agent.saw(game)
        last_round = rnd


def _replay_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="a game record (JSON) from aoi play --record or aoi tournament --records")
    p.add_argument("--final", action="store_true", help="print only the final position, not every move")
    p.add_argument("--svg", metavar="DIR", default=None, help="write one SVG frame per position into DIR")
    p.add_argument("--html", metavar="FILE", default=None, help="write a self-contained HTML page with a slider")
    p.add_argument("--color", action="store_true", help="colour the terrains with ANSI codes")


@command("replay", "replay a game record move by move (fails naming the move if it does not reproduce)")(_replay_args)
def _replay(args: argparse.Namespace) -> int:
    from train.replay import run_replay

    check_output_file(args.html, "--html")
    check_output_folder(args.svg, "--svg")
    run_replay(args.file, final=args.final, svg_dir=args.svg, html_file=args.html, color=args.color)
    return 0


def _tournament_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", metavar="YAML", default=None, help="options file or shipped config name (tournament)")
    p.add_argument("--agents", nargs="+", metavar="SPEC", default=None,
                   help="participants: agent specs (random, heuristic, ...) or label=spec")  # fmt: skip
    p.add_argument("--players", type=int, default=None, help="seats per game (default: number of participants)")
    p.add_argument("--games", type=int, default=None, help="number of games")
    p.add_argument("--workers", type=int, default=None, help="parallel processes (default 2)")
    p.add_argument("--seed", type=seed_arg, default=None, help="base seed (game seeds and agent seeds derive from it)")
    p.add_argument("--game", default=None, help="base game string, e.g. 'aoi(ruleset=v1.0)'")
    p.add_argument("--out", default=None, help="output directory for tournament.json / *.csv")
    p.add_argument("--records", action="store_true", default=None, help="also save every game record")
    p.add_argument("--max-decisions", dest="max_decisions", type=int, default=None, help="per-game safety cap")
    p.add_argument("--no-progress", dest="progress", action="store_false", default=None, help="no progress bar")
    p.add_argument("--no-plots", dest="plots", action="store_false", default=None, help="skip OUT/tournament.png")


@command("tournament", "play N games between agents: ratings, win rates, margins with 95%% CIs")(_tournament_args)
def _tournament(args: argparse.Namespace) -> int:
    from train.config import load_yaml
    from train.tournament import TournamentConfig, run_tournament

    doc = load_yaml(args.config, "tournament")
    keys = ("agents", "players", "games", "workers", "seed", "game", "out", "records", "max_decisions", "progress",
            "plots")  # fmt: skip
    doc.update({k: getattr(args, k) for k in keys if getattr(args, k) is not None})
    run_tournament(TournamentConfig.from_dict(doc))
    return 0


def _balance_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", metavar="YAML", default=None, help="options file or shipped config name (balance)")
    p.add_argument("--agents", nargs="+", metavar="SPEC", default=None, help="agent specs; seat s plays agents[s %% n]")
    p.add_argument("--players", nargs="+", type=int, default=None, help="player counts, e.g. 2 3 4 5")
    p.add_argument("--games", type=int, default=None, help="games per player count")
    p.add_argument("--mode", choices=("balanced", "distribution"), default=None,
                   help="balanced: fixed factions/boards dealt evenly; distribution: the game's own setup")  # fmt: skip
    p.add_argument("--game", default=None, help="base game string, e.g. 'aoi(ruleset=v1.0)'")
    p.add_argument("--seed", type=seed_arg, default=None, help="base seed")
    p.add_argument("--workers", type=int, default=None, help="parallel processes (default 2)")
    p.add_argument("--out", default=None, help="output directory (report.md, plots, balance.json)")
    p.add_argument("--alpha", type=float, default=None, help="significance level after Holm correction (0.05)")
    p.add_argument("--min-games", dest="min_games", type=int, default=None, help="smallest group that is tested")
    p.add_argument("--html", action="store_true", default=None, help="also write report.html")
    p.add_argument("--no-plots", dest="plots", action="store_false", default=None, help="skip the PNG plots")
    p.add_argument("--records", action="store_true", default=None, help="also save every game record")
    p.add_argument("--no-progress", dest="progress", action="store_false", default=None, help="no progress bar")


@command("balance", "faction / terrain / seat balance report over many games (plots + Markdown)")(_balance_args)
def _balance(args: argparse.Namespace) -> int:
    from train.balance import config_from, run_balance

    keys = ("agents", "players", "games", "mode", "game", "seed", "workers", "out", "alpha", "min_games", "html",
            "plots", "records", "progress")  # fmt: skip
    run_balance(config_from(args.config, {k: getattr(args, k) for k in keys}))
    return 0


def _bench_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", nargs="+", type=int, default=[2, 3, 4, 5], help="player counts for games/s")
    p.add_argument("--games", type=int, default=3, help="random games per player count (default 3)")
    p.add_argument("--decisions", type=int, default=3000, help="decisions timed for engine and env rates")
    p.add_argument("--seed", type=seed_arg, default=0, help="seed of the games and the random play")
    p.add_argument("--json", metavar="FILE", default=None, help="write the results as JSON")
    p.add_argument("--compare", metavar="FILE", default=None, help="an earlier --json file: show the ratios")
    p.add_argument("--no-env", dest="env", action="store_false", help="skip the PettingZoo raw_env measurement")
    p.add_argument("--instructions", action="store_true",
                   help="count instructions per decision under valgrind, not time (exact A/B)")  # fmt: skip


@command("bench", "single-core speed: engine and env decisions/s, games/s, clone/observation time, memory")(_bench_args)
def _bench(args: argparse.Namespace) -> int:
    from aoi_env.bench import run_bench

    check_output_file(args.json, "--json")
    run_bench(
        players=args.players, games=args.games, decisions=args.decisions, seed=args.seed,
        json_path=args.json, compare=args.compare, with_env=args.env, instructions=args.instructions,
    )  # fmt: skip
    return 0


def _fuzz_args(p: argparse.ArgumentParser) -> None:
    """Arguments of ``aoi fuzz`` (also ``python -m aoi_env.fuzz``; see aoi_env/fuzz.py, docs/reliability.md)."""
    p.add_argument("--games", type=int, default=1000, help="number of games (default 1000)")
    p.add_argument("--workers", type=int, default=2, help="parallel processes (default 2)")
    p.add_argument("--seed", type=seed_arg, default=0, help="base seed: configurations and game seeds derive from it")
    p.add_argument("--start", type=int, default=0, help="index of the first game (to continue a run)")
    p.add_argument("--oracle-every", dest="oracle_every", type=int, default=500,
                   help="every N-th game also runs the full oracle (0 = never; default 500)")  # fmt: skip
    p.add_argument("--max-decisions", dest="max_decisions", type=int, default=20_000,
                   help="a game without an end after this many decisions fails (default 20000)")  # fmt: skip
    p.add_argument("--json", metavar="FILE", default=None, help="also write the summary as JSON")
    p.add_argument("--no-progress", dest="progress", action="store_false", help="no progress bar")
    p.add_argument("--repro", metavar="CONFIG", default=None,
                   help="replay one game (with --seed and --policy) and print its traceback")  # fmt: skip
    p.add_argument("--policy", choices=("biased", "uniform", "heuristic"), default=None,
                   help="every game's moves: biased or uniform random, or the heuristic player with 15%% random "
                        "moves (deep positions, ~5x slower); default: biased or uniform drawn per game "
                        "(biased for --repro)")  # fmt: skip
    p.add_argument("--oracle", action="store_true", help="--repro with the full oracle (printed for oracle games)")


@command("fuzz", "random games over every configuration with the invariants checked after every decision")(_fuzz_args)
def _fuzz(args: argparse.Namespace) -> int:
    from aoi_env.fuzz import run_args

    return run_args(args)


# -- training (issue 7): train, eval; torch and SB3 are imported inside the run functions -------------


def _train_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", metavar="YAML", default="configs/quick.yaml",
                   help="training config: a YAML file or a shipped config's name (quick, selfplay); default "
                        "configs/quick.yaml (trains and evaluates in <10 min), found from any folder")  # fmt: skip
    p.add_argument("--out", default=None, help="output directory (models, TensorBoard logs, results.md)")
    p.add_argument("--seed", type=seed_arg, default=None, help="seed of everything (overrides the config)")
    p.add_argument(
        "--resume", metavar="PATH", default=None, help="continue from a checkpoint .zip up to total_timesteps"
    )
    p.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                   help="override a setting, e.g. --set total_timesteps=50000 --set ppo.n_epochs=8")  # fmt: skip


@command("train", "train a MaskablePPO agent by self-play (opponent pool, Automa) and evaluate it")(_train_args)
def _train(args: argparse.Namespace) -> int:
    from train.config import load_config
    from train.train import run_training

    cfg = load_config(args.config, args.overrides, out=args.out, seed=args.seed)
    run_training(cfg, resume=args.resume)
    return 0


def _eval_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--model", required=True, metavar="PATH", help="a trained model .zip (written by aoi train)")
    p.add_argument("--vs", nargs="+", default=["automa:1"], metavar="SPEC",
                   help="opponents: random, heuristic, automa:L, model:PATH (default automa:1)")  # fmt: skip
    p.add_argument("--games", type=int, default=100, help="games per opponent (default 100)")
    p.add_argument("--seed", type=seed_arg, default=0, help="seed of the games (default 0)")
    p.add_argument("--game", default="aoi(players=2)", help="game string of games against agents (default 2 players)")
    p.add_argument("--setup-choices", choices=("random", "players"), default="random",
                   help="who makes the setup choices (factions, boards...): random, or the seats as decisions "
                        "(as the model's training config setup_choices; default random)")  # fmt: skip
    p.add_argument("--stochastic", action="store_true", help="sample from the policy instead of its best legal id")
    p.add_argument("--records", metavar="DIR", help="also save every game as a record in DIR (aoi replay)")
    p.add_argument("--json", metavar="FILE", help="also write the results (win rates, margins, CIs) as JSON")
    p.add_argument("--no-progress", dest="progress", action="store_false", help="no progress bar")


@command("eval", "play a trained model against an opponent: win rate and VP margin with 95%% CIs")(_eval_args)
def _eval(args: argparse.Namespace) -> int:
    from train.evaluate import run_eval

    check_output_file(args.json, "--json")  # before the games, not after them
    check_output_folder(args.records, "--records")
    run_eval(args.model, args.vs, games=args.games, seed=args.seed, game=args.game,
             deterministic=not args.stochastic, show_progress=args.progress,
             setup_choices=args.setup_choices, records=args.records, json_path=args.json)  # fmt: skip
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="aoi", description="Age of Innovation RL environment tools")
    parser.add_argument("--version", action="version", version=f"aoi-env {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (add_args, _) in _COMMANDS.items():
        add_args(sub.add_parser(name, help=_HELP[name], description=_HELP[name].replace("%%", "%")))
    return parser


def _stdout_reader_gone() -> bool:
    """True when stdout is a pipe whose reader has closed it (poll reports an error on it)."""
    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno(), select.POLLOUT)
        return any(events & (select.POLLERR | select.POLLHUP) for _, events in poller.poll(0))
    except (AttributeError, OSError, ValueError):  # no fileno (a captured stream), no poll
        return False


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return 0
    try:
        return _COMMANDS[args.command][1](args)
    except BrokenPipeError as err:
        if _stdout_reader_gone():  # `aoi replay game.json | head`: the reader left; stop quietly
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
            return 1
        print(f"aoi {args.command}: error: {err}", file=sys.stderr)  # another pipe: a dead worker
        return 2
    except (ValueError, OSError) as err:  # bad input, or a file that cannot be read or written
        print(f"aoi {args.command}: error: {err}", file=sys.stderr)
        return 2
    except (EOFError, KeyboardInterrupt) as err:
        from agents.human import HumanQuit

        print(f"aoi {args.command}: stopped ({str(err) or type(err).__name__})", file=sys.stderr)
        return 0 if isinstance(err, HumanQuit) else 130  # typing quit is a normal end


if __name__ == "__main__":
    raise SystemExit(main())
