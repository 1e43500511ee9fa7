"""Scenario helper: build a position explicitly, then play notation moves against it.

Rule tests (and independent rulebook scenarios) use this instead of playing a whole setup::

    from aoi_env.testing import Scenario

    g = (
        Scenario("aoi(players=3)", factions=["moles", "felines", "omar"], boards=["lake", "forest", "desert"])
        .build(0, "r4c9", "workshop")           # place without triggering anything
        .set(0, coins=10, tools=4, bowls=(2, 5, 5))
        .round(2, tile="T6")                    # round 2 with round scoring tile T6
        .turn(0)                                # seat 0 to act (pending: main action)
    )
    g.apply_move("build")

``Scenario`` starts from a real setup of the given game (so tile displays, book actions and so on
are those of ``seed``), then clears the map and resets every player to the printed starting
values of their planning board (15 coins, 3 tools, bowls, sailing start) with science 0 and no
buildings.  Setters change the arrays directly, keeping the bookkeeping that goes with them
(supplies, displays, keys, the passing order; see each method); ``turn`` returns the ``Game`` with
the seat's main action pending.  By default forced decisions are *not* skipped, so a test spells
out every step.

``turn`` and ``decide`` check the state invariants (``aoi_env.core.invariants.check``, an
``AssertionError`` naming each problem), so a rule is never exercised on a position real play
cannot reach.  A test that builds one on purpose opts out with ``Scenario(..., check=False)`` or
``.unchecked()`` and says why.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from aoi_env.core import invariants, pending
from aoi_env.core.board import parse_hex
from aoi_env.core.config import GameConfig
from aoi_env.core.engine import Game
from aoi_env.core.pending import Kind
from aoi_env.core.rules.science import KEY_LEVEL
from aoi_env.core.state import (
    G_BONUS_COINS,
    G_BONUS_ROW,
    G_BONUS_STATE,
    G_CITY_LEFT,
    G_COMP_LEFT,
    G_DEPTH,
    G_FINAL_TILE,
    G_INNOV_OWNER,
    G_INNOV_SPACES,
    G_NEUTRAL_LEFT,
    G_NEXT_COUNT,
    G_NEXT_ORDER,
    G_NUM_BRIDGES,
    G_ORDER,
    G_PALACE_STATE,
    G_PAVILIONS_LEFT,
    G_PHASE,
    G_ROUND,
    G_ROUND_TILES,
    G_SCHOLAR_SPACES,
    G_TURN,
    H_BUILDING,
    H_CITY,
    H_MARK,
    H_NEUTRAL,
    H_OWNER,
    H_PAVILION,
    H_RIVER_CITY,
    H_TERRAIN,
    P_ADDED_TOKENS,
    P_BOARD,
    P_BONUS,
    P_BOOKS,
    P_BOWLS,
    P_BRIDGES,
    P_BUILT,
    P_BURNED,
    P_CITIES,
    P_COINS,
    P_COMPETENCIES,
    P_DEFER_CITY,
    P_DRAFT_PALACE,
    P_INNOVATIONS,
    P_NEUTRAL_BUILT,
    P_NEUTRAL_PALACE,
    P_PALACE_TILE,
    P_PASSED,
    P_PAVILIONS,
    P_SAILING,
    P_SCHOLAR_SUPPLY,
    P_SCHOLARS,
    P_SCIENCE,
    P_SETUP_SPADES,
    P_SPECIALS_USED,
    P_TERRAFORMING,
    P_TOOLS,
    P_VP,
    Phase,
    bonus_row,
    set_bonus_row,
)
from aoi_env.data.enums import Building, Terrain

BUILDING_NAMES = {b.name.lower(): b for b in Building if b != Building.NONE}
TERRAIN_NAMES = {t.name.lower(): t for t in Terrain if t < Terrain.RIVER}
DISC = ("banking", "law", "engineering", "medicine")
_FIELDS = {
    "vp": P_VP,
    "coins": P_COINS,
    "tools": P_TOOLS,
    "scholars": P_SCHOLARS,
    "scholar_supply": P_SCHOLAR_SUPPLY,
    "sailing": P_SAILING,
    "terraforming": P_TERRAFORMING,
    "cities": P_CITIES,
    "pavilions": P_PAVILIONS,
    "passed": P_PASSED,
}


DECIDED_ON: dict[int, int] = {
    kind: next(iter(below))
    for kind, (below, _) in invariants.STACK_SHAPE.items()
    if below is not None and len(below) == 1 and not below & {Kind.END_TURN, invariants.BOTTOM}
}
"""The row ``Scenario.decide`` puts under a decision whose sequence always has that one row below
it (``invariants.STACK_SHAPE`` refuses it straight on END_TURN): an upgrade or a pavilion on the
action's END_ACTION, palace 15 / 16 on the palace's city check, a reward order on its city tiles,
a pass's bonus tile on END_ACTION."""


class Scenario:
    """Fluent builder of an explicit position; see the module docstring."""

    def __init__(
        self,
        game: str | GameConfig = "aoi(players=3)",
        *,
        factions: list[str] | None = None,
        boards: list[str] | None = None,
        seed: int = 0,
        skip_forced: bool = False,
        check: bool = True,
    ) -> None:
        cfg = GameConfig.parse(game) if isinstance(game, str) else game
        params = cfg.to_params()
        if factions is not None:
            params["factions"] = factions
        if boards is not None:
            params["boards"] = boards
        params["setup_choices"] = "random"
        params["skip_forced"] = skip_forced
        self.g = Game(GameConfig.from_params(params), seed=seed)
        self.check = check
        self._reset()

    # -- reset to a clean, printed start ----------------------------------------------------

    def _reset(self) -> None:
        s = self.g.state
        h = s.hexes
        h[:, H_TERRAIN] = self.g.geo.terrain
        h[:, H_BUILDING] = 0
        h[:, H_OWNER] = -1
        for f in (H_NEUTRAL, H_PAVILION, H_CITY, H_RIVER_CITY):
            h[:, f] = 0
        s.bridges[:] = 0
        s.glob[G_NUM_BRIDGES] = 0
        s.glob[G_DEPTH] = 0
        s.glob[G_SCHOLAR_SPACES][s.glob[G_SCHOLAR_SPACES] != 9] = -1
        for key, count in self.g.data.raw["neutral_pieces"].items():
            s.glob[G_NEUTRAL_LEFT.start + Building[key.upper()]] = count
        s.glob[G_CITY_LEFT] = self.g.data.raw["city_copies"]
        s.glob[G_COMP_LEFT] = self.g.data.raw["competency_display"]["copies"]
        s.glob[G_PAVILIONS_LEFT] = self.g.data.raw["pavilion_pieces"]
        s.glob[G_NEXT_ORDER] = -1
        s.glob[G_NEXT_COUNT] = 0
        self._passing: list[int] = []  # seats marked passed, in that order (R78.4)
        owner = s.glob[G_INNOV_OWNER]
        owner[owner >= 0] = -1
        palace = s.glob[G_PALACE_STATE]
        palace[palace >= 0] = -1
        for seat in range(self.g.seats):
            p = s.players[seat]
            board = self.g.data.boards[int(p[P_BOARD])]
            p[P_VP] = self.g.data.raw["start_vp"]
            p[P_COINS] = board.start.get("coins", 0)
            p[P_TOOLS] = board.start.get("tools", 0)
            p[P_SCHOLARS] = 0
            p[P_SCHOLAR_SUPPLY] = self.g.data.raw["scholars_per_player"]
            p[P_BOOKS] = 0
            p[P_BOWLS] = board.bowls
            p[P_SCIENCE] = 0
            p[P_SAILING] = board.sailing_start
            for field in (P_TERRAFORMING, P_CITIES, P_BRIDGES, P_PAVILIONS, P_COMPETENCIES, P_PASSED,
                          P_SPECIALS_USED, P_NEUTRAL_PALACE, P_SETUP_SPADES, P_DEFER_CITY, P_BURNED,
                          P_ADDED_TOKENS):  # fmt: skip
                p[field] = 0
            p[P_BUILT] = 0
            p[P_NEUTRAL_BUILT] = 0
            p[P_INNOVATIONS] = -1
            p[P_PALACE_TILE] = -1
            p[P_DRAFT_PALACE] = -1
            if self.g.is_automa(seat):  # the Automa has no resources (AUTOMA.md §1)
                p[P_COINS] = p[P_TOOLS] = 0
                p[P_BOWLS] = 0
                p[P_SAILING] = 0
        h[:, H_MARK] = 0
        self.round(1)

    # -- setters ------------------------------------------------------------------------------

    def build(self, seat: int, hex_: str, building: str, *, neutral: bool = False, terrain: bool = True) -> Scenario:
        """Place a building (no events); by default the hex becomes the owner's native terrain."""
        s = self.g.state
        pos = parse_hex(hex_)
        if not self.g.geo.land[pos]:
            raise ValueError(f"{hex_} is not a land hex on this board side")
        b = BUILDING_NAMES[building]
        if s.hexes[pos, H_BUILDING]:
            raise ValueError(f"{hex_} is already built")
        if terrain:
            s.hexes[pos, H_TERRAIN] = s.players[seat, P_BOARD]
        s.hexes[pos, H_BUILDING] = b
        s.hexes[pos, H_OWNER] = seat
        s.hexes[pos, H_NEUTRAL] = 1 if neutral else 0
        if neutral:
            s.players[seat, P_NEUTRAL_BUILT.start + b] += 1
            s.glob[G_NEUTRAL_LEFT.start + b] -= 1
            if b == Building.PALACE:
                s.players[seat, P_NEUTRAL_PALACE] = 1
        else:
            s.players[seat, P_BUILT.start + b] += 1
        return self

    def terrain(self, hex_: str, terrain: str) -> Scenario:
        self.g.state.hexes[parse_hex(hex_), H_TERRAIN] = TERRAIN_NAMES[terrain]
        return self

    def pavilion(self, hex_: str) -> Scenario:
        self.g.state.hexes[parse_hex(hex_), H_PAVILION] = 1
        return self

    def city(self, *hexes: str) -> Scenario:
        """Mark buildings as belonging to a city (does not give a tile or key)."""
        for x in hexes:
            self.g.state.hexes[parse_hex(x), H_CITY] = 1
        return self

    def city_tile(self, seat: int, *tiles: str) -> Scenario:
        """The seat has taken these city tiles from the supply (each also a key, R45; the reward
        is not given)."""
        s = self.g.state
        for tile in tiles:
            s.glob[G_CITY_LEFT.start + self.g.data.city_ids.index(tile)] -= 1
            s.players[seat, P_CITIES] += 1
        return self

    def bridge(self, seat: int, a: str, b: str) -> Scenario:
        s = self.g.state
        x, y = parse_hex(a), parse_hex(b)
        n = int(s.glob[G_NUM_BRIDGES])
        s.bridges[n] = (min(x, y), max(x, y), seat)
        s.glob[G_NUM_BRIDGES] = n + 1
        s.players[seat, P_BRIDGES] += 1
        return self

    def set(self, seat: int, **values: Any) -> Scenario:
        """Set player values: vp, coins, tools, scholars, scholar_supply, sailing, terraforming,
        cities, pavilions, passed (ints), bowls (I, II, III), books / science (4 values or a
        dict by discipline).

        The bookkeeping follows unless the call sets it too: ``scholars`` moves scholars between
        holdings and the personal supply (7 in all, R3); ``pavilions`` takes them from (or returns
        them to) the supply (C6); ``science`` with tracks at 8 or more gives at least as many
        keys (R50, as ``cities``); ``passed`` adds the seat to the passing order (R78.4)."""
        s = self.g.state
        p = s.players[seat]
        for key, value in values.items():
            if key == "pavilions":
                s.glob[G_PAVILIONS_LEFT] -= int(value) - int(p[P_PAVILIONS])
                p[P_PAVILIONS] = value
            elif key == "passed":
                p[P_PASSED] = value
                if value and seat not in self._passing:
                    self._passing.append(seat)
                elif not value and seat in self._passing:
                    self._passing.remove(seat)
            elif key in _FIELDS:
                p[_FIELDS[key]] = value
            elif key == "bowls":
                p[P_BOWLS] = value
                tokens = self.g.data.raw["power_tokens_per_player"] + int(p[P_ADDED_TOKENS])
                p[P_BURNED] = tokens - int(sum(value))
            elif key in ("books", "science"):
                field = P_BOOKS if key == "books" else P_SCIENCE
                if isinstance(value, dict):
                    for d, v in value.items():
                        p[field.start + DISC.index(d)] = v
                else:
                    p[field] = value
            else:
                raise ValueError(f"unknown player value {key!r}")
        if "scholars" in values and "scholar_supply" not in values:
            on_board = int(np.count_nonzero(s.glob[G_SCHOLAR_SPACES] == seat))
            p[P_SCHOLAR_SUPPLY] = self.g.data.raw["scholars_per_player"] - int(p[P_SCHOLARS]) - on_board
        if "science" in values and "cities" not in values and not self.g.is_automa(seat):  # she has no keys
            p[P_CITIES] = max(int(p[P_CITIES]), int(np.count_nonzero(p[P_SCIENCE] >= KEY_LEVEL)))
        return self

    def scholar_space(self, seat: int, discipline: str, space: int = 0) -> Scenario:
        """Put one of the seat's scholars on a science space (0 = the "3" space, 1-3 the "2"
        spaces, R47), from the personal supply."""
        s = self.g.state
        i = G_SCHOLAR_SPACES.start + DISC.index(discipline) * 4 + space
        if s.glob[i] != -1:
            raise ValueError(f"scholar space {discipline} {space} is taken")
        s.glob[i] = seat
        s.players[seat, P_SCHOLAR_SUPPLY] -= 1
        return self

    def bonus(self, seat: int, tile: str) -> Scenario:
        """Give the seat a round bonus tile, from the display or its holder (the seat's old tile
        goes back to the display)."""
        s = self.g.state
        b = self.g.data.bonus_ids.index(tile)
        old = int(s.players[seat, P_BONUS])
        if old >= 0:
            s.glob[G_BONUS_STATE.start + old] = -1
        s.players[s.players[:, P_BONUS] == b, P_BONUS] = -1  # taken from its holder, if any
        s.glob[G_BONUS_STATE.start + b] = seat
        s.glob[G_BONUS_COINS.start + b] = 0
        s.players[seat, P_BONUS] = b
        return self._sync_bonus_row()

    def bonus_tiles(self, held: Sequence[str], display: Sequence[str], coins: int | None = None) -> Scenario:
        """Exactly these round bonus tiles: ``held[seat]`` for seats 0, 1, ..., ``display`` face
        up, every other tile out of the game; ``coins``: the coins on every tile, if given."""
        s = self.g.state
        s.glob[G_BONUS_STATE] = -2
        if coins is not None:
            s.glob[G_BONUS_COINS] = coins
        s.players[:, P_BONUS] = -1
        for seat, tile in enumerate(held):
            self.bonus(seat, tile)
        return self.display_bonus(*display)

    def display_bonus(self, *tiles: str) -> Scenario:
        """Put exactly these round bonus tiles on the display (others not held leave the game)."""
        s = self.g.state
        state = s.glob[G_BONUS_STATE]
        state[state == -1] = -2
        for t in tiles:
            b = self.g.data.bonus_ids.index(t)
            if state[b] >= 0:
                raise ValueError(f"bonus tile {t} is held by seat {int(state[b])}")
            state[b] = -1
        return self._sync_bonus_row()

    def _sync_bonus_row(self) -> Scenario:
        """Keep the bonus row (the display in the order an Automa takes from, AUTOMA.md §3.7) equal
        to the display: tiles still shown keep their slots, new ones follow in tile order."""
        glob = self.g.state.glob
        shown = np.flatnonzero(glob[G_BONUS_STATE] == -1).tolist()
        row = [t for t in bonus_row(glob) if t in shown]
        row += [t for t in shown if t not in row]
        set_bonus_row(glob, row[: G_BONUS_ROW.stop - G_BONUS_ROW.start])  # a longer display is the invariants' report
        return self

    def palace_tile(self, seat: int, number: int) -> Scenario:
        """The seat has built its Palace with tile ``number`` (building placed separately)."""
        s = self.g.state
        s.players[seat, P_PALACE_TILE] = number - 1
        s.glob[G_PALACE_STATE.start + number - 1] = seat
        return self

    def draft_palace(self, seat: int, number: int) -> Scenario:
        """Draft variant: palace tile ``number`` waits on the seat's planning board (R68, OP-54)."""
        s = self.g.state
        s.players[seat, P_DRAFT_PALACE] = number - 1
        s.glob[G_PALACE_STATE.start + number - 1] = seat
        return self

    def offer_palace(self, *numbers: int) -> Scenario:
        """Make exactly these palace tiles available (R14)."""
        state = self.g.state.glob[G_PALACE_STATE]
        state[state == -1] = -2
        for n in numbers:
            state[n - 1] = -1
        return self

    def competency(self, seat: int, *ids: str) -> Scenario:
        for c in ids:
            k = int(c.upper().lstrip("C")) - 1
            self.g.state.players[seat, P_COMPETENCIES] |= 1 << k
            self.g.state.glob[G_COMP_LEFT.start + k] -= 1
        return self

    def innovation(self, seat: int, *keys: str) -> Scenario:
        s = self.g.state
        p = s.players[seat]
        for key in keys:
            t = self.g.data.innovation_keys.index(key)
            slot = int(np.count_nonzero(p[P_INNOVATIONS] >= 0))
            p[P_INNOVATIONS.start + slot] = t
            s.glob[G_INNOV_OWNER.start + t] = seat
        return self

    def display_innovations(self, *keys: str) -> Scenario:
        """Put exactly these innovations on the display spaces (in order): the spaces after them
        are left empty, and every innovation neither shown nor held is out of the game (R20)."""
        s = self.g.state
        spaces = s.glob[G_INNOV_SPACES]
        used = int(np.count_nonzero(spaces >= 0))
        if len(keys) > used:
            raise ValueError(f"the display has {used} spaces")
        if len(set(keys)) != len(keys):
            raise ValueError(f"an innovation can lie on one display space only: {keys}")
        owner = s.glob[G_INNOV_OWNER]
        owner[owner == -1] = -2
        spaces[:] = -1
        for i, key in enumerate(keys):
            t = self.g.data.innovation_keys.index(key)
            if owner[t] >= 0:
                raise ValueError(f"innovation {key} is held by seat {owner[t]}")
            spaces[i] = t
            owner[t] = -1
        return self

    def round(self, rnd: int, tile: str | None = None, final: str | None = None) -> Scenario:
        s = self.g.state
        s.glob[G_ROUND] = rnd
        if tile is not None:
            s.glob[G_ROUND_TILES.start + rnd - 1] = self.g.data.round_tile_ids.index(tile)
        if final is not None:
            s.glob[G_FINAL_TILE] = self.g.data.final_tile_ids.index(final)
        return self

    def unchecked(self) -> Scenario:
        """Skip the invariant check of ``turn`` / ``decide``: only for a test that deliberately
        builds a position real play cannot reach (say why where it is used)."""
        self.check = False
        return self

    def state(self):  # noqa: ANN201 - the State, for direct inspection
        return self.g.state

    # -- finish -------------------------------------------------------------------------------

    def _passing_order(self, phase: int) -> None:
        """The passing order (R78.4): the seats marked passed, in the order ``set`` marked them
        (seats whose flag was written directly follow in seat order); an order written directly
        that names exactly the passed seats stays.  Phase I comes before anyone passes (no seat
        passed), Phase III after everyone has (every seat passed, R81)."""
        s = self.g.state
        if phase in (Phase.INCOME, Phase.SCIENCE):
            s.players[: self.g.seats, P_PASSED] = int(phase == Phase.SCIENCE)
        passed = [q for q in range(self.g.seats) if s.players[q, P_PASSED]]
        count = int(s.glob[G_NEXT_COUNT])
        if 0 <= count <= self.g.seats and sorted(s.glob[G_NEXT_ORDER][:count].tolist()) == passed:
            return
        order = [q for q in self._passing if q in passed] + [q for q in passed if q not in self._passing]
        s.glob[G_NEXT_ORDER] = -1
        s.glob[G_NEXT_ORDER.start : G_NEXT_ORDER.start + len(order)] = order
        s.glob[G_NEXT_COUNT] = len(order)

    def turn(self, seat: int, phase: int = Phase.ACTIONS) -> Game:
        """Return the game with ``seat``'s main action pending in Phase II (turn order: seats)."""
        s = self.g.state
        n = self.g.seats
        order = [(seat + k) % n for k in range(n)]
        s.glob[G_ORDER] = -1
        s.glob[G_ORDER.start : G_ORDER.start + n] = order
        self._passing_order(phase)
        s.glob[G_TURN] = 0
        s.glob[G_PHASE] = phase
        s.glob[G_DEPTH] = 0
        pending.push(s, Kind.END_TURN, seat)
        pending.push(s, Kind.MAIN, seat, 0)
        return self._finish()

    def decide(self, kind: Kind, seat: int, *params: int, phase: int = Phase.ACTIONS) -> Game:
        """Return the game with one specific decision pending (e.g. an offer or a spade choice),
        on the seat's END_TURN and the row its sequence always puts under it (``DECIDED_ON``)."""
        s = self.g.state
        s.glob[G_PHASE] = phase
        s.glob[G_DEPTH] = 0
        n = self.g.seats
        s.glob[G_ORDER.start : G_ORDER.start + n] = list(range(n))
        self._passing_order(phase)
        pending.push(s, Kind.END_TURN, seat)
        if kind in DECIDED_ON:
            pending.push(s, DECIDED_ON[kind], seat)
        pending.push(s, kind, seat, *params)
        return self._finish()

    def _finish(self) -> Game:
        if self.g.state.glob[G_PHASE] != Phase.SETUP:
            self._sync_bonus_row()  # also after a test edited the display directly
        self.g._advance()
        if self.check:
            invariants.check(self.g)
        return self.g


def play(g: Game, *moves: str) -> Game:
    """Apply notation moves in order; a failing move names its position in the list."""
    for i, move in enumerate(moves):
        try:
            g.apply_move(move)
        except ValueError as err:
            raise ValueError(f"move {i} ({move!r}): {err}") from None
    return g


def power_moved(before: Game, after: Game, seat: int) -> int:
    """Power gained between two positions (no spending in between): moves I->II plus II->III."""
    b = before.state.players[seat, P_BOWLS]
    a = after.state.players[seat, P_BOWLS]
    return int((a[2] - b[2]) - (a[0] - b[0]))


# ------------------------------------------------------------------------------------------------
# random play and the oracle check (STYLE §5.11)


def random_action(g: Game, rng: np.random.Generator) -> int:
    """A uniformly random legal id of ``g``'s pending decision.

    Draws exactly one ``rng.integers(len(g.legal_actions()))``, the draw of the inline loops the
    tests used, so a seeded generator plays the same positions as they did.  ValueError once the
    game is over (no legal id), without drawing.
    """
    legal = g.legal_actions()
    if not legal:
        raise ValueError("random_action: the game is over, there is no legal action")
    return legal[int(rng.integers(len(legal)))]


def play_random(
    g: Game,
    rng: np.random.Generator,
    until: Callable[[Game], bool] | None = None,
    *,
    max_decisions: int | None = None,
) -> Game:
    """Apply ``random_action(g, rng)`` until ``until(g)`` holds or the game is over; return ``g``.

    ``until`` is checked before every decision (not at all once the game is over), so a game where
    it already holds is left unchanged; without it the game is played to its end.  A caller that
    needs ``until`` to have been reached checks it (or ``g.is_over()``) afterwards.
    ``max_decisions`` caps the ids this call applies (``apply_action`` calls): needing one more is
    an AssertionError naming the count.
    """
    applied = 0
    while not g.is_over() and not (until is not None and until(g)):
        if max_decisions is not None and applied >= max_decisions:
            what = "until(g) still false" if until is not None else "the game not over"
            raise AssertionError(f"play_random: {what} after {applied} decisions (max_decisions={max_decisions})")
        g.apply_action(random_action(g, rng))
        applied += 1
    return g


def biased_random_action(g: Game, rng: np.random.Generator) -> int:
    """A random legal id that prefers real actions over conversions and passing.

    Uniform random play converts resources away and passes early, so it rarely reaches cities,
    palaces or innovations; this bias explores deeper positions for fuzzing.
    """
    from aoi_env.core import moves as m

    legal = g.legal_actions()
    weights = np.ones(len(legal))
    for i, a in enumerate(legal):
        if m.CONVERT_BASE <= a < m.CONVERT_BASE + m.NUM_CONVERSIONS:
            weights[i] = 0.05
        elif a == m.A_PASS:
            weights[i] = 0.03
        elif a == m.DONE:
            weights[i] = 0.5
    return legal[int(rng.choice(len(legal), p=weights / weights.sum()))]


FUZZ_POLICIES = ("biased", "uniform", "heuristic")
"""The move streams of ``fuzz_mover`` (and so of ``check_random_game`` and ``aoi fuzz --policy``)."""

HEURISTIC_RANDOM_SHARE = 0.15
"""The share of a ``heuristic`` fuzz game's decisions taken uniformly at random instead."""


def check_fuzz_policy(policy: str) -> None:
    """ValueError unless ``policy`` is one of ``FUZZ_POLICIES``."""
    if policy not in FUZZ_POLICIES:
        raise ValueError(f"unknown fuzz policy {policy!r}; valid: {', '.join(FUZZ_POLICIES)}")


def fuzz_mover(policy: str, seed: int) -> Callable[[Game], int]:
    """The move stream of the checked game with this seed: ``chooser(g)`` returns the next id.

    ``biased`` (``biased_random_action``) and ``uniform`` (``random_action``) draw from
    ``default_rng(seed + 7919)``.  ``heuristic`` plays each seat with the heuristic player
    (``agents.heuristic.HeuristicAgent(seed=seed + seat)``) and, with probability
    ``HEURISTIC_RANDOM_SHARE`` per decision (drawn from the same generator), a uniformly random id
    instead: strong play reaches the positions random play rarely does (cities, innovations, many
    competencies, high science, a full late game) and the random share keeps the games apart.
    The heuristic searches on clones of the game, so its games also exercise the caches clones
    share.  Deterministic: the same policy and seed give the same moves.
    """
    check_fuzz_policy(policy)
    rng = np.random.default_rng(seed + 7919)
    if policy == "biased":
        return lambda g: biased_random_action(g, rng)
    if policy == "uniform":
        return lambda g: random_action(g, rng)
    from agents.heuristic import HeuristicAgent  # the heuristic player ships with the package

    agents: dict[int, HeuristicAgent] = {}

    def heuristic(g: Game) -> int:
        if rng.random() < HEURISTIC_RANDOM_SHARE:
            return random_action(g, rng)
        seat = g.current_seat()
        agent = agents.get(seat)
        if agent is None:
            agent = agents[seat] = HeuristicAgent(seed=seed + seat)
        return agent.choose(g)

    return heuristic


def check_random_game(
    game: str | GameConfig,
    seed: int,
    *,
    oracle: bool = False,
    policy: str = "biased",
    max_decisions: int | None = None,
) -> Game:
    """Play one game with the moves of ``fuzz_mover(policy, seed)`` (random by default) checking
    the invariants after every decision, strictly (a game played from its start conserves
    pavilions and city tiles exactly), and that it ends within ``max_decisions``, when given.

    With ``oracle`` every legal id of every position is also applied on a clone (each must apply
    cleanly and leave a sound position; ids are plain ``int``, so they serialise to JSON),
    notation strings must be unique and parse back, an illegal id must be rejected with the state
    unchanged, and clone / bytes round trips must be equal.
    """
    from aoi_env.core.invariants import check
    from aoi_env.core.moves import NUM_ACTIONS
    from aoi_env.core.state import G_DECISIONS, State

    g = Game(game, seed=seed)
    choose = fuzz_mover(policy, seed)
    while not g.is_over():
        check(g, strict=True)
        decisions = int(g.state.glob[G_DECISIONS])  # the engine's, forced decisions included (as aoi fuzz)
        if max_decisions is not None and decisions >= max_decisions:
            raise AssertionError(f"no end after {decisions} decisions")
        legal = g.legal_actions()
        if oracle:
            assert all(type(a) is int for a in legal), f"legal ids that are not int: {legal}"
            strings = g.legal_moves()
            assert len(set(s.lower() for s in strings)) == len(strings), f"duplicate notation: {strings}"
            for a, text in zip(legal, strings, strict=True):
                assert g.parse_move(text) == a, text
                c = g.clone()
                c.apply_action(a)
                check(c, strict=True)
            before = g.state.to_bytes()
            illegal = next(x for x in range(NUM_ACTIONS) if x not in legal)
            try:
                g.apply_action(illegal)
            except ValueError:
                pass
            else:
                raise AssertionError(f"illegal id {illegal} was accepted")
            assert g.state.to_bytes() == before, "a rejected id changed the state"
            assert g.clone().state == g.state
            assert State.from_bytes(before) == g.state
        g.apply_action(choose(g))
    check(g, strict=True)
    return g
