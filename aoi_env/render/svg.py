"""An SVG picture of a game: the hex board and a player panel (the ``svg`` render mode).

Pointy-top hexes in the 9 x 13 offset grid (odd rows shifted half a hex right, like
``aoi_env.core.board``), coloured by their current terrain; river hexes light blue.  Buildings
are shapes in the owner's colour (the colour of their planning board = home terrain) with a
contrasting outline: workshop = house, guild = square, school = circle, university = double
circle, palace = castle, tower = tall block, monument = diamond; neutral pieces have a dashed
outline.  A gold star marks a building in a city, a small flag a pavilion.  Built bridges are
thick bars in the owner's colour; free printed bridge spots are thin dashed lines.  Each hex
shows its notation name (``r3c4``) in small print.  Below the board: the round, the pending
decision, the displays (round and final tiles, bonus tiles, innovations, competencies, palace
and city tiles, the 2-player neutral faction: the text view's header), and per player a line of
resources and one of tracks, palace, cities, bridges, competencies and innovations (an Automa as
``A:<faction>:<level>``, with her deck size and marked buildings); the picture widens when a
panel line needs it.

Only the standard library is used; the result is a string starting with ``<svg``.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

from aoi_env.core.board import hex_name
from aoi_env.core.engine import HANDLERS
from aoi_env.core.state import (
    G_NUM_BRIDGES,
    G_PHASE,
    G_ROUND,
    H_BUILDING,
    H_CITY,
    H_NEUTRAL,
    H_OWNER,
    H_PAVILION,
    H_TERRAIN,
    P_BOARD,
    P_BONUS,
    P_BOOKS,
    P_BOWLS,
    P_BRIDGES,
    P_CITIES,
    P_COINS,
    P_PASSED,
    P_SAILING,
    P_SCHOLARS,
    P_SCIENCE,
    P_TERRAFORMING,
    P_TOOLS,
    P_VP,
    Phase,
)
from aoi_env.data import NUM_COLS, NUM_ROWS
from aoi_env.data.enums import Building, Terrain
from aoi_env.render.text import acting, automa_text, faction_label, header_text, holdings_text, palace_label

if TYPE_CHECKING:
    from aoi_env.core.engine import Game

R = 30.0  # hex circumradius (px)
W = math.sqrt(3) * R  # hex width
MARGIN = 12.0
PANEL_LINE = 22.0
CHAR_W = 13 * 0.6  # advance of a monospace character at font-size 13 (about 0.6 em)

TERRAIN_FILL = {
    Terrain.DESERT: "#e9cf5f",
    Terrain.PLAINS: "#a8743c",
    Terrain.SWAMP: "#3a3a3a",
    Terrain.LAKE: "#3d7fd1",
    Terrain.FOREST: "#3f8f3f",
    Terrain.MOUNTAIN: "#9c9c9c",
    Terrain.WASTELAND: "#c9412f",
    Terrain.RIVER: "#c4e6f7",
}
DARK_TERRAINS = {Terrain.SWAMP, Terrain.PLAINS, Terrain.LAKE, Terrain.FOREST, Terrain.WASTELAND}
NEUTRAL_FILL = "#f4f0e6"


def center(pos: int) -> tuple[float, float]:
    """Pixel centre of a grid position."""
    row, col = divmod(int(pos), NUM_COLS)
    x = MARGIN + W / 2 + W * (col + 0.5 * (row & 1))
    y = MARGIN + R + 1.5 * R * row
    return x, y


def _points(pts: list[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)


def _hexagon(x: float, y: float, r: float) -> str:
    return _points([(x + r * math.cos(math.radians(60 * k - 30)), y + r * math.sin(math.radians(60 * k - 30)))
                    for k in range(6)])  # fmt: skip


def owner_colour(g: Game, seat: int) -> str:
    """The planning board's terrain colour (grey before the distribution)."""
    board = int(g.state.players[seat, P_BOARD])
    return TERRAIN_FILL[Terrain(board)] if board >= 0 else "#bbbbbb"


def outline_colour(g: Game, seat: int) -> str:
    board = int(g.state.players[seat, P_BOARD])
    return "#ffffff" if board == Terrain.SWAMP else "#111111"


def _building(kind: int, x: float, y: float, fill: str, stroke: str, dashed: bool) -> str:
    style = f'fill="{fill}" stroke="{stroke}" stroke-width="2"' + (' stroke-dasharray="3,2"' if dashed else "")
    if kind == Building.WORKSHOP:
        pts = [(x - 8, y + 8), (x - 8, y - 2), (x, y - 10), (x + 8, y - 2), (x + 8, y + 8)]
        return f'<polygon class="workshop" points="{_points(pts)}" {style}/>'
    if kind == Building.GUILD:
        return f'<rect class="guild" x="{x - 10:.1f}" y="{y - 10:.1f}" width="20" height="20" {style}/>'
    if kind == Building.SCHOOL:
        return f'<circle class="school" cx="{x:.1f}" cy="{y:.1f}" r="11" {style}/>'
    if kind == Building.UNIVERSITY:
        return (
            f'<circle class="university" cx="{x:.1f}" cy="{y:.1f}" r="13" {style}/>'
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="6" fill="none" stroke="{stroke}" stroke-width="2"/>'
        )
    if kind == Building.PALACE:
        crenels = [(-14, 10), (-14, -10), (-8, -10), (-8, -4), (-3, -4), (-3, -12), (3, -12), (3, -4), (8, -4)]
        crenels += [(8, -10), (14, -10), (14, 10)]
        pts = [(x + dx, y + dy) for dx, dy in crenels]
        return f'<polygon class="palace" points="{_points(pts)}" {style}/>'
    if kind == Building.TOWER:
        return f'<rect class="tower" x="{x - 5:.1f}" y="{y - 13:.1f}" width="10" height="24" {style}/>'
    if kind == Building.MONUMENT:
        pts = [(x, y - 13), (x + 10, y), (x, y + 13), (x - 10, y)]
        return f'<polygon class="monument" points="{_points(pts)}" {style}/>'
    raise ValueError(f"unknown building type {kind}")


def _star(x: float, y: float, r: float) -> str:
    pts = []
    for k in range(10):
        rad = r if k % 2 == 0 else r * 0.45
        a = math.radians(-90 + 36 * k)
        pts.append((x + rad * math.cos(a), y + rad * math.sin(a)))
    return f'<polygon class="city" points="{_points(pts)}" fill="#ffd400" stroke="#5a4500" stroke-width="1"/>'


def board_svg(g: Game) -> list[str]:
    """SVG elements of the map: hexes, names, bridges, buildings, markers."""
    s = g.state
    out: list[str] = []
    for pos in range(NUM_ROWS * NUM_COLS):
        t = int(s.hexes[pos, H_TERRAIN])
        if t == Terrain.OFF:
            continue
        x, y = center(pos)
        terrain = Terrain(t)
        out.append(
            f'<polygon class="hex {terrain.name.lower()}" points="{_hexagon(x, y, R)}" '
            f'fill="{TERRAIN_FILL[terrain]}" stroke="#555555" stroke-width="1"/>'
        )
        label = "#eeeeee" if terrain in DARK_TERRAINS else "#333333"
        out.append(
            f'<text x="{x:.1f}" y="{y + R * 0.72:.1f}" font-size="7" text-anchor="middle" '
            f'fill="{label}" font-family="sans-serif">{hex_name(pos)}</text>'
        )
    built = {(int(a), int(b)) for a, b in s.built_bridges()}
    for a, b in g.geo.bridge_spots:
        if (a, b) not in built:
            (x1, y1), (x2, y2) = center(a), center(b)
            dx, dy = x2 - x1, y2 - y1
            x1, y1, x2, y2 = x1 + 0.3 * dx, y1 + 0.3 * dy, x2 - 0.3 * dx, y2 - 0.3 * dy
            out.append(
                f'<line class="bridge-spot" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                'stroke="#6d8fa8" stroke-width="2" stroke-dasharray="3,3"/>'
            )
    for a, b, seat in s.bridges[: int(s.glob[G_NUM_BRIDGES])]:
        (x1, y1), (x2, y2) = center(int(a)), center(int(b))
        dx, dy = x2 - x1, y2 - y1
        k = 0.3  # leave the buildings at both ends visible
        x1, y1, x2, y2 = x1 + k * dx, y1 + k * dy, x2 - k * dx, y2 - k * dy
        coords = f'x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"'
        under = outline_colour(g, int(seat))
        out.append(f'<line class="bridge-outline" {coords} stroke="{under}" stroke-width="9" stroke-linecap="round"/>')
        colour = owner_colour(g, int(seat))
        out.append(f'<line class="bridge" {coords} stroke="{colour}" stroke-width="5" stroke-linecap="round"/>')
    for pos in map(int, (s.hexes[:, H_BUILDING] > 0).nonzero()[0]):
        x, y = center(pos)
        h = s.hexes[pos]
        seat = int(h[H_OWNER])
        fill = owner_colour(g, seat) if seat >= 0 else NEUTRAL_FILL
        stroke = outline_colour(g, seat) if seat >= 0 else "#111111"
        out.append(_building(int(h[H_BUILDING]), x, y - 3, fill, stroke, dashed=bool(h[H_NEUTRAL])))
        if h[H_CITY]:
            out.append(_star(x - R * 0.5, y - R * 0.45, 7))
        if h[H_PAVILION]:
            pts = [(x + 10, y + 2), (x + 10, y + 14), (x + 18, y + 6)]
            out.append(f'<polygon class="pavilion" points="{_points(pts)}" fill="{fill}" stroke="{stroke}"/>')
    return out


def _status_line(g: Game) -> str:
    """The round, phase and who decides what."""
    s = g.state
    kind = g.pending_kind()
    if kind is None:
        return f"{g.config}   game over"
    rnd = int(s.glob[G_ROUND])
    phase = Phase.NAMES[int(s.glob[G_PHASE])]
    when = f"round {rnd}" if rnd else "setup"
    who, words = acting(g)
    turn = f"seat {who} to decide: {kind.name.lower()}" if kind in HANDLERS else words
    return f"{g.config}   {when}, phase {phase}, {turn}"


def _player_line(g: Game, seat: int) -> str:
    """One player's faction and resources (``>`` marks the seat to decide, or the Automa playing)."""
    p = g.state.players[seat]
    faction = faction_label(g, seat)  # an Automa has no P_FACTION: A:<faction>:<level>
    column = max(12, *(len(faction_label(g, other)) for other in range(g.seats)))  # aligned, never cut
    bonus = g.data.bonus_ids[int(p[P_BONUS])] if p[P_BONUS] >= 0 else "-"
    books = "/".join(str(int(v)) for v in p[P_BOOKS])
    bowls = "/".join(str(int(v)) for v in p[P_BOWLS])
    science = "/".join(str(int(v)) for v in p[P_SCIENCE])
    return (
        f"{'>' if seat == acting(g)[0] else ' '} seat {seat} {faction:<{column}} VP {int(p[P_VP]):>3}"
        f"  coins {int(p[P_COINS]):>2}  tools {int(p[P_TOOLS]):>2}  scholars {int(p[P_SCHOLARS])}  books {books}"
        f"  power {bowls}  science {science}  bonus {bonus}{'  passed' if p[P_PASSED] else ''}"
    )


def _player_details(g: Game, seat: int) -> list[str]:
    """The second and later lines of a player: tracks, palace, cities, bridges, competencies and
    innovations; an Automa's deck size and marked buildings (the text view's words)."""
    p = g.state.players[seat]
    lines = [
        f"    sailing {int(p[P_SAILING])}  spade cost {3 - int(p[P_TERRAFORMING])} tools  palace "
        f"{palace_label(p)}  cities {int(p[P_CITIES])}  bridges {int(p[P_BRIDGES])}  {holdings_text(g, seat)}".rstrip()
    ]
    if g.is_automa(seat):
        lines.append("    " + automa_text(g, seat).strip())
    return lines


def panel_lines(g: Game) -> list[tuple[str, int | None]]:
    """The panel's lines under the board, each with the seat it belongs to (None: the game):
    the status, the displays (the text view's header), then each player's lines."""
    lines: list[tuple[str, int | None]] = [(_status_line(g), None)]
    lines += [(line, None) for line in header_text(g).splitlines()[1:]]
    for seat in range(g.seats):
        lines.append((_player_line(g, seat), seat))
        lines += [(line, seat) for line in _player_details(g, seat)]
    return lines


def panel_svg(g: Game, top: float) -> list[str]:
    """SVG elements of the panel under the board (``panel_lines``): the status line in bold, a
    colour square before each player's first line, the deciding seat's lines in bold."""
    out: list[str] = []
    font = 'font-family="monospace" font-size="13"'
    who = acting(g)[0]
    previous: int | None = None
    for i, (text, seat) in enumerate(panel_lines(g)):
        y = top + PANEL_LINE * i
        if seat is not None and seat != previous:
            out.append(
                f'<rect x="{MARGIN:.1f}" y="{y - 12:.1f}" width="14" height="14" fill="{owner_colour(g, seat)}" '
                f'stroke="{outline_colour(g, seat)}"/>'
            )
        previous = seat
        weight = ' font-weight="bold"' if i == 0 or (seat is not None and seat == who) else ""
        x = MARGIN + (20 if seat is not None else 0)
        out.append(
            f'<text class="panel" x="{x:.1f}" y="{y:.1f}" {font}{weight} xml:space="preserve">{escape(text)}</text>'
        )
    return out


def panel_width(g: Game) -> float:
    """Pixels the panel's longest line needs (a long Automa label or large numbers widen it)."""
    return MARGIN * 2 + 20 + CHAR_W * max(len(text) for text, _ in panel_lines(g))


def render_svg(g: Game) -> str:
    """The whole picture as an SVG document string."""
    board_w = MARGIN * 2 + W * (NUM_COLS + 0.5)
    board_h = MARGIN * 2 + R * (1.5 * (NUM_ROWS - 1) + 2)
    width = max(board_w, 1100.0, panel_width(g))
    height = board_h + PANEL_LINE * len(panel_lines(g)) + MARGIN
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}">',
        f'<rect width="{width:.0f}" height="{height:.0f}" fill="#ffffff"/>',
        *board_svg(g),
        *panel_svg(g, board_h + PANEL_LINE * 0.6),
        "</svg>",
    ]
    return "\n".join(parts)
