"""State invariants (DESIGN Quality, issue 9): checked after every decision by the fuzz tests.

``violations(game)`` returns a list of human-readable problems (empty when the state is sound);
``check(game)`` raises ``AssertionError`` with all of them.  ``raw_env(check_invariants=True)``
runs ``check`` after every step, and ``python -m aoi_env.fuzz`` after every decision of
random games.

What is checked (one small function per group, all read-only):

* resources: coins, tools, scholars, books, bowls, VP (the score), burned / added tokens never
  negative; power tokens in the three bowls = 12 - burned + added (R29, R32, R33); no player
  field beyond 2^20 in size (no game comes near; a score near int32 overflows);
* pieces: buildings on the map = the planning-board counters per building type and owner, never
  more than the printed pieces (R54); neutral pieces on the map + in the supply = the pieces of
  the game (R46); pavilions in hand + in the supply <= 8, + attached = 8 with ``strict`` (C6);
  city tiles taken from the supply <= keys held, = with ``strict`` (R45); bridges on the map = the
  counters, at most 3 per player (R40); scholars in supply + holdings + on the science board = 7
  (R3, R47); a consistent map (a building has an owner, flags only on buildings, no building off
  the land);
* science: levels 0-12, levels >= 8 only with keys (tracks >= 8 <= city tiles, R50, OP-31), at
  most one marker on 12 per discipline, the 2-player neutral markers included (R52, R24);
  scholar spaces hold a seat, the neutral faction or nothing; the 2-player neutral faction has
  one scholar on a "2" space of each discipline (R24.3, OP-62);
* tiles: every round bonus tile, innovation, palace tile and competency is in exactly one place
  and players and displays agree (R53, R68, R73, R78; a drafted palace tile may be on its way
  to the player while its effect is pending); innovation slots fill from the left; an innovation
  lies on one display space at most, an available one on a space (R20); a palace tile only with
  a Palace (R68); the 3 book actions are different tiles (R8); after the setup the bonus row
  (the order an Automa takes tiles in) is the display's tiles, each once;
* tracks: a known planning board or none yet, a faction and a board for every player after
  the setup; sailing and terraforming within the board (R71, R72), 0 without one;
* setup: a faction or planning board in one place only (a seat or the offer); a drafting player
  has as many picks left as kinds of component she lacks, and the offer has enough of each kind
  (R16.7); no pool offers a faction, palace tile or board twice (a solo planning card's two
  factions share its board), each set on offer holds its own bonus tile; a set for every
  player still to take one (R15.4); the setup stage counter agrees
  with the decisions only the setup pushes and is past the setup once round 1 began; the
  initial placements follow the rules' order (``INITIAL_ORDER``: the snake of R21, the Automas'
  pairs between its passes, AUTOMA.md §3.6, Omar's third building, then the Monks' University,
  R22): the buildings each seat has on the map are those of the first k placements, the
  placement rows pending are the rest of the stage's, next first, each of its pass's building;
* round bonus tiles: one on the display while a player has still to pass (R78.2);
* phases: no pending entry of another phase's own sequence (a Phase II turn, a seat's income
  or science bonus): a stack made deeper by hand shows rows an earlier turn left below it;
* competencies: the display holds each of the 12 tiles once (R11);
* ids: every field that indexes a table or a seat (tiles on displays and held, the turn order,
  sets and draft pools, terrains, buildings and owners on the map, bridge ends, the Automa's
  cards and faction) lies in its table's range (-1 = none); the seed and the count of random
  draws are non-negative; an Automa's level and faction are her config's, and her deck, reserve
  and discard pile hold each of her cards once (all of them after the setup);
* the Automa (AUTOMA.md §1): no coins, tools, scholars, books, power, keys, palace tiles,
  competencies, bridges or pavilions; no decision is ever pending for an Automa seat;
* the machine: phase and round in range, this round's turn order a permutation of the seats,
  passing order = the passed seats (none in Phase I, every seat in Phase III), stack depth within
  the stack and its rows of known kinds and seats, the top row a decision of the current player
  with at least one legal move (a main action only for a seat that has not passed), an empty
  stack once the game is over; every row's parameters that name a component part, a seat, a hex
  or a building lie in range; the entries of a turn or of a phase's sequence sit where their
  push puts them (END_TURN at the bottom, MAIN / POST / END_ACTION right above it, a pass's
  bonus tile above END_ACTION, the Automa's steps above her END_TURN, income and science rows
  from the bottom, a power offer right after its build, setup and Phase III spades under no
  other decision, an action's spade, tunnel, flight, Lizard Workshop, innovation, palace tile,
  book payment, one-discipline steps, upgrade, bridge, pavilion, palace 16 Guild and reward order
  choices only as the top row, an upgrade and a pavilion right on the action's END_ACTION,
  palace 15's parts and palace 16's Guild on the palace's city
  check, a reward order on its city tiles, a key or neutral building choice under nothing but a
  key choice, the setup's picks in their distribution order), so a row a turn left behind is
  caught; in Phase I and III the rows above the run of seats still to be paid are one seat's,
  a seat already paid (R57, R80); a palace 14 crossing only for the tile's holder, in v1.2 in
  her own turn (R134).  Not caught: a stale row of a kind that legitimately waits under other
  decisions (a book, any-discipline step, competency, city, TB or palace 14 crossing choice,
  gained in the middle of a compound effect, an income or a science bonus) of the seat it
  belongs to when the decision above it may itself sit on any row (another such choice, a
  spade or key choice): only a decision with a fixed row below (an upgrade, a pavilion, palace
  15 / 16, a reward order) refuses it.  No count of such rows is bounded by what pushed them:
  a city tile's TB (K4) builds again mid-effect, and a bridge may found another seat's city in
  this turn (OP-33), each pushing more of them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from aoi_env.core import automa
from aoi_env.core.pending import UP_ACTION, UP_SWAP, Kind
from aoi_env.core.rules.science import KEY_LEVEL, MAX_LEVEL
from aoi_env.core.setup import SETUP_STAGES
from aoi_env.core.state import (
    G_BONUS_ROW,
    G_BONUS_STATE,
    G_BOOK_ACTIONS,
    G_BUNDLE_BONUS,
    G_BUNDLE_FACTION,
    G_CITY_LEFT,
    G_COMP_LEFT,
    G_COMP_SPACES,
    G_DEPTH,
    G_DRAFT_BOARDS,
    G_DRAFT_FACTIONS,
    G_DRAFT_PALACES,
    G_FINAL_TILE,
    G_INNOV_OWNER,
    G_INNOV_SPACES,
    G_NEUTRAL_LEFT,
    G_NEUTRAL_SCIENCE,
    G_NEXT_COUNT,
    G_NEXT_ORDER,
    G_NUM_BRIDGES,
    G_ORDER,
    G_PALACE_STATE,
    G_PAVILIONS_LEFT,
    G_PHASE,
    G_RNG_COUNTER,
    G_ROUND,
    G_ROUND_TILES,
    G_SCHOLAR_SPACES,
    G_SEED,
    G_SETUP_STEP,
    G_START_PLAYER,
    G_TURN,
    H_BUILDING,
    H_CITY,
    H_MARK,
    H_NEUTRAL,
    H_OWNER,
    H_PAVILION,
    H_TERRAIN,
    MAX_BRIDGES,
    MAX_SEATS,
    MAX_STACK,
    NEUTRAL_SEAT,
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
    P_DRAFT_PALACE,
    P_FACTION,
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
    P_TERRAFORMING,
    P_TOOLS,
    P_VP,
    Phase,
    bonus_row,
)
from aoi_env.data import NUM_POSITIONS
from aoi_env.data.enums import NUM_COMPETENCIES, NUM_DISCIPLINES, Building, Terrain

if TYPE_CHECKING:
    from aoi_env.core.engine import Game

NUM_BUILDINGS = 8  # Building 0 (none) .. 7 (monument)
MAX_MAGNITUDE = 1 << 20  # no count, score or bit mask of a player comes near; scores stay far from int32 overflow
KINDS = frozenset(int(k) for k in Kind)
FLAGS = [H_NEUTRAL, H_PAVILION, H_CITY, H_MARK]
NEUTRAL_SCHOLAR_STEPS = 2  # R24.3: the 2-player neutral faction's scholar blocks a "2" space of each discipline


def violations(g: Game, strict: bool = False) -> list[str]:
    """Every broken invariant of the position, as readable sentences (empty = sound).

    ``strict`` adds the exact conservation of pavilions and city tiles (``STRICT_GROUPS``), which
    holds in every played game; ``testing.Scenario`` positions may hand out pavilions and keys
    without taking the pieces (``.pavilion``, ``.set(cities=...)``), so the default checks only
    that no piece appears from nowhere.
    """
    out: list[str] = []
    for group in GROUPS:
        group(g, out)
    if strict:
        for group in STRICT_GROUPS:
            group(g, out)
    return out


def neutral_faction(g: Game) -> bool:
    """R24: a 2-player game without an Automa has the neutral faction (scholars, science markers)."""
    return g.seats == 2 and not g.config.automa


def check(g: Game, strict: bool = False) -> None:
    """Raise ``AssertionError`` listing every violation (see ``violations``)."""
    problems = violations(g, strict)
    if problems:
        raise AssertionError("; ".join(problems))


# ------------------------------------------------------------------------------------------------
# resources and power


NON_NEGATIVE = (
    ("coins", P_COINS), ("tools", P_TOOLS), ("scholars", P_SCHOLARS), ("scholar supply", P_SCHOLAR_SUPPLY),
    ("VP", P_VP), ("burned tokens", P_BURNED), ("added tokens", P_ADDED_TOKENS), ("setup spades", P_SETUP_SPADES),
)  # fmt: skip
NON_NEGATIVE_COLUMNS = [field for _, field in NON_NEGATIVE]


def _resources(g: Game, out: list[str]) -> None:
    s = g.state
    p = s.players
    negative = p[:, NON_NEGATIVE_COLUMNS] < 0
    if negative.any():
        for seat, i in zip(*np.nonzero(negative), strict=True):
            out.append(f"seat {seat}: {NON_NEGATIVE[i][0]} is negative ({int(p[seat, NON_NEGATIVE[i][1]])})")
    for seat in np.flatnonzero((p[:, P_BOOKS] < 0).any(axis=1) | (p[:, P_BOWLS] < 0).any(axis=1)):
        out.append(f"seat {seat}: negative books or bowls {p[seat, P_BOOKS].tolist()} {p[seat, P_BOWLS].tolist()}")
    if s.glob[G_PHASE] != Phase.SETUP:
        humans = g.config.players
        tokens = g.data.raw["power_tokens_per_player"] - p[:humans, P_BURNED] + p[:humans, P_ADDED_TOKENS]
        bowls = p[:humans, P_BOWLS].sum(axis=1)
        for seat in np.flatnonzero(bowls != tokens):
            out.append(f"seat {seat}: {int(bowls[seat])} power tokens in the bowls, expected {int(tokens[seat])}")
    for seat in np.flatnonzero((p[:, P_PASSED] != 0) & (p[:, P_PASSED] != 1)):
        out.append(f"seat {seat}: passed flag is {int(p[seat, P_PASSED])}")
    for seat, field in zip(*np.nonzero(np.abs(p.astype(np.int64)) >= MAX_MAGNITUDE), strict=True):
        out.append(f"seat {seat}: field {field} is {int(p[seat, field])}, beyond any game (|x| < {MAX_MAGNITUDE})")


# ------------------------------------------------------------------------------------------------
# pieces: buildings, neutral pieces, pavilions, bridges, scholars, map consistency


def _map(g: Game, out: list[str]) -> None:
    h = g.state.hexes
    building = h[:, H_BUILDING]
    built = building > 0
    owner = h[:, H_OWNER]
    if ((building < 0) | (building >= NUM_BUILDINGS)).any():
        out.append(f"unknown building type on the map: {sorted(set(building.tolist()))}")
    problems = (
        ("buildings without a valid owner", built & ((owner < 0) | (owner >= g.seats))),
        ("owner set on empty hexes", ~built & (owner != -1)),
        ("buildings off the land", built & ~g.geo.land),
        ("neutral / pavilion / city / mark flags on empty hexes", ~built & (h[:, FLAGS] != 0).any(axis=1)),
        ("marked buildings not an Automa's (AUTOMA.md §5.1)", (h[:, H_MARK] != 0) & (owner < g.config.players)),
    )  # fmt: skip
    for text, bad in problems:
        if bad.any():
            out.append(f"{text} at positions {np.flatnonzero(bad).tolist()}")


def _buildings(g: Game, out: list[str]) -> None:
    s = g.state
    h = s.hexes
    p = s.players
    n = g.seats
    pieces = np.asarray(g.data.building_pieces)
    owner = h[:, H_OWNER].astype(np.intp)
    btype = h[:, H_BUILDING].astype(np.intp)
    ok = (btype > 0) & (btype < NUM_BUILDINGS) & (owner >= 0) & (owner < n)  # the rest is _map's report
    index = (owner[ok] * 2 + (h[ok, H_NEUTRAL] != 0)) * NUM_BUILDINGS + btype[ok]
    counts = np.bincount(index, minlength=n * 2 * NUM_BUILDINGS).reshape(n, 2, NUM_BUILDINGS)
    counters = np.stack([p[:, P_BUILT], p[:, P_NEUTRAL_BUILT]], axis=1)
    for seat, b in zip(*np.nonzero((counts != counters).any(axis=1)), strict=True):
        out.append(
            f"seat {seat}: building {b} count mismatch (map {counts[seat, 0, b]}/{counts[seat, 1, b]}, "
            f"counters {counters[seat, 0, b]}/{counters[seat, 1, b]})"
        )
    for seat, b in zip(*np.nonzero((p[:, P_BUILT] > pieces) | (p[:, P_BUILT] < 0)), strict=True):
        out.append(f"seat {seat}: {int(p[seat, P_BUILT.start + b])} buildings of type {b}, {pieces[b]} pieces")
    has_neutral_palace = (p[:, P_NEUTRAL_BUILT.start + Building.PALACE] > 0).astype(p.dtype)
    for seat in np.flatnonzero(p[:, P_NEUTRAL_PALACE] != has_neutral_palace):
        out.append(f"seat {seat}: neutral palace flag {int(p[seat, P_NEUTRAL_PALACE])} without the piece (OP-39)")


def _neutral_pieces(g: Game, out: list[str]) -> None:
    s = g.state
    owned = s.players[:, P_NEUTRAL_BUILT].sum(axis=0).tolist()
    left = s.glob[G_NEUTRAL_LEFT].tolist()
    for key, count in g.data.raw["neutral_pieces"].items():
        b = int(Building[key.upper()])
        if left[b] < 0 or left[b] + owned[b] != count:
            out.append(f"neutral {key}: {left[b]} in the supply + {owned[b]} on the map != {count} pieces (R46)")


def _pavilions(g: Game, out: list[str]) -> None:
    s = g.state
    hand = s.players[:, P_PAVILIONS].tolist()
    left = int(s.glob[G_PAVILIONS_LEFT])
    total = g.data.raw["pavilion_pieces"]
    if left < 0 or min(hand) < 0 or left + sum(hand) > total:
        out.append(f"pavilions: {left} in the supply + {hand} in hand, {total} pieces (C6)")


def _pavilions_exact(g: Game, out: list[str]) -> None:
    s = g.state
    attached = int(np.count_nonzero(s.hexes[:, H_PAVILION]))
    hand = s.players[:, P_PAVILIONS].tolist()
    left = int(s.glob[G_PAVILIONS_LEFT])
    total = g.data.raw["pavilion_pieces"]
    if left + sum(hand) + attached != total:
        out.append(f"pavilions: {left} in the supply + {hand} in hand + {attached} attached != {total} (C6)")


def _bridges(g: Game, out: list[str]) -> None:
    s = g.state
    n = int(s.glob[G_NUM_BRIDGES])
    if not 0 <= n <= MAX_BRIDGES:
        out.append(f"{n} bridges on the map, at most {MAX_BRIDGES}")
        return
    rows = s.bridges[:n].tolist()
    if s.bridges[n:].any():
        out.append("bridge rows beyond the bridge count are not empty")
    if len({(a, b) for a, b, _ in rows}) != n or any(a >= b for a, b, _ in rows):
        out.append(f"duplicate or unordered bridges {rows}")
    owners = [seat for _, _, seat in rows]
    if any(not 0 <= seat < g.seats for seat in owners):
        out.append(f"bridge of an unknown seat {rows}")
    per_player = g.data.raw["bridges_per_player"]
    for seat, counter in enumerate(s.players[:, P_BRIDGES].tolist()):
        count = owners.count(seat)
        if count != counter:
            out.append(f"seat {seat}: {count} bridges on the map, counter says {counter}")
        if count > per_player:
            out.append(f"seat {seat}: {count} bridges, at most {per_player} (R40)")


def _scholars(g: Game, out: list[str]) -> None:
    s = g.state
    spaces = s.glob[G_SCHOLAR_SPACES].tolist()
    n = g.seats
    neutral = neutral_faction(g)
    if any(not (x == -1 or 0 <= x < n or (x == NEUTRAL_SEAT and neutral)) for x in spaces):
        out.append(f"scholar spaces hold unknown occupants {spaces}")
    total = g.data.raw["scholars_per_player"]
    held = s.players[:, P_SCHOLARS].tolist()
    supply = s.players[:, P_SCHOLAR_SUPPLY].tolist()
    for seat in range(n):
        have = held[seat] + supply[seat] + spaces.count(seat)
        if have != total:
            out.append(f"seat {seat}: {have} scholars in supply, holdings and on the board, expected {total}")
    if neutral:  # R24.3, OP-62: one neutral scholar on a "2" space of each discipline, for the whole game
        steps = g.data.raw["science"]["scholar_spaces"]
        for d in range(len(spaces) // len(steps)):
            mine = [steps[i] for i, x in enumerate(spaces[d * len(steps) : (d + 1) * len(steps)]) if x == NEUTRAL_SEAT]
            if mine != [NEUTRAL_SCHOLAR_STEPS]:
                out.append(f"discipline {d}: neutral scholars on spaces of {mine} steps, R24 puts one on a 2")


# ------------------------------------------------------------------------------------------------
# science and tracks


def _science(g: Game, out: list[str]) -> None:
    s = g.state
    sci = s.players[:, P_SCIENCE].tolist()
    keys = s.players[:, P_CITIES].tolist()
    neutral = s.glob[G_NEUTRAL_SCIENCE].tolist()
    for seat, levels in enumerate(sci):
        if any(not 0 <= v <= MAX_LEVEL for v in levels):
            out.append(f"seat {seat}: science level out of range {levels}")
        unlocked = sum(v >= KEY_LEVEL for v in levels)
        if unlocked > keys[seat]:
            out.append(f"seat {seat}: {unlocked} tracks above 7 with {keys[seat]} keys (R50)")
    if any(not 0 <= v <= MAX_LEVEL for v in neutral) or (any(neutral) and not neutral_faction(g)):
        out.append(f"neutral science levels {neutral} (R24: only the 2-player neutral faction has markers)")
    tops = [sum(levels[d] >= MAX_LEVEL for levels in [*sci, neutral]) for d in range(len(neutral))]
    if max(tops) > 1:
        out.append(f"more than one marker on level 12: {tops} (R52)")


def _tracks(g: Game, out: list[str]) -> None:
    s = g.state
    for seat in range(g.seats):
        p = s.players[seat]
        if not -1 <= p[P_FACTION] < len(g.data.factions):  # -1: not chosen yet, or an Automa's
            out.append(f"seat {seat}: unknown faction {int(p[P_FACTION])}")
        if not -1 <= p[P_BOARD] < len(g.data.boards):
            out.append(f"seat {seat}: unknown planning board {int(p[P_BOARD])}")
            continue
        if s.glob[G_PHASE] != Phase.SETUP and g.is_player(seat) and (p[P_FACTION] < 0 or p[P_BOARD] < 0):
            out.append(f"seat {seat}: no faction or planning board after the setup (R15, R16)")
        if p[P_BOARD] == -1:  # the tracks start with the board (R17.3)
            if p[P_SAILING] or p[P_TERRAFORMING]:
                tracks = f"{int(p[P_SAILING])} / {int(p[P_TERRAFORMING])}"
                out.append(f"seat {seat}: sailing / terraforming {tracks} without a planning board")
            continue
        board = g.data.boards[int(p[P_BOARD])]
        if not 0 <= p[P_SAILING] <= board.sailing_max:
            out.append(f"seat {seat}: sailing {int(p[P_SAILING])} outside 0..{board.sailing_max} (R71)")
        top = len(board.terraforming_tools) - 1
        if not 0 <= p[P_TERRAFORMING] <= top:
            out.append(f"seat {seat}: terraforming {int(p[P_TERRAFORMING])} outside 0..{top} (R72)")


# ------------------------------------------------------------------------------------------------
# tiles: bonus, innovations, palace tiles, competencies, cities


def _holders(g: Game, tiles: list[list[int]], size: int, what: str, out: list[str]) -> list[int]:
    """Tile -> seat from each seat's list of held tiles (-9 = nobody); a tile held twice is reported."""
    holder = [-9] * size
    for seat, held in enumerate(tiles):
        for t in held:
            if not 0 <= t < size:
                out.append(f"seat {seat} holds unknown {what} {t}")
            elif holder[t] != -9:
                out.append(f"{what} {t + 1} is held by seats {holder[t]} and {seat}")
            else:
                holder[t] = seat
    return holder


def _bonus_tiles(g: Game, out: list[str]) -> None:
    s = g.state
    state = s.glob[G_BONUS_STATE].tolist()
    held = [[b] if b >= 0 else [] for b in s.players[:, P_BONUS].tolist()]
    holder = _holders(g, held, len(state), "bonus tile", out)
    to_pass = not s.players[: g.seats, P_PASSED].all()
    if s.glob[G_PHASE] == Phase.ACTIONS and to_pass and -1 not in state:  # 3 on the display in a game (R15.2)
        out.append("no round bonus tile on the display for a player who passes (R78.2)")
    for b, where in enumerate(state):
        if where < -2 or ((where >= 0 or holder[b] >= 0) and where != holder[b]):
            out.append(f"bonus tile B{b + 1} is with {where} by the display, with seat {holder[b]} by the players")


def _innovations(g: Game, out: list[str]) -> None:
    s = g.state
    owner = s.glob[G_INNOV_OWNER].tolist()
    slots = s.players[:, P_INNOVATIONS].tolist()
    held = [[t for t in row if t >= 0] for row in slots]
    for seat, row in enumerate(slots):
        if any(t < 0 for t in row[: len(held[seat])]):
            out.append(f"seat {seat}: innovation slots {row} not filled from the left (R73)")
    holder = _holders(g, held, len(owner), "innovation", out)
    for t, where in enumerate(owner):
        if (where >= 0 or holder[t] >= 0) and where != holder[t]:
            out.append(f"innovation {t} is with seat {where} by the display, with seat {holder[t]} by the players")
    # a display space keeps its tile once taken (R20): the tiles on the spaces are the ones in the game
    shown = [t for t in s.glob[G_INNOV_SPACES].tolist() if 0 <= t < len(owner)]
    if len(set(shown)) != len(shown):
        out.append(f"an innovation lies on two display spaces: {shown} (R20)")
    for t, where in enumerate(owner):  # (a held one may be off the display in a testing.Scenario position)
        if where == -1 and t not in shown:
            out.append(f"innovation {t} is available but on no display space (R20)")
        elif where == -2 and t in shown:
            out.append(f"innovation {t} is out of the game but on a display space (R20)")


def _palace_tiles(g: Game, out: list[str]) -> None:
    s = g.state
    state = s.glob[G_PALACE_STATE].tolist()
    built = s.players[:, P_PALACE_TILE].tolist()  # placed when the Palace is built (R68)
    drafted = s.players[:, P_DRAFT_PALACE].tolist()
    held = [[t for t in (built[q], drafted[q]) if t >= 0] for q in range(g.seats)]
    holder = _holders(g, held, len(state), "palace tile", out)
    for t, where in enumerate(state):
        if (where >= 0 or holder[t] >= 0) and where != holder[t]:
            out.append(f"palace tile {t + 1} is with seat {where} by the display, with seat {holder[t]} by the players")
    palace = s.players[:, P_BUILT.start + Building.PALACE] + s.players[:, P_NEUTRAL_PALACE]
    for seat in range(g.seats):
        if built[seat] >= 0 and not palace[seat]:
            out.append(f"seat {seat} holds palace tile {built[seat] + 1} without a Palace (R68)")


def _displays(g: Game, out: list[str]) -> None:
    """The 3 book actions are different tiles (R8); after the setup the bonus row (the order an
    Automa takes tiles in, AUTOMA.md §3.7) holds the round bonus tiles on the display, each once."""
    s = g.state
    books = s.glob[G_BOOK_ACTIONS].tolist()
    if min(books) < 0 or len(set(books)) != len(books):
        out.append(f"book actions {books}: not {len(books)} different tiles (R8)")
    if s.glob[G_PHASE] != Phase.SETUP:
        row = bonus_row(s.glob)
        shown = np.flatnonzero(s.glob[G_BONUS_STATE] == -1).tolist()
        if sorted(row) != shown:
            out.append(f"bonus row {row} is not the display's tiles {shown}, each once")


def _competencies(g: Game, out: list[str]) -> None:
    s = g.state
    copies = g.data.raw["competency_display"]["copies"]
    masks = s.players[:, P_COMPETENCIES].astype(np.int64)
    taken = (masks[:, None] >> np.arange(NUM_COMPETENCIES) & 1).sum(axis=0)
    left = s.glob[G_COMP_LEFT]
    for c in np.flatnonzero((left < 0) | (left + taken != copies)):
        out.append(f"competency C{c + 1}: {int(left[c])} left + {int(taken[c])} taken != {copies} copies (R53)")
    spaces = sorted(s.glob[G_COMP_SPACES].tolist())
    if spaces != list(range(len(spaces))):
        out.append(f"competency display {spaces}: not each of the {len(spaces)} tiles once (R11)")
    if (masks >> 12).any() or (masks < 0).any():
        out.append(f"competency masks name unknown tiles {masks.tolist()}")


def _cities(g: Game, out: list[str]) -> None:
    s = g.state
    copies = g.data.raw["city_copies"]
    left = s.glob[G_CITY_LEFT].tolist()
    held = s.players[:, P_CITIES].tolist()
    taken = sum(copies - k for k in left)
    if any(not 0 <= k <= copies for k in left) or min(held) < 0:
        out.append(f"city tiles left {left}, held {held}")
    elif taken > sum(held):
        out.append(f"{taken} city tiles taken, players hold {sum(held)} (R45)")


def _cities_exact(g: Game, out: list[str]) -> None:
    copies = g.data.raw["city_copies"]
    taken = sum(copies - k for k in g.state.glob[G_CITY_LEFT].tolist())
    held = int(g.state.players[:, P_CITIES].sum())
    if taken != held:
        out.append(f"{taken} city tiles taken, players hold {held} keys (R45)")


# ------------------------------------------------------------------------------------------------
# the Automa and the decision machine


AUTOMA_EMPTY = (
    ("coins", P_COINS), ("tools", P_TOOLS), ("scholars", P_SCHOLARS), ("cities", P_CITIES),
    ("bridges", P_BRIDGES), ("pavilions", P_PAVILIONS), ("competencies", P_COMPETENCIES),
    ("burned", P_BURNED), ("added tokens", P_ADDED_TOKENS), ("terraforming", P_TERRAFORMING),
)  # fmt: skip


def _automa(g: Game, out: list[str]) -> None:
    for seat in range(g.config.players, g.seats):
        p = g.state.players[seat]
        for name, field in AUTOMA_EMPTY:
            if p[field] != 0:
                out.append(f"Automa seat {seat} has {name} ({int(p[field])}) (AUTOMA.md §1)")
        if p[P_BOOKS].any() or p[P_BOWLS].any():
            out.append(f"Automa seat {seat} has books or power {p[P_BOOKS].tolist()} {p[P_BOWLS].tolist()}")
        if p[P_PALACE_TILE] >= 0 or p[P_DRAFT_PALACE] >= 0:
            out.append(f"Automa seat {seat} has a palace tile (AUTOMA.md §11)")


def _turn_order(g: Game, out: list[str]) -> None:
    s = g.state
    phase, rnd = int(s.glob[G_PHASE]), int(s.glob[G_ROUND])
    if not 0 <= phase < len(Phase.NAMES) or not 0 <= rnd <= 7:
        out.append(f"phase {phase} / round {rnd} out of range")
        return
    if (phase == Phase.OVER) != (rnd == 7) or (phase == Phase.SETUP) != (rnd == 0):
        out.append(f"phase {Phase.NAMES[phase]} in round {rnd}")
    if phase in (Phase.SETUP, Phase.OVER):
        return
    n = g.seats
    order = s.glob[G_ORDER]
    if sorted(order[:n].tolist()) != list(range(n)) or (order[n:] != -1).any():
        out.append(f"turn order {order.tolist()} is not a permutation of the {n} seats")
    count = int(s.glob[G_NEXT_COUNT])
    nxt = s.glob[G_NEXT_ORDER][: max(0, min(count, n))].tolist()
    passed = [seat for seat in range(n) if s.players[seat, P_PASSED]]
    if phase == Phase.ACTIONS and (len(set(nxt)) != count or sorted(nxt) != passed):
        out.append(f"passing order {nxt} does not match the passed seats {passed} (R78.4)")
    elif phase == Phase.INCOME and (passed or count):
        out.append(f"seats {passed} passed, a passing order of {count}, before the round's actions (R56)")
    elif phase == Phase.SCIENCE and (count != n or sorted(nxt) != list(range(n))):
        out.append(f"passing order {nxt} ({count} seats) after the actions is not every seat once (R78.4, R81)")


def _phase_name(phase: int) -> str:
    return Phase.NAMES[phase] if 0 <= phase < len(Phase.NAMES) else str(phase)


SETUP_KIND_STEPS = {
    Kind.SOLO_PICK: (1,), Kind.DRAFT_PICK: (1,), Kind.PICK_BUNDLE: (1,), Kind.PICK_BONUS: (1, 2),
    Kind.PLAYER_SETUP: (3,), Kind.INITIAL_PLACE: (4, 5), Kind.INITIAL_KIND: (4, 5), Kind.AUTOMA_SETUP: (4,),
}  # fmt: skip
"""The decisions only the setup pushes, and the values of its step counter while they wait
(``setup.setup_step``: stage k pushes its decisions and sets the counter to k + 1)."""
LAST_SETUP_STEP = len(SETUP_STAGES) + 1  # the counter once the first round has started


PHASE_KINDS = {
    Kind.MAIN: Phase.ACTIONS, Kind.POST: Phase.ACTIONS, Kind.END_ACTION: Phase.ACTIONS,
    Kind.PASS_BONUS: Phase.ACTIONS, Kind.AUTOMA_STEP: Phase.ACTIONS,
    Kind.INCOME_SEAT: Phase.INCOME, Kind.SCIENCE_SEAT: Phase.SCIENCE,
}  # fmt: skip
"""Entries only a phase's own sequence pushes (a turn of Phase II, a seat's income or science
bonus).  Not END_TURN: ``testing.Scenario.decide`` puts one under a decision of any phase."""


def _pending_rows(g: Game) -> list[list[int]]:
    """The pending stack's rows, bottom first (a depth out of range is ``_stack``'s report)."""
    return g.state.stack[: max(0, min(int(g.state.glob[G_DEPTH]), MAX_STACK))].tolist()


def _stage(g: Game, out: list[str]) -> None:
    """The setup's step counter and every pending entry belong to this phase and stage: a stack
    made deeper by hand shows rows an earlier turn left below the depth (``pending.pop`` only
    moves the depth), a step counter edited by hand skips a stage of the setup."""
    s = g.state
    step, phase = int(s.glob[G_SETUP_STEP]), int(s.glob[G_PHASE])
    setup = phase == Phase.SETUP
    if not (1 <= step < LAST_SETUP_STEP if setup else step == LAST_SETUP_STEP):
        out.append(f"setup step {step} in phase {_phase_name(phase)}")
        return
    for kind in {row[0] for row in _pending_rows(g)}:
        if kind in SETUP_KIND_STEPS and not (setup and step in SETUP_KIND_STEPS[kind]):
            out.append(f"a {Kind(kind).name.lower()} decision waits at setup step {step}, phase {_phase_name(phase)}")
        if PHASE_KINDS.get(kind, phase) != phase:
            out.append(f"a {Kind(kind).name.lower()} entry is pending in phase {_phase_name(phase)}")


def _setup_picks(g: Game, out: list[str]) -> None:
    """Every pick still pending in the setup can be made: no faction or planning board held twice
    or both held and on offer, a drafting player's picks left = the kinds of component she lacks
    (R16.7), enough of each kind on offer, a set for every player still to take one (R15.4)."""
    s = g.state
    p = s.players[: g.seats]
    for what, field, pool in (("faction", P_FACTION, G_DRAFT_FACTIONS), ("planning board", P_BOARD, G_DRAFT_BOARDS)):
        held = [v for v in p[:, field].tolist() if v >= 0]
        offered = set(s.glob[pool].tolist()) - {-1} if s.glob[G_PHASE] == Phase.SETUP else set()
        if len(held) != len(set(held)) or offered & set(held):
            out.append(f"{what}s {held} held by the seats, {sorted(offered)} on offer: one is in two places")
    rows = [row for row in _pending_rows(g) if 0 <= row[1] < g.seats]  # another seat is _stack's report
    drafting = [row[1] for row in rows if row[0] == Kind.DRAFT_PICK]
    if drafting:
        kinds = ((P_BOARD, G_DRAFT_BOARDS), (P_FACTION, G_DRAFT_FACTIONS), (P_DRAFT_PALACE, G_DRAFT_PALACES))
        for seat in sorted(set(drafting)):
            lacks = sum(int(p[seat, field]) < 0 for field, _ in kinds)
            if drafting.count(seat) != lacks:
                left = drafting.count(seat)
                out.append(f"seat {seat} has {left} draft picks left and lacks {lacks} components (R16.7)")
        for field, pool in kinds:
            lacking = sum(int(p[seat, field]) < 0 for seat in set(drafting))
            if lacking > int((s.glob[pool] >= 0).sum()):
                out.append(f"{lacking} seats still draft from a pool of {int((s.glob[pool] >= 0).sum())} (R16.7)")
    solo_cards = g.config.players == 1 and bool(g.config.automa)  # AUTOMA.md §3.3: a card's 2 factions share its board
    pools = (("faction", G_DRAFT_FACTIONS), ("palace tile", G_DRAFT_PALACES), ("planning board", G_DRAFT_BOARDS),
             ("set faction", G_BUNDLE_FACTION))  # fmt: skip
    for what, pool in pools:
        entries = [v for v in s.glob[pool].tolist() if v >= 0]
        if len(set(entries)) != len(entries) and not (solo_cards and pool == G_DRAFT_BOARDS):
            out.append(f"the {what} pool {entries} offers one twice (R15, R16)")
    bundles = zip(s.glob[G_BUNDLE_FACTION].tolist(), s.glob[G_BUNDLE_BONUS].tolist(), strict=True)
    sets = [b for f, b in bundles if f >= 0]
    if any(b < 0 for b in sets) or len(set(sets)) != len(sets):
        out.append(f"the sets on offer hold the bonus tiles {sets}: one missing or twice (R15.4)")
    takers = [row[1] for row in rows if row[0] == Kind.PICK_BUNDLE]
    if len(takers) > int((s.glob[G_BUNDLE_FACTION] >= 0).sum()) or any(p[seat, P_FACTION] >= 0 for seat in takers):
        out.append(f"seats {takers} still take a set, {int((s.glob[G_BUNDLE_FACTION] >= 0).sum())} on offer (R15.4)")


INITIAL_ORDER: tuple[tuple[str, bool, int, frozenset[int], int], ...] = (
    ("-setup_university", False, 1, frozenset({Building.WORKSHOP}), 4),  # R21; the Monks place no Workshop (R22.1)
    ("automa", False, 2, frozenset({Building.WORKSHOP}), 4),  # AUTOMA.md §3.6: marked, then unmarked
    ("-setup_university", True, 1, frozenset({Building.WORKSHOP}), 4),  # R21: back in reverse turn order
    ("+setup_tower", False, 1, frozenset({Building.WORKSHOP}), 5),  # R22.2, OP-43: Omar's third building
    ("+setup_university", False, 1, frozenset({Building.UNIVERSITY}), 5),  # R22.3, OP-44: the Monks last
)
"""The initial placements (R21, R22, AUTOMA.md §3.6), pass by pass: (who places: an Automa, or a
human whose faction has ("+") or lacks ("-") the flag; in reverse turn order; buildings each;
the building placed (Omar's Tower may replace any of his three, OP-43); the setup step counter
while the pass's rows wait, ``SETUP_KIND_STEPS``).  The turn order is the start player's, the
humans before the Automas (R21, AUTOMA.md §3.7).  Competencies chosen at setup (R22.3, R23) come
after every placement; a neutral Tower they give (C10) is no initial placement."""
INITIAL_KINDS = {Kind.INITIAL_PLACE: 1, Kind.INITIAL_KIND: 1, Kind.AUTOMA_SETUP: 2}
"""Rows of the initial placements and how many buildings each places (an Automa's two at once)."""
FIRST_PLACEMENT_STEP = min(step for *_, step in INITIAL_ORDER)


def _initial_order(g: Game) -> list[tuple[int, frozenset[int], int]]:
    """The rules' placement sequence, one (seat, buildings allowed, setup step) per building placed."""
    humans, start = g.config.players, int(g.state.glob[G_START_PLAYER])
    turn_order = [(start + k) % humans for k in range(humans)] + list(range(humans, g.seats))
    flags = {seat: g.tab.faction_flags[int(g.state.players[seat, P_FACTION])] for seat in range(humans)}
    out = []
    for who, reverse, each, allowed, step in INITIAL_ORDER:
        if who == "automa":
            seats = [seat for seat in turn_order if seat >= humans]
        else:
            seats = [seat for seat in turn_order if seat < humans and bool(flags[seat][who[1:]]) == (who[0] == "+")]
        for seat in seats[::-1] if reverse else seats:
            tower = seat < humans and flags[seat]["setup_tower"]
            out += [(seat, allowed | {Building.TOWER} if tower else allowed, step)] * each
    return out


def _initial_placements(g: Game, out: list[str]) -> None:
    """R21, R22, AUTOMA.md §3.6: the initial buildings are placed in the rules' order.  From the
    buildings on the map (k placed so far) the first k of the sequence are done, each seat has
    placed as many as it gives her, and the placement rows waiting are the rest of the current
    stage's, next first, each of the building its pass places."""
    s = g.state
    if s.glob[G_PHASE] != Phase.SETUP:
        return
    h, step = s.hexes, int(s.glob[G_SETUP_STEP])
    built, owner, neutral = h[:, H_BUILDING] > 0, h[:, H_OWNER], h[:, H_NEUTRAL] != 0
    humans = g.config.players
    factions = s.players[:humans, P_FACTION].tolist()
    known = all(0 <= f < len(g.data.factions) for f in factions)
    if step < FIRST_PLACEMENT_STEP or not known:  # no faction yet: nothing may have been placed
        k = int(built.sum())
        if k:
            out.append(f"{k} buildings on the map at setup step {step}, before the initial placements (R21)")
        return
    towers = [seat < humans and g.tab.faction_flags[factions[seat]]["setup_tower"] for seat in range(g.seats)]
    placed = [int((built & (owner == seat) & (~neutral | towers[seat])).sum()) for seat in range(g.seats)]
    order = _initial_order(g)
    k = sum(placed)
    given = [sum(seat == q for q, _, _ in order[:k]) for seat in range(g.seats)]
    if k > (limit := sum(at <= step for *_, at in order)):
        out.append(f"{k} initial buildings on the map at setup step {step}, its stage ends at {limit} (R21, R22)")
        return
    if placed != given:
        out.append(
            f"initial buildings per seat {placed} after {k} placements at setup step {step}, "
            f"the placement order gives {given} (R21, R22, AUTOMA.md §3.6)"
        )
        return
    rows = [row for row in reversed(_pending_rows(g)) if row[0] in INITIAL_KINDS]  # next first
    waiting = [(seat, allowed) for seat, allowed, at in order[k:] if at <= step]
    seats = [row[1] for row in rows for _ in range(INITIAL_KINDS[row[0]])]
    if seats != [seat for seat, _ in waiting]:
        out.append(
            f"initial placements pending for seats {seats} (next first) after {k} placements, "
            f"the placement order gives {[seat for seat, _ in waiting]} (R21, R22, AUTOMA.md §3.6)"
        )
        return
    i = 0
    for row in rows:  # an Automa's row places her two, a human's one: the seats matched above
        seat, allowed = waiting[i]
        i += INITIAL_KINDS[row[0]]
        kind, choice = Kind(row[0]), len(allowed) > 1  # Omar chooses each building (OP-43)
        if (kind == Kind.AUTOMA_SETUP) != (seat >= g.config.players) or (kind == Kind.INITIAL_KIND and not choice):
            out.append(f"seat {seat}'s initial placement is a {kind.name.lower()} row (R21, R22, AUTOMA.md §3.6)")
        elif kind == Kind.INITIAL_PLACE and row[2] not in allowed:
            given = sorted(int(b) for b in allowed)
            out.append(f"seat {seat}'s initial placement is building {row[2]}, the rules give {given} (R21, R22)")


SEAT_RUNS = {
    Phase.INCOME: (Kind.INCOME_SEAT, "income", "R57"),
    Phase.SCIENCE: (Kind.SCIENCE_SEAT, "science bonus", "R80"),
}
"""Phases resolved seat by seat: phase -> (the row of a seat still to come, what it pays, rule)."""


def _seat_runs(g: Game, out: list[str]) -> None:
    """R57, R80: Phase I's incomes and Phase III's science bonuses are paid seat by seat, each
    seat's row taken from the top of the run at the bottom of the stack (``STACK_SHAPE``); the
    choices, keys and spades they ask for are the paid seat's only (a gain pushes rows for its
    own seat, and no income or bonus builds, so no other seat is offered power or founds a city),
    answered before the next seat is paid.  So every row above the run is one seat's, a seat
    whose row has left the run: a choice left from another seat's income or bonus, or asked
    before its own, would be answered in another seat's place."""
    phase = int(g.state.glob[G_PHASE])
    if phase not in SEAT_RUNS:
        return
    kind, what, rule = SEAT_RUNS[phase]
    rows = _pending_rows(g)
    n = next((i for i, row in enumerate(rows) if row[0] != kind), len(rows))
    above = sorted({row[1] for row in rows[n:]})
    if len(above) > 1:
        out.append(f"rows of seats {above} wait above the {what} run: one seat is paid at a time ({rule})")
    elif above and above[0] in {row[1] for row in rows[:n]}:
        out.append(f"seat {above[0]}'s rows wait above the {what} run before her own {what} ({rule})")


def _river_city_rows(g: Game, out: list[str]) -> None:
    """R134: a palace 14 crossing (RIVER_CITY) is asked only of a seat whose palace tile has it
    (a city check or a crossing pushes it when it has options), and in v1.2 only in her own turn
    ("у свій хід"): the turn does not move on while a row of it waits.  One of another seat
    would found a city the tile never gave."""
    s = g.state
    turn = int(s.glob[G_TURN])
    own = int(s.glob[G_ORDER.start + turn]) if s.glob[G_PHASE] == Phase.ACTIONS and 0 <= turn < MAX_SEATS else -1
    for i, row in enumerate(_pending_rows(g)):
        if row[0] != Kind.RIVER_CITY or not 0 <= row[1] < g.seats:
            continue
        tile = int(s.players[row[1], P_PALACE_TILE])
        flags = g.tab.palace_flags[tile] if 0 <= tile < len(g.tab.palace_flags) else {}
        if not flags.get("river_city"):
            out.append(f"pending row {i} (river_city) of seat {row[1]}, whose palace tile has no river crossing (R134)")
        elif flags["river_city_own_turn"] and own != row[1]:
            out.append(f"pending row {i} (river_city) of seat {row[1]} outside her own turn (R134, v1.2)")


def _row_params(g: Game) -> dict[int, tuple[tuple[int, int, int, str], ...]]:
    """Kind -> (parameter, lo, hi, what): the parameters of a pending row that index a table, a
    seat, a hex or a building (lo..hi-1).  A row edited by hand used to load and then fail with
    an IndexError or KeyError only when it reached the top."""
    d, n, hexes, kinds = g.data, g.seats, NUM_POSITIONS, NUM_BUILDINGS
    return {
        Kind.INNOVATION_EFFECT: ((0, 0, len(d.innovations), "innovation"),),
        Kind.PALACE_EFFECT: ((0, -1, len(d.palace_tiles), "palace tile"),),  # -1: the seat's own
        Kind.OFFER: ((0, 1, MAX_MAGNITUDE, "power offered"), (1, 0, n, "builder")),
        Kind.USE_KEY: ((0, 0, NUM_DISCIPLINES, "discipline"),),
        Kind.INITIAL_PLACE: ((0, 1, kinds, "building"),),
        Kind.NEUTRAL_PLACE: ((0, 1, kinds, "building"),),
        Kind.UPGRADE_TARGET: ((0, 1, kinds, "building"), (1, UP_ACTION, UP_SWAP + 1, "source")),
        Kind.TB_SPADES: ((2, 0, hexes, "hex"),),
        Kind.TB_FINISH: ((2, 0, hexes, "hex"),),
        Kind.BRIDGE_DIR: ((2, 0, hexes, "hex"),),
        Kind.LIZARD_BUILD: ((0, 0, hexes + 1, "hex + 1"),),
        Kind.GAIN: ((3, 0, MAX_MAGNITUDE, "multiplier"),),
    }


def _rows(g: Game, out: list[str]) -> None:
    """Every pending row's parameters name things that exist, and a gain row a component part."""
    ranges = _row_params(g)
    gains = g.tab.gains_by_source
    for i, row in enumerate(_pending_rows(g)):
        kind, params = row[0], row[2:]
        for j, lo, hi, what in ranges.get(kind, ()):
            if not lo <= params[j] < hi:
                out.append(f"pending row {i} ({Kind(kind).name.lower()}): {what} {params[j]} outside {lo}..{hi - 1}")
        if kind == Kind.GAIN:
            src, ident, part = params[:3]
            if not 0 <= ident < len(gains.get((src, part), ())):
                out.append(f"pending row {i} (gain): no component {ident} of source {src}, part {part}")


BOTTOM = -1
"""``STACK_SHAPE``'s name for "no row below" (the entry is the stack's bottom row)."""
TOP = -2
"""``STACK_SHAPE``'s name for "no row above" (the entry is the stack's top row, the decision)."""
ONLY_TOP = frozenset({TOP})

STACK_SHAPE: dict[int, tuple[frozenset[int] | None, frozenset[int] | None]] = {
    Kind.END_TURN: (frozenset({BOTTOM}), None),
    Kind.MAIN: (frozenset({Kind.END_TURN}), ONLY_TOP),
    Kind.POST: (frozenset({Kind.END_TURN}), ONLY_TOP),
    Kind.END_ACTION: (frozenset({Kind.END_TURN}), None),
    Kind.PASS_BONUS: (frozenset({Kind.END_ACTION}), None),
    Kind.AUTOMA_STEP: (frozenset({Kind.END_TURN, Kind.AUTOMA_STEP}), None),
    Kind.INCOME_SEAT: (frozenset({BOTTOM, Kind.INCOME_SEAT}), None),
    Kind.SCIENCE_SEAT: (frozenset({BOTTOM, Kind.SCIENCE_SEAT}), None),
    # a build's offers: on its city check (a player's build) or on the Automa's next step or END_TURN
    # (her build), one after the other; only a new Palace's tile choice comes above them (R42, R68)
    Kind.OFFER: (frozenset({Kind.CITY_CHECK, Kind.AUTOMA_STEP, Kind.END_TURN, Kind.OFFER}),
                 frozenset({TOP, Kind.OFFER, Kind.CHOOSE_PALACE})),
    Kind.SPADES: (None, frozenset({TOP, Kind.SPADES})),  # setup spades seat by seat (R23), Phase III (R81)
    Kind.TB_SPADES: (None, ONLY_TOP),  # R62
    Kind.TB_FINISH: (None, ONLY_TOP),  # R63
    Kind.TB_TUNNEL: (None, ONLY_TOP),  # R95
    Kind.TB_FLY: (None, ONLY_TOP),  # R129
    Kind.LIZARD_BUILD: (None, ONLY_TOP),  # R94
    Kind.CHOOSE_INNOVATION: (None, ONLY_TOP),  # R73
    Kind.CHOOSE_PALACE: (None, ONLY_TOP),  # R68
    # follow-ups of one action part, pushed last by the apply or gain that asks for them (R75, R139):
    # a book action's payment (on its effect's GAIN row), an innovation's any-colour books (on its
    # INNOVATION_EFFECT; R73, the innovation event that follows pays VP only).  No rule for the row
    # below: ``Scenario.decide`` puts a payment straight on END_TURN, as for STEPS_ONE and bridges
    Kind.PAY_BOOKS: (None, ONLY_TOP),
    Kind.STEPS_ONE: (None, ONLY_TOP),  # palace 6's special, BA4 (R126, R139)
    # the upgrade action, palace 3 / 4's special (do_action, after END_ACTION), BA5 (its GAIN on END_ACTION)
    Kind.UPGRADE_TARGET: (frozenset({Kind.END_ACTION}), ONLY_TOP),  # R66, R123, R124, R139
    Kind.BRIDGE_END: (None, ONLY_TOP),  # R40: the next bridge comes after the last one's city checks
    Kind.BRIDGE_DIR: (None, ONLY_TOP),  # R40
    Kind.PAVILION_TARGET: (frozenset({Kind.END_ACTION}), ONLY_TOP),  # C6: the pavilion action
    # palace 16's one-time effect, on the CITY_CHECK its palace_tile_effect pushes first (R136)
    Kind.GUILD_ANYWHERE: (frozenset({Kind.CITY_CHECK}), ONLY_TOP),
    # on the city tiles it orders, pushed last by a city check or a palace 14 crossing (R55.4, OP-22)
    Kind.REWARD_ORDER: (frozenset({Kind.CHOOSE_CITY}), ONLY_TOP),
    # on palace 15's CITY_CHECK (its tile effect's, or the deferred one of OP-19); its parts above it (R135)
    Kind.PALACE15: (frozenset({Kind.CITY_CHECK}), None),
    # a key is asked by the step that reaches 7, the last push of its apply or gain but for the next
    # discipline's key (steps in every discipline) (R50, OP-30)
    Kind.USE_KEY: (None, frozenset({TOP, Kind.USE_KEY})),
    # a neutral building first of its gain, a competency's steps (and their key) after it (R46, R53)
    Kind.NEUTRAL_PLACE: (None, frozenset({TOP, Kind.USE_KEY})),
    # the setup's distribution stage, pushed at once on the empty stack: one solo pick, the sets,
    # or the draft picks above the bonus tile picks (R15.4, R16.7, R16.8, AUTOMA.md §3.3)
    Kind.SOLO_PICK: (frozenset({BOTTOM}), ONLY_TOP),
    Kind.PICK_BUNDLE: (frozenset({BOTTOM, Kind.PICK_BUNDLE}), frozenset({TOP, Kind.PICK_BUNDLE})),
    Kind.DRAFT_PICK: (frozenset({BOTTOM, Kind.PICK_BONUS, Kind.DRAFT_PICK}), frozenset({TOP, Kind.DRAFT_PICK})),
    Kind.PICK_BONUS: (frozenset({BOTTOM, Kind.PICK_BONUS}), frozenset({TOP, Kind.PICK_BONUS, Kind.DRAFT_PICK})),
}  # fmt: skip
"""Where pending entries sit: kind -> (the kinds the row directly below may be, the kinds the row
directly above may be; None: any).  A turn is END_TURN at the bottom with its main action (MAIN,
then POST) or the action's END_ACTION right above it, a pass's bonus tile above that (R78), the
Automa's steps above her END_TURN (AUTOMA.md §4.3); income and science bonuses are a run of one
row per seat from the bottom (R57, R80).  The decisions that follow a choice within one action
(a spade count, extra spades, a tunnel or flight target, the Lizards' Workshop, the innovation
or palace tile chosen) are pushed last by the apply that asks for them and answered at once, so
they are only ever the top row; setup and Phase III spades wait only under another seat's spades;
power offers come right after their build; book payments, one-discipline steps, upgrades, bridges,
pavilions, palace 16's Guild and reward orders are likewise pushed last and answered at once, some
on a fixed row (the action's END_ACTION, the palace's city check, the city tiles ordered); a key
choice only ever has another key choice above it; the setup's picks are pushed at once on the
empty stack.  Only these pushes put them there (``flow``, ``turn``,
``automa``, ``terraform``, ``decisions``, ``effects``, ``setup``, ``rules.buildings``,
``rules.cities``, ``rules.science``), so a row elsewhere is one a game left behind, which would
run again as if it were pending (a second offer, extra spades, a second action, free steps or
books, a second upgrade or bridge).  Kinds that may wait under other decisions (book, step,
competency, city, TB choices gained mid-effect) have no entry or only the side their pushes fix."""

STACK_SAME_SEAT = frozenset({Kind.MAIN, Kind.POST, Kind.END_ACTION, Kind.PASS_BONUS, Kind.AUTOMA_STEP})
"""Entries that belong to the turn of the seat of the row below (its END_TURN or END_ACTION)."""


def _kind_name(kind: int) -> str:
    return Kind(kind).name.lower() if kind in KINDS else "unknown"  # an unknown kind is also _stack's report


def _stack_shape(g: Game, out: list[str]) -> None:
    """Each entry of a turn, a phase's sequence or an action's follow-up decision sits where its
    push puts it (``STACK_SHAPE``): a well-formed row of the right phase left in the wrong place
    (a MAIN under a power offer, a second END_TURN, an offer or a spade choice under the current
    decision) would otherwise run as if it were pending."""
    rows = _pending_rows(g)
    for i, row in enumerate(rows):
        shape = STACK_SHAPE.get(row[0])
        if shape is None:
            continue
        below_kinds, above_kinds = shape
        below = rows[i - 1] if i else None
        above = rows[i + 1] if i + 1 < len(rows) else None
        name = Kind(row[0]).name.lower()
        if below_kinds is not None and (below[0] if below else BOTTOM) not in below_kinds:
            where = "at the bottom" if below is None else f"above a {_kind_name(below[0])} row"
            out.append(f"pending row {i} ({name}) {where}: its sequence never puts it there")
        elif above_kinds is not None and (above[0] if above else TOP) not in above_kinds:
            if above_kinds == ONLY_TOP:
                out.append(f"pending row {i} ({name}) is not the top row: a decision is pending above it")
            else:
                where = f"under a {_kind_name(above[0])} row"
                out.append(f"pending row {i} ({name}) {where}: its sequence never puts one on it")
        elif row[0] in STACK_SAME_SEAT and below and below[1] != row[1]:
            below_name = Kind(below[0]).name.lower()
            out.append(f"pending row {i} ({name}) of seat {row[1]} above seat {below[1]}'s {below_name}")


def _stack(g: Game, out: list[str]) -> None:
    s = g.state
    depth = int(s.glob[G_DEPTH])
    if not 0 <= depth <= MAX_STACK:
        out.append(f"pending stack depth {depth} outside 0..{MAX_STACK}")
        return
    rows = s.stack[:depth]
    for i, row in enumerate(rows):
        if row[0] not in KINDS or not 0 <= row[1] < g.seats:
            out.append(f"pending row {i} is {row.tolist()}: unknown kind or seat")
    if g.is_over():
        if depth:
            out.append(f"the game is over with {depth} pending entries")
        if g.current_seat() != -1:
            out.append(f"the game is over, but current_seat() is {g.current_seat()}")
        return
    if not depth:
        out.append("no pending decision in a running game")
        return
    kind, seat = int(rows[-1][0]), int(rows[-1][1])
    if kind >= Kind.AUTO and kind in KINDS:
        out.append(f"an automatic entry ({Kind(kind).name}) waits on top of the stack")
    if not g.is_player(seat):
        out.append(f"seat {seat} decides, but it is not a player (AUTOMA.md: the Automa never decides)")
    if g.current_seat() != seat:
        out.append(f"current_seat() is {g.current_seat()}, but seat {seat} decides (the stack's top)")
    if kind == Kind.MAIN and 0 <= seat < g.seats and s.players[seat, P_PASSED]:
        out.append(f"seat {seat} takes a turn after passing (R78)")
    if not g.legal_actions():
        out.append("the acting seat has no legal move")


def _id_ranges(g: Game) -> tuple[tuple[str, np.ndarray, int, int], ...]:
    """(what, values, lo, hi): fields that index a table or a seat, each in lo..hi-1 (-1 = none /
    not yet drawn).  Played games never leave them; a hand-edited state that does would trip an
    index deep in the engine instead of naming the field."""
    s, glob, d, n = g.state, g.state.glob, g.data, g.seats
    land = g.geo.terrain < Terrain.RIVER
    return (
        ("round tile", glob[G_ROUND_TILES], -1, len(d.round_tile_ids)),
        ("final tile", glob[G_FINAL_TILE : G_FINAL_TILE + 1], -1, len(d.final_tile_ids)),
        ("book action", glob[G_BOOK_ACTIONS], -1, len(d.book_action_ids)),
        ("innovation on the display", glob[G_INNOV_SPACES], -1, len(d.innovations)),
        ("competency on the display", glob[G_COMP_SPACES], -1, len(d.competency_ids)),
        ("seat in the turn order", glob[G_ORDER], -1, n),
        ("seat in the passing order", glob[G_NEXT_ORDER], -1, n),
        ("turn", glob[G_TURN : G_TURN + 1], 0, MAX_SEATS),
        ("seed", glob[G_SEED : G_SEED + 1], 0, 1 << 31),
        ("random draws", glob[G_RNG_COUNTER : G_RNG_COUNTER + 1], 0, 1 << 31),
        ("bonus tile in the row", glob[G_BONUS_ROW], -1, len(d.bonus_ids)),
        ("faction of a set", glob[G_BUNDLE_FACTION], -1, len(d.factions)),
        ("bonus tile of a set", glob[G_BUNDLE_BONUS], -1, len(d.bonus_ids)),
        ("drafted faction", glob[G_DRAFT_FACTIONS], -1, len(d.factions)),
        ("drafted palace tile", glob[G_DRAFT_PALACES], -1, len(d.palace_tiles)),
        ("drafted planning board", glob[G_DRAFT_BOARDS], -1, len(d.boards)),
        ("bonus tile held", s.players[:n, P_BONUS], -1, len(d.bonus_ids)),
        ("innovation held", s.players[:n, P_INNOVATIONS], -1, len(d.innovations)),
        ("palace tile held", s.players[:n, P_PALACE_TILE], -1, len(d.palace_tiles)),
        ("palace tile drafted", s.players[:n, P_DRAFT_PALACE], -1, len(d.palace_tiles)),
        ("terrain of a land hex", s.hexes[land, H_TERRAIN], 0, int(Terrain.RIVER)),
        ("building on a hex", s.hexes[:, H_BUILDING], 0, len(d.building_pieces)),
        ("owner of a hex", s.hexes[:, H_OWNER], -1, n),
        ("bridge end", s.bridges[: max(0, min(int(glob[G_NUM_BRIDGES]), len(s.bridges)))], 0, len(land)),
    )


AUTOMA_PILES = (
    ("deck", automa.A_DECK, automa.A_DECK_LEN),
    ("reserve", automa.A_RESERVE, automa.A_RESERVE_LEN),
    ("discard pile", automa.A_DISCARD, automa.A_DISCARD_LEN),
)
"""An Automa's card piles: (name, first field, length field) in her record (AUTOMA.md §3.5)."""


def _ids(g: Game, out: list[str]) -> None:
    for what, values, lo, hi in _id_ranges(g):
        bad = values[(values < lo) | (values >= hi)]
        if bad.size:
            out.append(f"{what} {int(bad.flat[0])} outside {lo}..{hi - 1}")
    s, cards = g.state, automa.automa_data().cards
    for seat in range(g.config.players, g.seats):
        try:
            rec = automa.record(g, seat)
        except KeyError:
            out.append(f"Automa seat {seat} has no record of her cards (AUTOMA.md §3.5)")
            continue
        for name, pile, length in AUTOMA_PILES:
            size = int(rec[length])
            if not 0 <= size <= automa.NUM_CARDS:
                out.append(f"Automa seat {seat}: {name} of {size} cards (0..{automa.NUM_CARDS})")
                continue
            unknown = [c for c in rec[pile][:size].tolist() if c not in cards]
            if unknown:
                out.append(f"Automa seat {seat}: unknown card {unknown[0]} in her {name} (AUTOMA.md §3.5)")
        piles = [rec[pile][: int(rec[length])].tolist() for _, pile, length in AUTOMA_PILES
                 if 0 <= rec[length] <= automa.NUM_CARDS]  # fmt: skip
        held = [c for pile in piles for c in pile]
        if len(set(held)) != len(held) or (s.glob[G_PHASE] != Phase.SETUP and len(held) != automa.NUM_CARDS):
            piles_text = f"her deck, reserve and discard pile hold {sorted(held)}"
            out.append(f"Automa seat {seat}: {piles_text}, not each card once (AUTOMA.md §3.5)")
        faction, level, _ = automa.parse_spec(g.config.automa[seat - g.config.players])
        names = automa.automa_data().faction_names
        if (int(rec[automa.A_LEVEL]), int(rec[automa.A_FACTION])) != (level, names.index(faction)):
            out.append(
                f"Automa seat {seat}: level {int(rec[automa.A_LEVEL])}, faction {int(rec[automa.A_FACTION])} "
                f"in her record, the config says {faction}:{level} (AUTOMA.md §3.5)"
            )
        if int(rec[automa.A_SETUP_CARD]) not in cards:
            out.append(f"Automa seat {seat}: unknown setup card {int(rec[automa.A_SETUP_CARD])} (§3.6)")
        _unseen_cards(seat, rec, level, out)


def _unseen_cards(seat: int, rec: np.ndarray, level: int, out: list[str]) -> None:
    """Her unseen cards are face-down deck cards that came from the reserve (§3.5 step 2, §4.6):
    never a starter card, level 5's card 13 or the action card looked at (§4.3)."""
    bits = int(rec[automa.A_UNSEEN])
    if not 0 <= bits < 1 << automa.NUM_CARDS:
        out.append(f"Automa seat {seat}: unseen-card bits {bits} outside 0..{(1 << automa.NUM_CARDS) - 1}")
        return
    deck = rec[automa.A_DECK][: max(0, min(int(rec[automa.A_DECK_LEN]), automa.NUM_CARDS))].tolist()
    data = automa.automa_data()
    known = {automa.open_action_card(rec), data.levels[level]["forced"]}
    for card in automa.unseen_cards(rec):
        if card not in deck or card in known or data.cards[card].starter:
            out.append(f"Automa seat {seat}: card {card} is marked unseen but is known or not in her deck (§3.5, §4.3)")


GROUPS: tuple[Callable[[Game, list[str]], None], ...] = (
    _ids,
    _resources,
    _map,
    _buildings,
    _neutral_pieces,
    _pavilions,
    _bridges,
    _scholars,
    _science,
    _tracks,
    _bonus_tiles,
    _displays,
    _innovations,
    _palace_tiles,
    _competencies,
    _cities,
    _automa,
    _stage,
    _setup_picks,
    _initial_placements,
    _turn_order,
    _stack,
    _stack_shape,
    _seat_runs,
    _river_city_rows,
    _rows,
)
"""The invariant groups in the order they run (each appends its problems to ``out``)."""

STRICT_GROUPS: tuple[Callable[[Game, list[str]], None], ...] = (_pavilions_exact, _cities_exact)
"""Exact conservation that played games keep and hand-built Scenario positions may not."""
