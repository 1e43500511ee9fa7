"""Scripted players and the agent registry (issue 6).

Every agent follows ``agents.base.Agent``: ``choose(game) -> int`` at the engine level and
``act(observation, mask) -> int`` at the env level.  Build one from a spec string::

    from agents import make_agent
    heuristic = make_agent("heuristic", seed=0)
    random_player = make_agent("random", seed=1)

Specs are ``name`` or ``name:argument``; ``available_specs()`` lists them.  Other modules add
their agents with ``register_agent`` (``train.policy_agent`` adds ``model:PATH``).  The official
solo Automa is not an agent: it is an engine seat (``GameConfig(automa=...)``), and
``automa_seat_spec`` reads the ``automa:...`` specs the tools accept.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from agents.base import Agent, ScriptedAgent, game_of, play_game
from agents.heuristic import HeuristicAgent, Weights
from agents.random_agent import RandomAgent

__all__ = [
    "Agent",
    "HeuristicAgent",
    "RandomAgent",
    "ScriptedAgent",
    "Weights",
    "available_specs",
    "game_of",
    "make_agent",
    "play_game",
    "register_agent",
]

AgentFactory = Callable[[str | None, int | None], Agent]
"""``factory(argument, seed)``: ``argument`` is the text after ``:`` in the spec, or None."""


@dataclass(frozen=True)
class _Entry:
    factory: AgentFactory
    usage: str  # how the spec is written, e.g. "automa:<level 1-5>"
    summary: str


_REGISTRY: dict[str, _Entry] = {}


def register_agent(name: str, factory: AgentFactory, usage: str | None = None, summary: str = "") -> None:
    """Make ``make_agent(name...)`` build agents with ``factory(argument, seed)``."""
    if not name or ":" in name or name != name.strip().lower():
        raise ValueError(f"agent name must be a lower-case word without ':', got {name!r}")
    _REGISTRY[name] = _Entry(factory, usage or name, summary)


_ON_DEMAND = {"model": "model:<path.zip>"}
"""Specs registered when first asked for (``model`` lives in ``train``, the train extra)."""


def available_specs() -> list[str]:
    """The spec forms ``make_agent`` accepts, e.g. ``['automa:<level 1-5>', 'heuristic', 'random']``."""
    usages = {name: e.usage for name, e in _REGISTRY.items()}
    return sorted({**_ON_DEMAND, **usages}.values())


def make_agent(spec: str, seed: int | None = 0) -> Agent:
    """An agent from a spec string such as ``"random"``, ``"heuristic"`` or ``"automa:3"``.

    An unknown name or a malformed argument raises ValueError listing the valid specs.
    """
    if not isinstance(spec, str):
        raise ValueError(f"agent spec must be a string, got {spec!r}; valid: {', '.join(available_specs())}")
    name, _, arg = spec.strip().partition(":")
    name = name.strip().lower()  # the argument keeps its case (model:PATH)
    if name == "model" and name not in _REGISTRY:
        from train.policy_agent import register  # the train extra (torch is imported only to load)

        register()
    entry = _REGISTRY.get(name)
    if entry is None:
        raise ValueError(f"unknown agent {spec!r}; valid: {', '.join(available_specs())}")
    return entry.factory(arg or None, seed)


def _no_argument(name: str, arg: str | None) -> None:
    if arg is not None:
        raise ValueError(f"agent {name!r} takes no argument, got {name}:{arg}; valid: {', '.join(available_specs())}")


def _make_random(arg: str | None, seed: int | None) -> Agent:
    _no_argument("random", arg)
    return RandomAgent(seed)


def _make_heuristic(arg: str | None, seed: int | None) -> Agent:
    _no_argument("heuristic", arg)
    return HeuristicAgent(seed=seed)


AUTOMA_SPEC_HELP = "automa:LEVEL, automa:FACTION:LEVEL[:TERRAIN] or automa:LEVEL:FACTION[:TERRAIN]"


def automa_seat_spec(spec: str) -> str | None:
    """The engine Automa spec of a participant, or None if the spec is an agent.

    ``"automa:3"`` -> ``"simpletons:3"`` (the app's default faction); ``"automa:druids:5"`` or
    ``"automa:druids:5:lake"`` -> ``"druids:5"`` / ``"druids:5:lake"``; the level may also come
    first (``"automa:5:druids"``, the tournament's older spelling), so every command reads the same
    specs.  The Automa is not an agent that picks moves: it is a seat of the game
    (``GameConfig(automa=...)``) and plays inside the engine (docs/automa.md).
    """
    if not isinstance(spec, str):  # None / 3 gave an AttributeError from .strip()
        raise ValueError(f"agent spec must be a string, got {spec!r}; valid: {', '.join(available_specs())}")
    name, _, arg = spec.strip().lower().partition(":")
    if name != "automa":
        return None
    parts = arg.split(":")
    if parts[0].isascii() and parts[0].isdigit():  # automa:LEVEL[:FACTION[:TERRAIN]]
        from aoi_env.core.automa import automa_data

        faction = parts[1] if len(parts) > 1 else automa_data().faction_names[0]  # Simpletons
        arg = ":".join([faction, parts[0], *parts[2:]])
    from aoi_env.core.automa import SpecShapeError, parse_spec

    try:
        parse_spec(arg)
    except SpecShapeError:  # its shape: say what is expected, once
        raise ValueError(f"bad automa spec {spec!r}: expected {AUTOMA_SPEC_HELP}") from None
    except ValueError as err:
        raise ValueError(f"bad automa spec {spec!r}: {err} ({AUTOMA_SPEC_HELP})") from None
    return arg


def _make_automa(arg: str | None, seed: int | None) -> Agent:
    spec = automa_seat_spec(f"automa:{arg or ''}")
    raise ValueError(
        f"the Automa plays inside the engine, it is not an agent at a seat: put it into the game, "
        f"e.g. GameConfig(players=1, automa=({spec!r},)) or aoi play --agents heuristic,automa:{arg}"
    )


def _make_human(arg: str | None, seed: int | None) -> Agent:
    from agents.human import HumanAgent

    _no_argument("human", arg)
    return HumanAgent()


register_agent("human", _make_human, summary="a person at the terminal (aoi play)")
register_agent("random", _make_random, summary="uniformly random legal ids (seeded)")
register_agent("heuristic", _make_heuristic, summary="one-ply lookahead with a readable evaluation")
register_agent("automa", _make_automa, "automa:<level 1-5>", "the solo Automa: an engine seat (docs/automa.md)")
