"""A rule-abiding scripted player: lookahead over the legal ids with a readable evaluation.

How it decides
--------------
For every legal id the player applies the id to a clone of the game and **completes its own
compound move** before judging it: the engine splits a move into several decisions of the same
seat (``build`` -> ``target r3c4`` -> ``spades 1`` -> ``workshop``), so the value of ``build``
is the value of finishing it well.  The root's children are each followed to the end of the
move; the sub-decisions on the way are taken greedily (the best static value one ply ahead, ties
and hex choices ordered by a cheap priority, only the ``wide_hexes`` most promising hexes
tried).  ``max_depth`` > 1 searches more levels exhaustively (measured weaker and slower).  A
move is complete when the seat reaches ``post`` (the action is done), a fresh ``main``, or the
decision passes to another seat.  Power offers that the seat's build raises for the other seats
are declined inside the lookahead so that the seat's own follow-ups (city tile, competency) are
part of the move.

Two own moves ahead: at ``main``, when an affordable action is worth doing, the ``follow_up``
best actions (by the one-ply value, pass excluded) are played further -- the move finished, the
turn handed over with ``done``, the others' turns played (the Automa's inside the engine, from
the redrawn deck) -- and if the seat is the next to decide, each is worth the seat's best
one-ply action then; only these compete.  Against the Automa (and once every other player has
passed) this sees what an action sets up for the next; when another player decides first, the
one-ply values stand.

Free conversions are means, not ends.  At ``main`` they are searched only when no affordable
action gains at least ``convert_below`` (or the best is to pass): then runs of one conversion
(``convert 1pw coin`` twice, up to ``max_conversions``) that make a new action legal are tried,
and such a plan is worth its action; the player plays the first conversion and plans again.
Every conversion is charged ``Weights.conversion``, so one that changes nothing the evaluation
sees is never made; after the action (``post``) a conversion is made only if it pays.

Passing is an action like any other: its value is the position after the pass (pass VP, the
best round bonus tile for the next rounds).  The player passes when nothing else is worth more.

The evaluation (``evaluate``) is the seat's victory points now plus named terms, each a weight
of ``Weights`` times a feature of the position (``explain`` returns the terms):

* ``vp``: points now.
* ``projection``: the area (R83) and science (R84) points the seat would get if the game ended
  now, weighted from ``projection_early`` in round 1 up to 1 in round 6.
* ``resources``: coins, tools, scholars, books and power (bowl III > II > I, plus tokens) at
  their unit values, scaled down as the game ages (``late_resources``).
* ``income``: the seat's Phase I income (planning board slots, bonus tile, competencies,
  innovations, palace tile, faction, science 9+) valued per unit, times the incomes still to come.
* ``science_bonus``: the Phase III science bonuses still to come for the current levels.
* ``specials``: owned special actions (palace tile, innovations, C7, bonus tile, faction) per
  remaining use.
* ``buildings``: per building by type, ``tracks``: sailing and terraforming levels,
  ``science``: levels and unused keys, ``reach``: empty hexes in reach by spade distance
  (expansion potential), ``city``: progress of the best group toward a city, ``components``:
  competencies and innovations held -- all scaled by the time left.
* ``innovation_goal``: books held toward the best innovation on the display, as a share of its
  net value (its value to the seat minus its price) times progress^2.  Innovations cost 5 books
  (R73), more than a seat holds for most of the game, so a one-ply lookahead would otherwise see
  their value only when it happens to hold them; the goals are valued once per decision.

In round 6 the evaluation becomes exact: points now plus the final scoring the seat would get
(area, science and resources at 1 VP per 5 coins, R85) -- so the player spends everything that
still buys points and then passes.  The projection weight, the round-6 switch and the
innovation goals come from the root of the decision (``Context``); the other time scales follow
the evaluated position, so a pass that ends the round is valued after that round's income.

The player reads the game only through the public surface: ``legal_actions()``, ``clone()`` +
``apply_action()`` on clones, and read-only looks at ``state`` arrays and rule helpers.  It
looks ahead only in ``aoi_env.core.hidden.resample``'s clones when the game hides something (an
Automa's face-down deck, whose next card the engine would otherwise play inside the lookahead of
``done`` or ``pass``; the 2-player area token; the seed of random setup choices), redrawn with the
player's own generator: its choices depend on what the seat may know, never on the hidden order.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from dataclasses import dataclass
from typing import Any

import numpy as np

from agents.base import ScriptedAgent, agent_seed, legal_of
from aoi_env.core import decisions, effects, flow, hidden, pending
from aoi_env.core.engine import Game
from aoi_env.core.moves import (
    A_PASS,
    CONVERT_BASE,
    CV_BOOK_COIN,
    DONE,
    HEX_BASE,
    NUM_CONVERSIONS,
)
from aoi_env.core.pending import Kind
from aoi_env.core.rules import science, scoring, terrain
from aoi_env.core.state import (
    G_INNOV_OWNER,
    G_INNOV_SPACES,
    G_NEUTRAL_SCIENCE,
    G_PHASE,
    G_ROUND,
    G_ROUND_TILES,
    H_BUILDING,
    H_CITY,
    H_OWNER,
    H_PAVILION,
    P_BOARD,
    P_BOOKS,
    P_BOWLS,
    P_BUILT,
    P_CITIES,
    P_COINS,
    P_COMPETENCIES,
    P_FACTION,
    P_INNOVATIONS,
    P_NEUTRAL_BUILT,
    P_PALACE_TILE,
    P_PASSED,
    P_SAILING,
    P_SCHOLARS,
    P_SCIENCE,
    P_SPECIALS_USED,
    P_TERRAFORMING,
    P_TOOLS,
    P_VP,
    Phase,
)
from aoi_env.core.turn import owned_specials
from aoi_env.data import NUM_POSITIONS
from aoi_env.data.enums import Building

LAST_ROUND = 6
SCIENCE_BONUS_ROUNDS = 5  # Phase III happens in rounds 1-5 only (R56)
MAP_CACHE_ENTRIES = 4_096  # map features kept per agent (a whole game uses < 1,000; ~1.3 KiB each)


@dataclass(frozen=True)
class Weights:
    """Every number the evaluation uses, in VP.  Resource values are for the early game."""

    # resources: VP per unit held (scaled by the time left, see ``late_resources``)
    coin: float = 0.35
    tool: float = 1.0
    scholar: float = 1.4
    book: float = 1.1
    power_bowl_1: float = 0.0
    power_bowl_2: float = 0.25
    power_bowl_3: float = 0.5
    power_token: float = 0.15  # a token in any bowl (burning loses one)
    late_resources: float = 0.4  # share of the unit values left in round 5
    # gains that are not plain resources (incomes, specials, science bonuses)
    power_gain: float = 0.25
    step: float = 0.7
    spade: float = 1.6
    bridge: float = 2.0
    competency_gain: float = 4.0
    city_tile_gain: float = 10.0
    other_gain: float = 2.0
    # recurring things, per future use
    income: float = 1.2  # per future Phase I
    special: float = 0.7  # per future use of an owned special action
    # buildings by type (index = aoi_env.data.enums.Building), scaled by the time left
    building: tuple[float, ...] = (0.0, 2.5, 3.5, 4.0, 5.0, 6.0, 2.5, 4.0)
    building_late: float = 0.3  # share of the building values left when no income is to come
    # tracks and science, per level, scaled by the time left
    sailing: float = 2.0
    terraforming: float = 3.0
    science_level: float = 0.35
    key: float = 1.5
    competency: float = 2.0
    innovation: float = 1.0
    # books held toward the best innovation on the display: this share of its net value (its
    # value to the seat minus its price) times progress^2 (books held / books it costs)
    innovation_goal: float = 0.5
    # expansion: the best ``reach_hexes`` empty hexes in reach, by spades needed (0, 1, 2, 3)
    reach_hexes: int = 6
    reach_by_spades: tuple[float, ...] = (1.0, 0.6, 0.3, 0.1)
    # the best group of buildings not yet in a city: progress^2 toward 4 buildings / power 7
    city_progress: float = 6.0
    # final scoring projection weight in round 1 (rises linearly to 1 in round 6)
    projection_early: float = 0.3
    # conversions are searched only when the best plain action gains less than this (or is pass)
    convert_below: float = 1.0
    conversion: float = 0.05  # charged per conversion (a tie-breaker against pointless ones)
    # tie-breakers in the exact round-6 evaluation
    final_smooth: float = 0.02

    def __post_init__(self) -> None:
        """Every weight a finite number (numpy scalars and lists, e.g. from a JSON file, are taken
        as floats and tuples), the tuples of their length: a NaN or a short tuple used to fail
        deep in a game (an IndexError in the middle of the evaluation)."""
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            many = isinstance(value, (tuple, list, np.ndarray))
            values = list(value) if many else [value]
            if not all(isinstance(v, numbers.Real) and not isinstance(v, bool) and math.isfinite(v) for v in values):
                raise ValueError(f"Weights.{f.name} must be finite numbers, got {value!r}")
            if f.name == "reach_hexes":
                if many or int(value) != value or value < 0:
                    raise ValueError(f"Weights.reach_hexes must be an integer >= 0, got {value!r}")
                object.__setattr__(self, f.name, int(value))
            else:
                object.__setattr__(self, f.name, tuple(float(v) for v in values) if many else float(value))
        if len(self.building) != len(Building):
            raise ValueError(f"Weights.building needs {len(Building)} values (index = Building), got {self.building}")
        if len(self.reach_by_spades) != 4:
            raise ValueError(f"Weights.reach_by_spades needs 4 values (0-3 spades), got {self.reach_by_spades}")


@dataclass(frozen=True)
class Context:
    """The time scale of one decision (the root's round), shared by all its candidates."""

    round: int  # 0 = setup
    final: bool  # round 6: exact final-scoring evaluation
    # what the seat's own move cannot change: the other competitors' largest areas (R83) and
    # science levels (R84), the 2-player neutral faction included (R25)
    others_area: tuple[int, ...]
    others_science: tuple[tuple[int, ...], ...]  # per discipline, the competitors' levels
    # the innovations worth saving books for, valued at the root (see ``innovation_goals``)
    innovation_goals: tuple[InnovationGoal, ...] = ()


@dataclass(frozen=True)
class InnovationGoal:
    """An innovation on the display and what it is worth to the seat (R73, R101-R119)."""

    tile: int  # innovation id
    books: tuple[int, ...]  # books of each discipline it asks for (R20)
    any_books: int  # books of any discipline, without the planning board's slot surcharge
    cost: int  # sum of ``books``
    net: float  # its value to the seat minus its price in books and coins, VP


class HeuristicAgent(ScriptedAgent):
    """The scripted player described in the module docstring."""

    name = "heuristic"

    def __init__(
        self,
        weights: Weights | None = None,
        seed: int | None = 0,
        max_depth: int = 1,
        max_conversions: int = 3,
        wide_hexes: int = 5,
        budget: int = 600,
        follow_up: int = 5,
    ) -> None:
        super().__init__()
        if weights is not None and not isinstance(weights, Weights):  # HeuristicAgent(1) is not a seed
            raise ValueError(f"weights must be a Weights, got {weights!r} (the seed is the keyword seed=)")
        for name, value, lo in (("max_depth", max_depth, 1), ("wide_hexes", wide_hexes, 1),
                                ("max_conversions", max_conversions, 0), ("budget", budget, 0),
                                ("follow_up", follow_up, 0)):  # fmt: skip
            if type(value) is not int or value < lo:
                raise ValueError(f"{name} must be an integer >= {lo}, got {value!r}")
        self.w = weights or Weights()
        self.seed = seed = agent_seed(seed)
        self.rng = np.random.default_rng(seed)  # ties
        self.sampler = np.random.default_rng(None if seed is None else [seed, 1])  # hidden information
        self.max_depth = max_depth
        self.max_conversions = max_conversions
        self.wide_hexes = wide_hexes
        self.follow_up = follow_up
        self._map_cache: dict[tuple[Any, ...], tuple[int, float, float]] = {}
        self._area_cache: dict[tuple[Any, ...], int] = {}  # other seats' largest areas, same keys
        w = self.w
        self._resource_units = {
            "coins": w.coin,
            "tools": w.tool,
            "scholars": w.scholar,
            "books": w.book,
            "power": w.power_gain,
            "power_tokens": w.power_token + w.power_bowl_3,
        }
        self._other_units = {
            "vp": 1.0,
            "steps_any": w.step,
            "steps_one": w.step,
            "steps_each": 4 * w.step,
            "tb": w.spade,
            "spades": 0.8 * w.spade,
            "bridge": w.bridge,
            "competency": w.competency_gain,
            "city_tile": w.city_tile_gain,
        }
        self.budget = budget
        self._nodes = 0
        self.decisions = 0  # decisions taken (for speed reports)

    def __repr__(self) -> str:
        return f"HeuristicAgent(seed={self.seed})"

    # -- choosing ---------------------------------------------------------------------------

    def choose(self, game: Game) -> int:
        legal = legal_of(game)
        self.decisions += 1
        if len(legal) == 1:
            return legal[0]
        me = game.current_seat()
        if hidden.has_hidden_information(game):  # the lookahead must not read what the seat cannot see
            game = hidden.resample(game, self.sampler)
        ctx = self.context(game, me)
        self._nodes = 0
        row = pending.top(game.state)
        if row is not None and int(row[0]) == Kind.MAIN:
            scored = self._main_candidates(game, me, ctx)
        else:
            if row is not None and int(row[0]) != Kind.POST:
                legal = _without_conversions(legal)  # conversions inside an action: see MAIN
            scored = [(self._value_of(game, a, me, ctx, 1) - self._conversion_cost(a), a) for a in legal]
        best = max(v for v, _ in scored)
        ties = [a for v, a in scored if v >= best - 1e-9]
        return int(ties[int(self.rng.integers(len(ties)))]) if len(ties) > 1 else int(ties[0])

    def context(self, game: Game, me: int) -> Context:
        s = game.state
        rnd = int(s.glob[G_ROUND])
        others = [seat for seat in range(game.seats) if seat != me]
        area = [self._largest_area(game, seat) for seat in others]
        sci = [s.players[seat, P_SCIENCE].tolist() for seat in others]
        if scoring.has_neutral_faction(game):  # R24; the token is face down until round 6 (R25)
            token = scoring.visible_area_token(game)
            tokens = game.config.area_tokens
            area.append(token if token is not None else round(sum(tokens) / len(tokens)))
            sci.append(s.glob[G_NEUTRAL_SCIENCE].tolist())
        per_discipline = tuple(tuple(levels[d] for levels in sci) for d in range(4))
        final = rnd >= LAST_ROUND or game.is_over()
        goals = () if final or not self.w.innovation_goal else self.innovation_goals(game, me)
        return Context(rnd, final, tuple(area), per_discipline, goals)

    def innovation_goals(self, g: Game, me: int) -> tuple[InnovationGoal, ...]:
        """The display's innovations whose value to the seat exceeds their price (R73).

        A one-ply lookahead sees an innovation's value only once five books are in hand, and
        books are scarce, so without this the player would almost never develop one.  The
        value is read from the data: one-time VP (with the seat's counters now), incomes,
        special actions and pass VP for the rounds left, other gains at their unit values.
        """
        s = g.state
        p = s.players[me].tolist()
        surcharge = _slot_surcharge(g, p) if p[P_BOARD] >= 0 and p[P_FACTION] >= 0 else None
        if surcharge is None:
            return ()
        incomes_left = _incomes_left(g)
        res_scale = _resource_scale(self.w, incomes_left)
        owner = s.glob[G_INNOV_OWNER].tolist()
        goals = []
        for space, tile in enumerate(s.glob[G_INNOV_SPACES].tolist()):
            if tile < 0 or owner[tile] != -1:
                continue
            spec, any_books, coins = decisions.innovation_cost(g, me, space)  # any_books: with the surcharge
            books = tuple(spec.tolist())
            price = res_scale * (self.w.book * (sum(books) + any_books) + self.w.coin * coins)
            net = self._innovation_value(g, me, tile, incomes_left, res_scale) - price
            if net > 0:
                goals.append(InnovationGoal(tile, books, any_books - surcharge, sum(books), net))
        return tuple(sorted(goals, key=lambda goal: -goal.net))

    def _innovation_value(self, g: Game, me: int, tile: int, incomes_left: int, scale: float) -> float:
        """VP value of developing ``tile`` now (its effects in the data, R101-R119)."""
        tab, w = g.tab, self.w
        value = 0.0
        for key, v in tab.innovation_once[tile].items():
            if key == "vp_per":
                value += sum(k * effects.counter(g, me, c) for c, k in v.items())
            elif key == "vp_table":
                value += effects.table_vp(effects.counter(g, me, v["counter"]), v["thresholds"])
            elif key == "steps_per":
                value += w.step * sum(k * effects.counter(g, me, c) for c, k in v.items())
            elif key == "neutral":
                value += w.building[Building[v.upper()]]
            else:
                value += self.gain_value({key: v}, scale)
        value += w.income * incomes_left * self.gain_value(tab.innovation_income[tile], scale)
        value += w.special * (incomes_left + 1) * self.gain_value(tab.innovation_special[tile], scale)
        for c, k in tab.innovation_pass[tile].get("vp_per", {}).items():
            value += (incomes_left + 1) * k * effects.counter(g, me, c)
        return value + w.innovation * min(incomes_left, 5) / 5

    def _main_candidates(self, game: Game, me: int, ctx: Context) -> list[tuple[float, int]]:
        """Every action, plus runs of one conversion (``convert 1pw coin`` x2) that make a new
        action legal; such a plan is worth its action and starts with the conversion."""
        legal = game.legal_actions()
        scored = [(self._value_of(game, a, me, ctx, 1), a) for a in legal if not _is_conversion(a)]
        best_v, best_a = max(scored)
        if best_a != A_PASS and best_v - self.evaluate(game, me, ctx) >= self.w.convert_below:
            return self._follow_ups(game, me, ctx, scored)  # a good action is affordable: no need to convert
        known = set(legal)
        for c in _distinct_conversions(game, me, legal):
            g = game
            for _ in range(self.max_conversions):
                if c not in g.legal_actions():
                    break
                g = g.clone()
                g.apply_action(c)
                self._nodes += 1
                for a in g.legal_actions():
                    if not _is_conversion(a) and a not in known:
                        known.add(a)
                        scored.append((self._value_of(g, a, me, ctx, 1) - self._conversion_cost(c), c))
        return scored

    def _follow_ups(
        self, game: Game, me: int, ctx: Context, scored: list[tuple[float, int]]
    ) -> list[tuple[float, int]]:
        """The ``follow_up`` best actions (pass excluded), each valued by the seat's best next action
        when the seat is the next to decide after the others' turns (against the Automa, whose
        turns the engine plays inside ``done``; or when every other seat has passed).  Only these
        compete then, all judged two own moves ahead; otherwise ``scored`` is returned as it is."""
        ranked = [a for _, a in sorted(scored, key=lambda t: -t[0])]
        top = [a for a in ranked if a != A_PASS][: self.follow_up]
        if ranked[0] == A_PASS or len(top) < 2:
            return scored
        deepened = {a: self._next_turn_value(game, a, me, ctx) for a in top}
        if all(v is None for v in deepened.values()):
            return scored  # the seat does not decide next after any of them (other players' turns)
        return [(v if deepened[a] is None else deepened[a], a) for v, a in scored if a in deepened]

    def _next_turn_value(self, game: Game, action: int, me: int, ctx: Context) -> float | None:
        """The value of the seat's best action at its next turn after ``action`` (completed
        greedily, then ``done``), or None if another seat decides first."""
        g = game.clone()
        g.apply_action(action)
        for _ in range(64):  # finish the move as ``_search`` does at depth 1, then hand the turn over
            _settle(g, me)
            if g.is_over() or g.current_seat() != me:
                return None
            row = pending.top(g.state)
            kind = int(row[0])
            if kind == Kind.MAIN and int(row[2]) == 0:
                break
            if kind == Kind.POST:
                g.apply_action(DONE)
            else:  # a sub-decision of the move, or a power offer raised by the others' turns
                g = self._greedy_step(g, me, ctx, g.legal_actions())
        else:
            return None
        legal = [a for a in g.legal_actions() if not _is_conversion(a)]
        return max(self._value_of(g, a, me, ctx, 1) for a in legal)

    def _conversion_cost(self, action: int) -> float:
        """A small charge on every conversion, so that conversions which change nothing that
        the evaluation sees (tool -> coin in round 6) are not made."""
        return self.w.conversion if _is_conversion(action) else 0.0

    def _value_of(self, game: Game, action: int, me: int, ctx: Context, depth: int) -> float:
        child = game.clone()
        child.apply_action(action)
        self._nodes += 1
        return self._search(child, me, ctx, depth)

    def _search(self, g: Game, me: int, ctx: Context, depth: int) -> float:
        """Value of the best completion of the seat's compound move from ``g``."""
        for _ in range(64):  # a compound move has far fewer decisions; the cap only guards
            _settle(g, me)
            if _move_complete(g, me):
                break
            legal = g.legal_actions()
            nested_main = g.pending_kind() == Kind.MAIN  # a second action (Psychics): judged greedily
            if depth < self.max_depth and not nested_main and self._nodes < self.budget:
                return max(self._value_of(g, a, me, ctx, depth + 1) for a in self._widest(g, me, legal))
            g = self._greedy_step(g, me, ctx, legal)
            depth += 1
        return self.evaluate(g, me, ctx)

    def _greedy_step(self, g: Game, me: int, ctx: Context, legal: list[int]) -> Game:
        """The child of ``g`` with the best static value (ties by hex priority)."""
        best_v, best_g = -math.inf, g
        for a in self._widest(g, me, legal):
            c = g.clone()
            c.apply_action(a)
            self._nodes += 1
            v = self.evaluate(c, me, ctx)
            if v > best_v:
                best_v, best_g = v, c
        return best_g

    def _widest(self, g: Game, me: int, legal: list[int]) -> list[int]:
        """The ids worth a full search: every non-hex id and the ``wide_hexes`` most promising
        hexes (fewest spades to native, next to own buildings and to other players')."""
        legal = _without_conversions(legal)
        hexes = [a for a in legal if HEX_BASE <= a < HEX_BASE + NUM_POSITIONS]
        if not hexes:
            return legal
        h = g.state.hexes
        dist = terrain.distances_to_native(g, me)
        neighbours = g.neighbours()  # adjacency()'s rows as ints: no numpy work per hex
        building, owner = h[:, H_BUILDING].tolist(), h[:, H_OWNER].tolist()

        def priority(a: int) -> float:
            pos = a - HEX_BASE
            own = other = 0
            for q in neighbours[pos]:
                if building[q] > 0:
                    if owner[q] == me:
                        own += 1
                    else:
                        other += 1
            return -float(dist[pos]) + 0.6 * min(own, 2) + 0.3 * min(other, 2)

        best = sorted(hexes, key=priority, reverse=True)[: self.wide_hexes]
        return best + [a for a in legal if not HEX_BASE <= a < HEX_BASE + NUM_POSITIONS]

    # -- evaluation -------------------------------------------------------------------------

    def evaluate(self, g: Game, me: int, ctx: Context | None = None) -> float:
        """The value of the position for seat ``me`` in VP (the sum of ``explain``)."""
        return float(sum(self.explain(g, me, ctx).values()))

    def explain(self, g: Game, me: int, ctx: Context | None = None) -> dict[str, float]:
        """The named terms of the evaluation (see the module docstring)."""
        if ctx is None:
            ctx = self.context(g, me)
        s = g.state
        p = s.players[me].tolist()  # plain ints: much faster than numpy scalars here
        w = self.w
        if g.is_over():
            return {"vp": float(p[P_VP])}
        area_size, city_progress, reach = self._map_features(g, me)
        area, sci = _projection(g, ctx, area_size, p[P_SCIENCE])
        if ctx.final:
            coins = scoring.resource_coins(s.players[me])
            resources = coins // 5 + w.final_smooth * coins  # R85: 1 VP per 5 coins
            return {"vp": float(p[P_VP]), "projection": float(area + sci), "resources": resources}
        incomes_left = _incomes_left(g)
        time = min(incomes_left, 5) / 5  # 1 early, 0 in round 6
        # resources keep their full value in round 1 and fall linearly to ``late_resources`` in round 5
        res_scale = _resource_scale(w, incomes_left)
        build_scale = w.building_late + (1 - w.building_late) * time
        proj_w = w.projection_early + (1 - w.projection_early) * (max(1, ctx.round) - 1) / (LAST_ROUND - 1)
        seated = p[P_BOARD] >= 0 and p[P_FACTION] >= 0  # board and faction known (after R15/R16)
        bowls = p[P_BOWLS]
        resources = (
            w.coin * p[P_COINS]
            + w.tool * p[P_TOOLS]
            + w.scholar * p[P_SCHOLARS]
            + w.book * sum(p[P_BOOKS])
            + w.power_bowl_1 * bowls[0]
            + w.power_bowl_2 * bowls[1]
            + w.power_bowl_3 * bowls[2]
            + w.power_token * sum(bowls)
        )
        built = [a + b for a, b in zip(p[P_BUILT], p[P_NEUTRAL_BUILT], strict=True)]
        levels = p[P_SCIENCE]
        innovations = sum(1 for t in p[P_INNOVATIONS] if t >= 0)
        keys = p[P_CITIES] - sum(1 for x in levels if x >= science.KEY_LEVEL)  # OP-31
        terms = {
            "vp": float(p[P_VP]),
            "projection": proj_w * (area + sci),
            "resources": res_scale * resources,
            "income": w.income * incomes_left * self.gain_value(flow.income(g, me), res_scale) if seated else 0.0,
            "science_bonus": self._science_bonuses(g, p, res_scale) if seated else 0.0,
            "specials": self._specials(g, p, incomes_left, res_scale) if seated else 0.0,
            "buildings": build_scale * sum(n * v for n, v in zip(built, w.building, strict=True)),
            "tracks": time * (w.sailing * p[P_SAILING] + w.terraforming * p[P_TERRAFORMING]),
            "science": time * (w.science_level * sum(levels) + w.key * max(0, keys)),
            "reach": time * reach,
            "city": build_scale * w.city_progress * city_progress**2,
            "components": time * (w.competency * p[P_COMPETENCIES].bit_count() + w.innovation * innovations),
            "innovation_goal": w.innovation_goal * _innovation_progress(g, p, ctx.innovation_goals),
        }
        return terms

    def _map_features(self, g: Game, me: int) -> tuple[int, float, float]:
        """(largest area, city progress, expansion potential) of the seat, cached by the map:
        most candidate moves of one decision leave the map as it was.  The key holds the seat's
        faction and board too: one agent may evaluate several games with the same map."""
        key = _map_key(g, me)
        hit = self._map_cache.get(key)
        if hit is None:
            own = terrain.own_mask(g, me)
            board, sailing = key[4], key[7]  # see _map_key
            reach = self._reach(g, me, own, sailing) if board >= 0 else 0.0
            if len(self._map_cache) > MAP_CACHE_ENTRIES:
                self._map_cache.clear()
            hit = self._map_cache[key] = (scoring.largest_area(g, me, own), _city_progress(g, own), reach)
        return hit

    def _largest_area(self, g: Game, seat: int) -> int:
        """``scoring.largest_area`` of any seat, cached by the map like ``_map_features`` (the
        context asks for the other seats' at every decision, most of which leave the map as it was)."""
        key = _map_key(g, seat)
        hit = self._area_cache.get(key)
        if hit is None:
            if len(self._area_cache) > MAP_CACHE_ENTRIES:
                self._area_cache.clear()
            hit = self._area_cache[key] = scoring.largest_area(g, seat)
        return hit

    def _reach(self, g: Game, me: int, own: np.ndarray, sailing: int) -> float:
        """Expansion potential: the best empty hexes in reach (R39), by spades to native (R35)."""
        w = self.w
        open_ = g.geo.reach_from(own, sailing, g.state.built_bridges()) & terrain.empty_land(g)
        if not open_.any():
            return 0.0
        dist = terrain.distances_to_native(g, me)[open_]
        values = np.sort(np.asarray(w.reach_by_spades)[np.minimum(dist, 3)])[::-1]
        return float(values[: w.reach_hexes].sum())

    def _science_bonuses(self, g: Game, p: list[int], scale: float) -> float:
        """Phase III bonuses still to come at the current levels (R80.1, R143)."""
        glob = g.state.glob_ints  # Python ints: the evaluation runs ~20 times a decision
        rnd = glob[G_ROUND]
        first = max(1, rnd if glob[G_PHASE] in (Phase.INCOME, Phase.ACTIONS) else rnd + 1)
        offset = g.tab.faction_flags[p[P_FACTION]]["science_bonus_offset"]  # Blessed (R89)
        total = 0.0
        for r in range(first, SCIENCE_BONUS_ROUNDS + 1):
            sci = g.tab.round_science[glob[G_ROUND_TILES.start + r - 1]]
            d = flow.DISC_KEYS.index(sci["discipline"])
            times = (p[P_SCIENCE.start + d] + offset) // sci["per"]
            if times:
                total += times * self.gain_value(sci["reward"], scale)
        return total

    def _specials(self, g: Game, p: list[int], incomes_left: int, scale: float) -> float:
        """Owned special actions: one use per future round, plus this round's if still unused."""
        now = g.state.glob_ints[G_PHASE] == Phase.ACTIONS and not p[P_PASSED]
        used = p[P_SPECIALS_USED]
        total = 0.0
        for bit, gain in owned_specials(g, p):
            uses = incomes_left + (1 if now and not used >> bit & 1 else 0)
            total += uses * self.gain_value(gain, scale)
        return self.w.special * total

    def gain_value(self, gain: dict[str, Any], scale: float = 1.0) -> float:
        """VP value of a gain dict in the data vocabulary (incomes, specials, bonuses); resource
        units are multiplied by ``scale``, everything else is not."""
        total = 0.0
        for key, v in gain.items():
            n = v if isinstance(v, int) else 1
            unit = self._resource_units.get(key)
            if unit is not None:
                total += scale * unit * n
            else:
                total += self._other_units.get(key, self.w.other_gain) * n
        return total


# --------------------------------------------------------------------------------------------
# helpers (read-only)


def _map_key(g: Game, seat: int) -> tuple[Any, ...]:
    """Everything the seat's map features read besides the agent's weights: its faction and
    board (the tunnel, R95; the native terrain), the hexes, the bridges, its sailing now (index 7)
    and on the track (the final area, R83), its palace tile (the flight)."""
    s = g.state
    p = s.players[seat].tolist()
    return (
        seat, g.geo.name, g.is_player(seat), p[P_FACTION], p[P_BOARD],
        s.hexes.tobytes(), s.bridges.tobytes(), terrain.sailing(g, seat), p[P_SAILING], p[P_PALACE_TILE],
    )  # fmt: skip


def _is_conversion(action: int) -> bool:
    return CONVERT_BASE <= action < CONVERT_BASE + NUM_CONVERSIONS


def _without_conversions(legal: list[int]) -> list[int]:
    """The ids that are not free conversions (all ids if there are no others)."""
    return [a for a in legal if not _is_conversion(a)] or legal


def _distinct_conversions(g: Game, me: int, legal: list[int]) -> list[int]:
    """The legal conversions, with ``book <colour> coin`` reduced to the most plentiful colour."""
    books = g.state.players[me, P_BOOKS]
    richest = CONVERT_BASE + CV_BOOK_COIN + int(np.argmax(books))
    book_coin = range(CONVERT_BASE + CV_BOOK_COIN, CONVERT_BASE + CV_BOOK_COIN + 4)
    return [a for a in legal if _is_conversion(a) and (a not in book_coin or a == richest)]


def _settle(g: Game, me: int) -> None:
    """Inside a lookahead, decline the power offers the seat's build raised for other seats."""
    while not g.is_over() and g.current_seat() != me and g.pending_kind() == Kind.OFFER:
        g.apply_action(DONE)


def _move_complete(g: Game, me: int) -> bool:
    """The seat's compound move is over: action done (POST), a new turn, or someone else decides."""
    if g.is_over() or g.current_seat() != me:
        return True
    row = pending.top(g.state)
    kind = int(row[0])
    return kind == Kind.POST or (kind == Kind.MAIN and int(row[2]) == 0)


def _incomes_left(g: Game) -> int:
    """Phase I incomes still to come (R57): 6 at setup, 6 - round during a round."""
    s = g.state
    phase = s.glob_ints[G_PHASE]
    if phase == Phase.SETUP:
        return LAST_ROUND
    if phase == Phase.OVER:
        return 0
    return max(0, LAST_ROUND - s.glob_ints[G_ROUND])


def _resource_scale(w: Weights, incomes_left: int) -> float:
    """Resources keep their full value in round 1 and fall linearly to ``late_resources`` in round 5."""
    return w.late_resources + (1 - w.late_resources) * min(1.0, max(0, incomes_left - 1) / 4)


def _slot_surcharge(g: Game, p: list[int]) -> int | None:
    """Books of any discipline the next innovation slot adds (R73, OP-5); None: all 3 are full."""
    slot = sum(1 for t in p[P_INNOVATIONS] if t >= 0)
    return None if slot >= 3 else g.data.boards[p[P_BOARD]].innovation_slot_books[slot]


def _innovation_progress(g: Game, p: list[int], goals: tuple[InnovationGoal, ...]) -> float:
    """The best goal's net value times (books held toward it / books it costs)^2 (R73);
    ``goals`` are sorted by net value, highest first."""
    books = p[P_BOOKS]
    total = sum(books)
    surcharge = _slot_surcharge(g, p) if goals and total else None
    if surcharge is None:
        return 0.0
    owner = g.state.glob_ints
    best = 0.0
    for goal in goals:
        if goal.net <= best:
            break  # progress is at most 1: no later goal can do better
        if owner[G_INNOV_OWNER.start + goal.tile] != -1:
            continue
        specific = sum(min(b, c) for b, c in zip(books, goal.books, strict=True))
        need_any = goal.any_books + surcharge
        held = specific + min(need_any, total - specific)
        best = max(best, goal.net * (held / (goal.cost + need_any)) ** 2)
    return best


def _projection(g: Game, ctx: Context, area_size: int, levels: list[int]) -> tuple[int, int]:
    """Area (R83) and science (R84) VP of the seat (largest area ``area_size``, science ``levels``)
    if the game ended now."""
    fs = g.data.raw["final_scoring"]
    area = _rank_share(area_size, ctx.others_area, fs["area"])
    science_payouts, others_science = fs["science"], ctx.others_science
    sci = 0
    for d, level in enumerate(levels):  # a loop, not a generator expression (~20 evaluations a decision)
        sci += _rank_share(level, others_science[d], science_payouts)
    return area, sci


def _rank_share(mine: int, others: tuple[int, ...], payouts: list[int]) -> int:
    """``me``'s payout of ``scoring.shared_ranks``: ties share the ranks they occupy, rounded down."""
    if mine <= 0:
        return 0
    higher = tied = 0
    for x in others:  # a loop, not generator expressions: each is a frame (the evaluation's hot path)
        if x > mine:
            higher += 1
        elif x == mine:
            tied += 1
    return sum(payouts[higher : higher + tied + 1]) // (tied + 1)


def _city_progress(g: Game, own: np.ndarray) -> float:
    """0..1: how close the best group of buildings outside cities is to founding a city (R43)."""
    h = g.state.hexes
    mine = own & (h[:, H_CITY] == 0)
    positions = [int(x) for x in np.flatnonzero(mine)]
    if len(positions) < 2:
        return 0.0
    best = 0.0
    for group in g.geo.groups(positions, g.adjacency()):
        idx = np.asarray(group)
        count = len(group) + int(h[idx, H_PAVILION].sum())
        strength = int(g.building_power[h[idx, H_BUILDING]].sum() + h[idx, H_PAVILION].sum())
        best = max(best, min(count / 4, 1.0) * min(strength / 7, 1.0))
    return best
