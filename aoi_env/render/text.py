"""A readable text view of a game: header, displays, the hex board and a player table."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aoi_env.core.rules.scoring import has_neutral_faction, visible_area_token
from aoi_env.core.state import (
    G_BONUS_COINS,
    G_BONUS_STATE,
    G_BOOK_ACTIONS,
    G_BOOKS_USED,
    G_CITY_LEFT,
    G_COMP_LEFT,
    G_COMP_SPACES,
    G_FINAL_TILE,
    G_INNOV_OWNER,
    G_INNOV_SPACES,
    G_NEUTRAL_SCIENCE,
    G_ORDER,
    G_PALACE_STATE,
    G_PHASE,
    G_ROUND,
    G_ROUND_TILES,
    G_SPELLS_USED,
    H_BUILDING,
    H_CITY,
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
)
from aoi_env.data import NUM_COLS, NUM_ROWS
from aoi_env.data.enums import TERRAIN_LETTERS, Building, Faction, Terrain

if TYPE_CHECKING:
    from aoi_env.core.engine import Game

BUILDING_LETTERS = " wgsupTM"  # workshop guild school university palace Tower Monument
ANSI_TERRAIN = {0: "33", 1: "38;5;130", 2: "90", 3: "34", 4: "32", 5: "37", 6: "31"}
TERRAIN_NAMES = [t.name.lower() for t in Terrain][:7]


def _cell(g: Game, pos: int, color: bool) -> str:
    h = g.state.hexes[pos]
    t = int(h[H_TERRAIN])
    if t == Terrain.OFF:
        return "   "
    if t == Terrain.RIVER:
        return " ~ "
    letter = TERRAIN_LETTERS[t]
    b = int(h[H_BUILDING])
    if b:
        mark = BUILDING_LETTERS[b] + str(int(h[H_OWNER]))
        if h[H_CITY]:
            mark = mark.upper() if b < Building.TOWER else mark
        text = letter + mark + ("+" if h[H_PAVILION] else "")
    else:
        text = letter.lower() + "  "
    text = text[:3]
    if color:
        return f"\033[{ANSI_TERRAIN[t]}m{text}\033[0m"
    return text


def board_text(g: Game, color: bool = False) -> str:
    lines = ["      " + "".join(f"{c:<4}" for c in range(NUM_COLS))]
    for r in range(NUM_ROWS):
        indent = "  " if r % 2 else ""
        cells = " ".join(_cell(g, r * NUM_COLS + c, color) for c in range(NUM_COLS))
        lines.append(f"r{r}  {indent}{cells}")
    return "\n".join(lines)


def _names(ids: tuple[str, ...], idx: list[int]) -> str:
    return " ".join(ids[i] for i in idx) or "-"


def header_text(g: Game) -> str:
    s = g.state
    rnd = int(s.glob[G_ROUND])
    phase = Phase.NAMES[int(s.glob[G_PHASE])]
    who = g.current_seat()
    kind = g.pending_kind()
    turn = f"seat {who} to decide ({kind.name.lower()})" if kind is not None else "game over"
    d = g.data
    tiles = [d.round_tile_ids[int(t)] for t in s.glob[G_ROUND_TILES]]
    tiles[5] += "+" + d.final_tile_ids[int(s.glob[G_FINAL_TILE])]
    lines = [
        f"{g.config}  round {min(rnd, 6) if rnd else 'setup'}, phase {phase}, {turn}",
        "round tiles: " + " ".join(f"{i + 1}:{t}" for i, t in enumerate(tiles)),
        "order: " + " ".join(str(int(x)) for x in s.glob[G_ORDER] if x >= 0),
    ]
    spells = [d.spell_ids[i] + ("x" if s.glob[G_SPELLS_USED][i] else "") for i in range(6)]
    books = [
        d.book_action_ids[int(k)] + ("x" if s.glob[G_BOOKS_USED][j] else "")
        for j, k in enumerate(s.glob[G_BOOK_ACTIONS])
    ]
    lines.append("spells: " + " ".join(spells) + "   book actions: " + " ".join(books))
    display = [b for b in range(10) if s.glob[G_BONUS_STATE][b] == -1]
    lines.append(
        "bonus display: " + (" ".join(f"{d.bonus_ids[b]}({int(s.glob[G_BONUS_COINS][b])}c)" for b in display) or "-")
    )
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


def players_text(g: Game) -> str:
    s = g.state
    d = g.data
    rows = [
        "seat faction      board      VP   C  T  S(sup) books B/L/E/M  power    science    sail dig  "
        "buildings wgsupTM  bonus palace cities bridges passed"
    ]
    for seat in range(g.seats):
        p = s.players[seat]
        faction = Faction(int(p[P_FACTION])).name.lower() if p[P_FACTION] >= 0 else "-"
        if g.is_automa(seat):
            from aoi_env.core import automa

            faction = f"A:{automa.faction_of(g, seat)[:8]}{automa.level_of(g, seat)}"
        board = TERRAIN_NAMES[int(p[P_BOARD])] if p[P_BOARD] >= 0 else "-"
        counts = p[P_BUILT] + p[P_NEUTRAL_BUILT]
        built = "".join(str(int(counts[b])) for b in range(1, 8))
        bonus = d.bonus_ids[int(p[P_BONUS])] if p[P_BONUS] >= 0 else "-"
        palace = str(int(p[P_PALACE_TILE]) + 1) if p[P_PALACE_TILE] >= 0 else "-"
        rows.append(
            f"{seat:<4} {faction:<12} {board:<9} {int(p[P_VP]):>3} {int(p[P_COINS]):>3} {int(p[P_TOOLS]):>2} "
            f"{int(p[P_SCHOLARS]):>1}({int(p[P_SCHOLAR_SUPPLY])})   {'/'.join(str(int(x)) for x in p[P_BOOKS]):<13}"
            f"{'/'.join(str(int(x)) for x in p[P_BOWLS]):<8} {'/'.join(str(int(x)) for x in p[P_SCIENCE]):<10} "
            f"{int(p[P_SAILING]):>4} {3 - int(p[P_TERRAFORMING]):>3}  {built:<18} {bonus:<5} {palace:<6} "
            f"{int(p[P_CITIES]):<6} {int(p[P_BRIDGES]):<7} {'yes' if p[P_PASSED] else 'no'}"
        )
        comps = [f"C{c + 1}" for c in range(12) if int(p[P_COMPETENCIES]) >> c & 1]
        innov = [d.innovation_keys[int(t)] for t in p[P_INNOVATIONS] if t >= 0]
        if comps or innov:
            rows.append(f"     competencies: {' '.join(comps) or '-'}   innovations: {' '.join(innov) or '-'}")
    return "\n".join(rows)


def render_text(g: Game, color: bool = False) -> str:
    """The whole game as text (the ``ansi`` render mode; ``color`` adds ANSI terrain colours)."""
    return "\n\n".join([header_text(g), board_text(g, color), players_text(g)])
