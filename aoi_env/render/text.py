"""A readable text view of a game: header, displays, the hex board and a player table.

The header names the pending decision and, where the move list cannot show them, its parameters
(a power offer's amount and VP cost, spades or steps left ...: ``describe_pending``), and the
sets of the standard distribution while they are picked (R15).  Every hex is ``CELL`` characters
wide (terrain, building, owner, mark), so pavilions, neutral pieces and an Automa's marked
buildings show without breaking the grid; the built bridges and a legend follow the grid.  The
player table shows a drafted palace tile in brackets until the Palace is built (R16) and an
Automa's faction and level, cards left in her deck (never their order), her support and face-up
action card (AUTOMA.md §4.3) and marked buildings.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from aoi_env.core import automa, pending
from aoi_env.core.board import hex_name
from aoi_env.core.decisions import DISC_NAMES, PALACE15_PARTS
from aoi_env.core.engine import HANDLERS
from aoi_env.core.pending import TB_BUILD, TB_BUY, Kind, Row
from aoi_env.core.rules.buildings import effective_offer
from aoi_env.core.rules.scoring import has_neutral_faction, visible_area_token
from aoi_env.core.state import (
    G_BONUS_COINS,
    G_BONUS_STATE,
    G_BOOK_ACTIONS,
    G_BOOKS_USED,
    G_BUNDLE_BONUS,
    G_BUNDLE_FACTION,
    G_CITY_LEFT,
    G_COMP_LEFT,
    G_COMP_SPACES,
    G_FINAL_TILE,
    G_INNOV_OWNER,
    G_INNOV_SPACES,
    G_NEUTRAL_SCIENCE,
    G_NUM_BRIDGES,
    G_ORDER,
    G_PALACE_STATE,
    G_PHASE,
    G_ROUND,
    G_ROUND_TILES,
    G_SPELLS_USED,
    H_BUILDING,
    H_CITY,
    H_MARK,
    H_NEUTRAL,
    H_OWNER,
    H_PAVILION,
    H_TERRAIN,
    P_BOARD,
    P_BONUS,
    P_BOOKS,
    P_BOWLS,
    P_BRIDGES,
    P_BUILT,
    P_CITIES,
    P_COINS,
    P_COMPETENCIES,
    P_DRAFT_PALACE,
    P_FACTION,
    P_INNOVATIONS,
    P_NEUTRAL_BUILT,
    P_PALACE_TILE,
    P_PASSED,
    P_SAILING,
    P_SCHOLAR_SUPPLY,
    P_SCHOLARS,
    P_SCIENCE,
    P_TERRAFORMING,
    P_TOOLS,
    P_VP,
    Phase,
    bonus_row,
)
from aoi_env.core.terraform import WORKSHOP_ID
from aoi_env.data import NUM_COLS, NUM_ROWS
from aoi_env.data.enums import TERRAIN_LETTERS, Building, Faction, Terrain

if TYPE_CHECKING:
    from aoi_env.core.engine import Game

BUILDING_LETTERS = " wgsuptm"  # workshop guild school university palace tower monument; upper case = in a city
ANSI_TERRAIN = {0: "33", 1: "38;5;130", 2: "90", 3: "34", 4: "32", 5: "37", 6: "31"}
TERRAIN_NAMES = [t.name.lower() for t in Terrain][:7]
CELL = 4  # characters per hex: terrain, building, owner, mark; every hex the same width keeps the grid aligned
PITCH = CELL + 1  # a space between hexes
ROW_LABEL = 4  # "r3  "
LEGEND = (
    "legend: d p s l f m w = desert plains swamp lake forest mountain wasteland (lower case: empty), ~ river\n"
    "        built: TERRAIN building owner mark, e.g. LP0+; w g s u p t m = workshop guild school university\n"
    "        palace tower monument (UPPER = in a city); marks + pavilion, n neutral, # both, * Automa-marked"
)
# (pavilion C6, neutral R46, Automa mark) -> the hex's last character
HEX_MARKS = {(0, 0, 0): " ", (1, 0, 0): "+", (0, 1, 0): "n", (1, 1, 0): "#", (0, 0, 1): "*"}


def _mark(h: np.ndarray) -> str:
    """One character for the flags of a built hex (C6 pavilion, R46 neutral, Automa mark)."""
    key = (int(h[H_PAVILION] > 0), int(h[H_NEUTRAL] > 0), int(h[H_MARK] > 0))
    return HEX_MARKS.get(key, "*")  # only an Automa's buildings are marked


def _cell(g: Game, pos: int, color: bool) -> str:
    """A hex as exactly ``CELL`` characters, e.g. ``d   `` (empty desert), ``LP0+`` (a palace of
    seat 0 on lake, in a city, with a pavilion)."""
    h = g.state.hexes[pos]
    t = int(h[H_TERRAIN])
    if t == Terrain.OFF:
        return " " * CELL
    if t == Terrain.RIVER:
        return " ~  "
    b = int(h[H_BUILDING])
    if b:
        letter = BUILDING_LETTERS[b].upper() if h[H_CITY] else BUILDING_LETTERS[b]
        owner = int(h[H_OWNER])
        text = TERRAIN_LETTERS[t] + letter + (str(owner) if owner >= 0 else "-") + _mark(h)
    else:
        text = TERRAIN_LETTERS[t].lower() + "   "
    if color:
        return f"\033[{ANSI_TERRAIN[t]}m{text}\033[0m"
    return text


def cell_start(row: int, col: int) -> int:
    """Column of a hex's first character in a ``board_text`` line (odd rows are shifted right)."""
    return ROW_LABEL + (PITCH // 2 if row % 2 else 0) + PITCH * col


def bridges_text(g: Game) -> str:
    """Built bridges with both ends and the owner (R38-R40), e.g. ``bridges: r6c3-r7c4 (seat 2)``."""
    s = g.state
    built = s.bridges[: int(s.glob[G_NUM_BRIDGES])]
    return "bridges: " + (", ".join(f"{hex_name(a)}-{hex_name(b)} (seat {o})" for a, b, o in built.tolist()) or "-")


def board_text(g: Game, color: bool = False) -> str:
    """The hex grid, then the built bridges and the legend."""
    lines = [(" " * cell_start(0, 0) + "".join(f"c{c:<{PITCH - 1}}" for c in range(NUM_COLS))).rstrip()]
    for r in range(NUM_ROWS):
        indent = " " * (cell_start(r, 0) - ROW_LABEL)
        cells = " ".join(_cell(g, r * NUM_COLS + c, color) for c in range(NUM_COLS))
        lines.append(f"r{r:<{ROW_LABEL - 1}}{indent}{cells}".rstrip())
    lines += [bridges_text(g), LEGEND]
    return "\n".join(lines)


def _names(ids: tuple[str, ...], idx: list[int]) -> str:
    return " ".join(ids[i] for i in idx) or "-"


# ------------------------------------------------------------------------------------------------
# the pending decision's parameters (pending.py documents p0, p1 ... per Kind)


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _building(b: int) -> str:
    return Building(b).name.lower()


def _offer(g: Game, row: Row) -> str:
    """R42: the power really gained is capped by the bowls and VP; it costs that power - 1 VP."""
    seat, offered, builder = row[1], row[2], row[3]
    got = effective_offer(g.state.players[seat], offered)
    return (
        f"seat {builder} built next to you: accept = gain {got} power for {max(got - 1, 0)} VP (offered {offered}, R42)"
    )


def _tb(g: Game, row: Row) -> str:
    """Free spades and what the TB flags allow (R60-R65)."""
    free, flags = row[2], row[3]
    parts = [_n(free, "free spade")] if free else []
    if flags & TB_BUY:
        parts.append("more bought with tools" if free else "spades bought with tools")
    if flags & TB_BUILD:
        parts.append("then a Workshop")
    return ", ".join(parts) or "no spades"


def _tb_finish(g: Game, row: Row) -> str:
    left, pos = row[2], row[4]
    extra = f"{_n(left, 'spade')} left for other hexes; " if left else ""
    workshop = WORKSHOP_ID in HANDLERS[Kind.TB_FINISH].legal(g, row)  # not when unaffordable (R63)
    return f"{extra}Workshop on {hex_name(pos)} or done" if workshop else f"{extra}done (no Workshop)"


def _palace15(g: Game, row: Row) -> str:
    parts = [name for name, bit, _ in PALACE15_PARTS.values() if row[2] & bit]
    return "palace 15, parts left: " + (" ".join(parts) or "-")


PENDING_TEXT: dict[int, Callable[[Game, Row], str]] = {
    Kind.PICK_BUNDLE: lambda g, r: "take a set: its faction, planning board and bonus tile (R15, see sets)",
    Kind.DRAFT_PICK: lambda g, r: "draft a planning card, faction or palace tile you lack (R16)",
    Kind.INITIAL_PLACE: lambda g, r: f"place your initial {_building(r[2])} on an empty native hex (R21)",
    Kind.TB_TARGET: lambda g, r: f"terraform & build: {_tb(g, r)}; choose the hex",
    Kind.TB_TUNNEL: lambda g, r: f"tunnel target: {_tb(g, r)}",
    Kind.TB_FLY: lambda g, r: f"flight target: {_tb(g, r)}",
    Kind.TB_SPADES: lambda g, r: f"how many spades on {hex_name(r[4])}: {_tb(g, r)}",
    Kind.TB_FINISH: _tb_finish,
    Kind.LIZARD_BUILD: lambda g, r: "a free Workshop on a native hex in reach (R94)",
    Kind.SPADES: lambda g, r: f"{_n(r[2], 'spade')} left to place (no buying, no Workshop)",
    Kind.UPGRADE_TARGET: lambda g, r: f"choose the building to upgrade to a {_building(r[2])}",
    Kind.BRIDGE_END: lambda g, r: f"{_n(r[3], 'bridge')} left to build: choose one end (R40)",
    Kind.BRIDGE_DIR: lambda g, r: f"bridge from {hex_name(r[4])}: choose the other end",
    Kind.PAVILION_TARGET: lambda g, r: "attach a pavilion to one of your buildings (C6)",
    Kind.NEUTRAL_PLACE: lambda g, r: f"place a neutral {_building(r[2])} in reach (R46)",
    Kind.GUILD_ANYWHERE: lambda g, r: "a Guild on any empty native hex (palace 16, R136)",
    Kind.PAY_BOOKS: lambda g, r: f"{_n(r[2], 'book')} still to pay, any colour",
    Kind.CHOOSE_BOOKS: lambda g, r: f"{_n(r[2], 'book')} to gain, colour of choice",
    Kind.STEPS_ANY: lambda g, r: f"{_n(r[2], 'science step')} to place one at a time (R48)",
    Kind.STEPS_ONE: lambda g, r: f"{_n(r[2], 'science step')}, all in one discipline",
    Kind.USE_KEY: lambda g, r: f"use a key to go above 7 in {DISC_NAMES[r[2]]}? {_n(r[3], 'step')} to go (R50)",
    Kind.PALACE15: _palace15,
    Kind.OFFER: _offer,
    Kind.REWARD_ORDER: lambda g, r: f"{_n(r[2], 'new city tile')}: take them or the upgrade's tile first (R55.4)",
}
"""One-line descriptions of the decisions whose parameters the move list does not show."""


def describe_pending(g: Game) -> str | None:
    """What the top pending decision is about (amounts, costs, counts), None if nothing to add."""
    row = pending.top(g.state)
    if row is None or row[0] not in PENDING_TEXT:
        return None
    return PENDING_TEXT[row[0]](g, row)


# ------------------------------------------------------------------------------------------------
# header


def _sets_text(g: Game) -> str | None:
    """R15: the faction and bonus tile of each set still to take (sets are named by terrain)."""
    s = g.state
    if g.pending_kind() != Kind.PICK_BUNDLE:
        return None
    sets = [
        f"{TERRAIN_NAMES[t]}={Faction(f).name.lower()}+{g.data.bonus_ids[int(s.glob[G_BUNDLE_BONUS.start + t])]}"
        for t, f in enumerate(s.glob[G_BUNDLE_FACTION].tolist())
        if f >= 0
    ]
    return "sets: " + " ".join(sets)


def _bonus_text(g: Game) -> str:
    """The bonus display; with an Automa in left-to-right row order, since her cards take a tile
    by position (AUTOMA.md §4.5)."""
    s = g.state
    d = g.data
    row = bonus_row(s.glob)
    if _has_automa(g) and row:
        label, tiles = "bonus row (left to right, the Automa takes a tile by its position)", row
    else:
        label, tiles = "bonus display", [b for b in range(10) if s.glob[G_BONUS_STATE][b] == -1]
    return f"{label}: " + (" ".join(f"{d.bonus_ids[b]}({int(s.glob[G_BONUS_COINS][b])}c)" for b in tiles) or "-")


def acting(g: Game) -> tuple[int | None, str]:
    """(seat, words) of who acts now.  Between two decisions (a frame drawn inside the engine,
    e.g. during an Automa's turn, ``flow.automa_frames``) the top of the stack is one of the
    engine's own steps and ``current_seat()`` still names the last seat that decided: then the
    step's seat acts, and an Automa is "playing", not "to decide"."""
    row = pending.top(g.state)
    if row is None:
        return None, "game over"
    kind = Kind(row[0])
    if kind in HANDLERS:
        who = g.current_seat()
        return who, f"seat {who} to decide ({kind.name.lower()})"
    seat = int(row[1])
    if 0 <= seat < g.seats and g.is_automa(seat):
        return seat, f"seat {seat} (Automa) playing"
    return None, f"the engine resolving {kind.name.lower()}"


def header_text(g: Game) -> str:
    s = g.state
    rnd = int(s.glob[G_ROUND])
    phase = Phase.NAMES[int(s.glob[G_PHASE])]
    _, turn = acting(g)
    d = g.data
    tiles = [d.round_tile_ids[int(t)] for t in s.glob[G_ROUND_TILES]]
    tiles[5] += "+" + d.final_tile_ids[int(s.glob[G_FINAL_TILE])]
    lines = [f"{g.config}  round {min(rnd, 6) if rnd else 'setup'}, phase {phase}, {turn}"]
    about = describe_pending(g)
    if about:
        lines.append(f"decision: {about}")
    lines += [
        "round tiles: " + " ".join(f"{i + 1}:{t}" for i, t in enumerate(tiles)),
        "order: " + " ".join(str(int(x)) for x in s.glob[G_ORDER] if x >= 0),
    ]
    sets = _sets_text(g)
    if sets:
        lines.append(sets)
    spells = [d.spell_ids[i] + ("x" if s.glob[G_SPELLS_USED][i] else "") for i in range(6)]
    books = [
        d.book_action_ids[int(k)] + ("x" if s.glob[G_BOOKS_USED][j] else "")
        for j, k in enumerate(s.glob[G_BOOK_ACTIONS])
    ]
    lines.append("spells: " + " ".join(spells) + "   book actions: " + " ".join(books))
    lines.append(_bonus_text(g))
    innov = [int(t) for t in s.glob[G_INNOV_SPACES] if t >= 0 and s.glob[G_INNOV_OWNER][int(t)] == -1]
    lines.append("innovations: " + _names(d.innovation_keys, innov))
    comps = s.glob[G_COMP_SPACES]
    lines.append(
        "competencies (space: tile x left): "
        + " ".join(f"{sp}:C{int(c) + 1}x{int(s.glob[G_COMP_LEFT][int(c)])}" for sp, c in enumerate(comps))
    )
    palaces = [t + 1 for t in range(17) if s.glob[G_PALACE_STATE][t] == -1]
    lines.append("palace tiles: " + (" ".join(map(str, palaces)) or "-"))
    lines.append("city tiles left: " + " ".join(f"K{k + 1}x{int(n)}" for k, n in enumerate(s.glob[G_CITY_LEFT])))
    if has_neutral_faction(g):
        token = visible_area_token(g)  # face down until round 6 (R25)
        lines.append(
            f"neutral: area {'?' if token is None else token}, science "
            + "/".join(str(int(x)) for x in s.glob[G_NEUTRAL_SCIENCE])
        )
    return "\n".join(lines)


# ------------------------------------------------------------------------------------------------
# players


def _has_automa(g: Game) -> bool:
    return g.seats > g.config.players


def faction_label(g: Game, seat: int) -> str:
    """The faction name; an Automa's as ``A:<faction>:<level>`` (the ``automa=`` spelling), in full."""
    if g.is_automa(seat):
        return f"A:{automa.faction_of(g, seat)}:{automa.level_of(g, seat)}"
    faction = int(g.state.players[seat, P_FACTION])
    return Faction(faction).name.lower() if faction >= 0 else "-"


def palace_label(p: np.ndarray) -> str:
    """The palace tile: ``5`` once placed, ``(5)`` drafted but the Palace not built yet (R16, R68)."""
    if p[P_PALACE_TILE] >= 0:
        return str(int(p[P_PALACE_TILE]) + 1)
    if p[P_DRAFT_PALACE] >= 0:
        return f"({int(p[P_DRAFT_PALACE]) + 1})"
    return "-"


def holdings_text(g: Game, seat: int) -> str:
    """The competency tiles and innovations a seat holds (empty when none)."""
    p = g.state.players[seat]
    comps = [f"C{c + 1}" for c in range(12) if int(p[P_COMPETENCIES]) >> c & 1]
    innov = [g.data.innovation_keys[int(t)] for t in p[P_INNOVATIONS] if t >= 0]
    if not comps and not innov:
        return ""
    return f"competencies: {' '.join(comps) or '-'}   innovations: {' '.join(innov) or '-'}"


def automa_text(g: Game, seat: int) -> str:
    """An Automa's public extras: how many cards her deck holds (never their order), this round's
    support card and the action card looked at on top of her deck (AUTOMA.md §4.3), her marked
    buildings (§5.1)."""
    rec = automa.record(g, seat)
    deck = int(rec[automa.A_DECK_LEN])
    h = g.state.hexes
    marked = [hex_name(p) for p in np.flatnonzero((h[:, H_MARK] > 0) & (h[:, H_OWNER] == seat))]
    support, action = automa.support_card(rec), automa.open_action_card(rec)
    cards = f", support card {automa.card_label(support)}" if support else ""
    cards += f", action card {automa.card_label(action)} on top" if action else ""
    return (
        f"     Automa {automa.faction_of(g, seat)} level {automa.level_of(g, seat)}: {_n(deck, 'card')} left in "
        f"her deck (order hidden){cards}, marked buildings: {' '.join(marked) or '-'}"
    )


def players_text(g: Game) -> str:
    s = g.state
    d = g.data
    rows = [
        "seat faction          board      VP   C  T  S(sup) books B/L/E/M  power    science    sail dig  "
        "buildings wgsuptm  bonus palace cities bridges passed"
    ]
    for seat in range(g.seats):
        p = s.players[seat]
        board = TERRAIN_NAMES[int(p[P_BOARD])] if p[P_BOARD] >= 0 else "-"
        counts = p[P_BUILT] + p[P_NEUTRAL_BUILT]
        built = "".join(str(int(counts[b])) for b in range(1, 8))
        bonus = d.bonus_ids[int(p[P_BONUS])] if p[P_BONUS] >= 0 else "-"
        rows.append(
            f"{seat:<4} {faction_label(g, seat):<16} {board:<9} {int(p[P_VP]):>3} {int(p[P_COINS]):>3} "
            f"{int(p[P_TOOLS]):>2} {int(p[P_SCHOLARS]):>1}({int(p[P_SCHOLAR_SUPPLY])})   "
            f"{'/'.join(str(int(x)) for x in p[P_BOOKS]):<13}"
            f"{'/'.join(str(int(x)) for x in p[P_BOWLS]):<8} {'/'.join(str(int(x)) for x in p[P_SCIENCE]):<10} "
            f"{int(p[P_SAILING]):>4} {3 - int(p[P_TERRAFORMING]):>3}  {built:<18} {bonus:<5} {palace_label(p):<6} "
            f"{int(p[P_CITIES]):<6} {int(p[P_BRIDGES]):<7} {'yes' if p[P_PASSED] else 'no'}"
        )
        holdings = holdings_text(g, seat)
        if holdings:
            rows.append(f"     {holdings}")
        if g.is_automa(seat):
            rows.append(automa_text(g, seat))
    return "\n".join(rows)


def render_text(g: Game, color: bool = False) -> str:
    """The whole game as text (the ``ansi`` render mode; ``color`` adds ANSI terrain colours)."""
    return "\n\n".join([header_text(g), board_text(g, color), players_text(g)])
