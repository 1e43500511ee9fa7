"""The common agent interface: one object that can sit at any seat of the engine, the env or training.

Two entry points, both returning a legal action id for the seat whose decision is pending:

``choose(game) -> int``
    Engine level.  ``game`` is an ``aoi_env.Game``; the agent plays for ``game.current_seat()``.
    This is what tournaments, tests and scripted opponents in training call.

``act(observation, mask) -> int``
    Env level (PettingZoo / SB3 style): ``mask`` is the int8 ``action_mask`` of the acting agent.
    Agents that only need the mask (random) implement it directly.  Scripted agents that read the
    position (the heuristic) cannot rebuild it from the egocentric observation, so they read
    the engine ``Game`` through an adapter: ``agent.bind(source)`` where ``source`` is a ``Game``,
    a zero-argument callable returning the current ``Game``, or an env whose unwrapped object
    exposes its game as ``.game`` (see ``game_of``).  ``act`` then checks that ``mask`` is the
    game's mask and calls ``choose``.

Scripted players use only the public surface (STYLE §5.16): ``legal_actions()``,
``legal_moves()``, ``clone()`` + ``apply_action()`` on clones, and read-only looks at
``game.state`` arrays and read-only rule helpers.  They never write into the arrays of the game
they are given.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

from aoi_env.core.config import check_seed
from aoi_env.core.engine import Game
from aoi_env.core.moves import NUM_ACTIONS

GameSource = Callable[[], Game]


@runtime_checkable
class Agent(Protocol):
    """What every agent provides (structural: any object with these members is an Agent)."""

    name: str

    def choose(self, game: Game) -> int:
        """A legal action id for ``game.current_seat()``."""
        ...

    def act(self, observation: Any, mask: np.ndarray | None = None) -> int:
        """A legal action id given the acting agent's observation and int8 action mask."""
        ...


def game_of(source: Any) -> GameSource:
    """A callable returning the current ``Game`` of ``source`` (a Game, an env, or a callable).

    An env (PettingZoo wrapper chain or raw env) must expose its engine game as
    ``env.unwrapped.game``; the callable reads it on every call, so it follows ``reset()``.
    """
    if isinstance(source, Game):
        return lambda: source
    holder = getattr(source, "unwrapped", source)
    if hasattr(holder, "game"):

        def read() -> Game:
            game = holder.game
            if not isinstance(game, Game):
                raise ValueError(f"{type(holder).__name__}.game is not a Game yet: call env.reset() first")
            return game

        return read
    if callable(source):
        return source
    raise ValueError(
        f"cannot find the engine game of {type(source).__name__}: pass a Game, a callable returning "
        "the Game, or an env exposing it as env.unwrapped.game"
    )


def mask_of(observation: Any, mask: np.ndarray | None) -> np.ndarray:
    """The action mask given explicitly or inside a PettingZoo dict observation."""
    if mask is None:
        if isinstance(observation, dict) and "action_mask" in observation:
            mask = observation["action_mask"]
        else:
            raise ValueError("act() needs the action mask (argument or observation['action_mask'])")
    mask = np.asarray(mask)
    if mask.shape != (NUM_ACTIONS,) or not np.isin(mask, (0, 1)).all() or not mask.any():
        raise ValueError(
            f"the action mask must be {NUM_ACTIONS} values of 0 or 1 with at least one legal id, "
            f"got shape {mask.shape} and values {np.unique(mask)[:5].tolist()}"
        )
    return mask


def agent_seed(seed: Any) -> int | None:
    """An agent's seed: None (fresh entropy) or a non-negative integer (a ValueError otherwise)."""
    return None if seed is None else check_seed(seed)


def legal_of(game: Game) -> list[int]:
    """The legal ids of the pending decision; a ValueError when there is none (the game is over)."""
    legal = game.legal_actions()
    if not legal:
        raise ValueError("the game is over: there is no decision to choose")
    return legal


class ScriptedAgent:
    """Base class for agents that decide from the engine ``Game`` (``choose``).

    Subclasses implement ``choose``.  ``act`` reads the game through the adapter set by ``bind``
    and checks that the mask it was given is the game's own mask, so a wrong binding fails loudly
    instead of playing the wrong position whenever the masks differ (a wrong game whose pending
    decision has the same legal ids, such as another game's first set pick, is not noticed).
    ``seed`` seeds ``self.rng``, the generator a subclass draws all its randomness from (the same
    seed, the same choices).
    """

    name = "scripted"

    def __init__(self, seed: int | None = 0) -> None:
        self._source: GameSource | None = None
        self.rng = np.random.default_rng(agent_seed(seed))

    def bind(self, source: Any) -> ScriptedAgent:
        """Attach the game (or env, or callable) that ``act`` reads; returns ``self``."""
        self._source = game_of(source)
        return self

    def choose(self, game: Game) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    def act(self, observation: Any, mask: np.ndarray | None = None) -> int:
        mask = mask_of(observation, mask)
        if self._source is None:
            raise ValueError(f"{self.name} agent reads the engine game: call agent.bind(env_or_game) before act()")
        game = self._source()
        legal = np.flatnonzero(mask)
        if list(legal) != game.legal_actions():
            raise ValueError(
                f"{self.name} agent: the mask does not match the bound game's legal ids "
                f"(mask has {len(legal)} ids, game has {len(game.legal_actions())})"
            )
        return int(self.choose(game))

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


def play_game(game: Game, agents: Sequence[Agent], max_decisions: int = 100_000) -> np.ndarray:
    """Play ``game`` to the end with ``agents[seat]`` deciding for each player seat; returns the
    scores of every seat.  Automa seats play inside the engine and need no agent (one given for
    them, e.g. None, is never asked).

    Every returned id is checked against ``legal_actions()`` (the engine raises ValueError on an
    illegal id).  ``game`` is modified in place.
    """
    if not isinstance(game, Game):  # a game string gave an AttributeError from game.config
        raise ValueError(f"game must be an aoi_env.Game (played in place), got {game!r}")
    if isinstance(agents, str) or not isinstance(agents, Sequence):
        raise ValueError(f"agents must be a list of agents, one per player seat, got {agents!r}")
    players = game.config.players
    if len(agents) not in (players, game.seats):
        raise ValueError(f"need one agent per player seat: got {len(agents)} for {players} (Automa seats need none)")
    for seat, agent in enumerate(agents[:players]):  # a spec string gave an AttributeError mid-game
        if not callable(getattr(agent, "choose", None)):
            raise ValueError(f"agents[{seat}] must be an agent with choose(game), e.g. make_agent('random'), "
                             f"got {agent!r}")  # fmt: skip
    for _ in range(max_decisions):
        if game.is_over():
            break
        game.apply_action(agents[game.current_seat()].choose(game))
    if not game.is_over():  # checked after the loop: a game of exactly max_decisions decisions is over
        raise RuntimeError(f"game not over after {max_decisions} decisions")
    return game.scores()
