"""Choice decisions that are part of many actions: books, steps, keys, tiles, offers, bridges, upgrades.

Each kind registers ``legal`` (exact ids), ``apply`` and ``describe`` with the engine.  A decision
that repeats (pay 3 books, place 3 steps) re-pushes itself with the count reduced.
"""

from __future__ import annotations

import functools

import numpy as np

from aoi_env.core import effects, pending
from aoi_env.core.board import hex_name
from aoi_env.core.engine import Game, applies, automatic, decision
from aoi_env.core.moves import (
    BONUS_BASE,
    CITY_BASE,
    COMPETENCY_BASE,
    COUNT_BASE,
    DISC_BASE,
    DONE,
    HEX_BASE,
    INNOVATION_BASE,
    PALACE_BASE,
    YES,
)
from aoi_env.core.pending import BR_MOLES, UP_ACTION, UP_SWAP, Kind, Row
from aoi_env.core.rules import buildings, cities, power, science, terrain
from aoi_env.core.state import (
    G_BONUS_COINS,
    G_BONUS_STATE,
    G_CITY_LEFT,
    G_COMP_LEFT,
    G_COMP_SPACES,
    G_DEPTH,
    G_INNOV_OWNER,
    G_INNOV_SPACES,
    G_NUM_BRIDGES,
    G_PALACE_STATE,
    H_BUILDING,
    H_OWNER,
    H_PAVILION,
    P_BOARD,
    P_BONUS,
    P_BOOKS,
    P_BRIDGES,
    P_CITIES,
    P_COINS,
    P_COMPETENCIES,
    P_DEFER_CITY,
    P_DRAFT_PALACE,
    P_FACTION,
    P_INNOVATIONS,
    P_NEUTRAL_PALACE,
    P_PALACE_TILE,
    P_PAVILIONS,
    P_TOOLS,
    P_VP,
    bonus_row,
    set_bonus_row,
)
from aoi_env.data import INNOVATIONS_PER_PLAYER, load
from aoi_env.data.enums import NUM_BONUS_TILES, NUM_CITY_TILES, NUM_COMPETENCIES, Building

BOOKS = P_BOOKS.start
DISC_NAMES = ("banking", "law", "engineering", "medicine")
BUILDING_NAMES = tuple(b.name.lower() for b in Building)


def disc_of(action: int) -> int:
    return action - DISC_BASE


def _discs() -> list[int]:
    return [DISC_BASE + d for d in range(4)]


# --------------------------------------------------------------------------------------------
# books and steps


@decision(Kind.CHOOSE_BOOKS, lambda g, row, a: f"book {DISC_NAMES[a - DISC_BASE]}")
def _books_legal(g: Game, row: Row) -> list[int]:
    return _discs()


@applies(Kind.CHOOSE_BOOKS)
def _books_apply(g: Game, row: Row, a: int) -> None:
    seat, n = row[1], row[2]
    g.state.players[seat, BOOKS + disc_of(a)] += 1
    if n > 1:
        pending.push(g.state, Kind.CHOOSE_BOOKS, seat, n - 1)


@decision(Kind.PAY_BOOKS, lambda g, row, a: f"pay {DISC_NAMES[a - DISC_BASE]}")
def _pay_legal(g: Game, row: Row) -> list[int]:
    books = g.state.players[row[1], P_BOOKS]
    return [DISC_BASE + d for d in range(4) if books[d] > 0]


@applies(Kind.PAY_BOOKS)
def _pay_apply(g: Game, row: Row, a: int) -> None:
    seat, n = row[1], row[2]
    g.state.players[seat, BOOKS + disc_of(a)] -= 1
    if n > 1:
        pending.push(g.state, Kind.PAY_BOOKS, seat, n - 1)


@decision(Kind.STEPS_ANY, lambda g, row, a: f"step {DISC_NAMES[a - DISC_BASE]}")
def _steps_any_legal(g: Game, row: Row) -> list[int]:
    return _discs()


@applies(Kind.STEPS_ANY)
def _steps_any_apply(g: Game, row: Row, a: int) -> None:
    seat, n = row[1], row[2]
    if n > 1:
        pending.push(g.state, Kind.STEPS_ANY, seat, n - 1)
    science.advance(g, seat, disc_of(a), 1)


@decision(Kind.STEPS_ONE, lambda g, row, a: f"steps {DISC_NAMES[a - DISC_BASE]}")
def _steps_one_legal(g: Game, row: Row) -> list[int]:
    return _discs()


@applies(Kind.STEPS_ONE)
def _steps_one_apply(g: Game, row: Row, a: int) -> None:
    science.advance(g, row[1], disc_of(a), row[2])


@decision(Kind.USE_KEY, lambda g, row, a: f"key {DISC_NAMES[row[2]]}" if a == YES else "nokey")
def _key_legal(g: Game, row: Row) -> list[int]:
    seat = row[1]
    if science.keys_available(g.state.players[seat]) > 0:
        return [YES, DONE]
    return [DONE]


@applies(Kind.USE_KEY)
def _key_apply(g: Game, row: Row, a: int) -> None:
    if a == YES:
        science.unlock_and_continue(g, row[1], row[2], row[3])


# --------------------------------------------------------------------------------------------
# competencies, cities, palace tiles


def competency_space(g: Game, comp: int) -> int:
    return int(np.flatnonzero(g.state.glob[G_COMP_SPACES] == comp)[0])


@decision(Kind.CHOOSE_COMPETENCY, lambda g, row, a: f"competency C{a - COMPETENCY_BASE + 1}")
def _comp_legal(g: Game, row: Row) -> list[int]:
    p = g.state.players[row[1]]
    left = g.state.glob[G_COMP_LEFT]
    owned = int(p[P_COMPETENCIES])
    return [COMPETENCY_BASE + c for c in range(NUM_COMPETENCIES) if left[c] > 0 and not owned >> c & 1]  # R53.1, OP-45


@applies(Kind.CHOOSE_COMPETENCY)
def _comp_apply(g: Game, row: Row, a: int) -> None:
    seat, comp = row[1], a - COMPETENCY_BASE
    take_competency(g, seat, comp)


def take_competency(g: Game, seat: int, comp: int) -> None:
    """Take the top tile of a stack: position reward, then the tile's effect (R53)."""
    s = g.state
    p = s.players[seat]
    p[P_COMPETENCIES] |= 1 << comp
    s.glob[G_COMP_LEFT.start + comp] -= 1
    space = competency_space(g, comp)
    column, row_ = divmod(space, 3)
    reward = g.data.raw["competency_display"]["rows"][row_]
    effects.gain(g, seat, g.tab.competency_once[comp])  # resolves after the position reward
    books = reward["books"] + g.tab.faction_flags[int(p[P_FACTION])]["on_competency_book"]
    p[BOOKS + column] += books  # R53.3 (+ Philosophers R99)
    science.advance(g, seat, column, reward["steps"])


@decision(Kind.CHOOSE_CITY, lambda g, row, a: f"city K{a - CITY_BASE + 1}")
def _city_legal(g: Game, row: Row) -> list[int]:
    left = g.state.glob[G_CITY_LEFT]
    return [CITY_BASE + k for k in range(NUM_CITY_TILES) if left[k] > 0]


@applies(Kind.CHOOSE_CITY)
def _city_apply(g: Game, row: Row, a: int) -> None:
    """Take a city tile: VP, key, bonus, then city triggers (R45, OP-18)."""
    seat, k = row[1], a - CITY_BASE
    s = g.state
    s.glob[G_CITY_LEFT.start + k] -= 1
    p = s.players[seat]
    p[P_VP] += g.tab.city_vp[k]
    p[P_CITIES] += 1  # the key (R45.3)
    effects.fire(g, seat, "city")  # T6 +5 for any city tile; triggers resolve after the tile bonus
    if not row[2] or g.tab.palace_flags[int(p[P_PALACE_TILE])]["founds_city"]:
        effects.fire(g, seat, "found_city")  # Felines, Lizards; palace 11's tile only in v1.2 (OP-18, R145)
    effects.gain(g, seat, g.tab.city_reward[k])


@decision(Kind.CHOOSE_PALACE, lambda g, row, a: f"palace {a - PALACE_BASE + 1}")
def _palace_legal(g: Game, row: Row) -> list[int]:
    state = g.state.glob[G_PALACE_STATE]
    return [PALACE_BASE + t for t in range(17) if state[t] == -1]


@applies(Kind.CHOOSE_PALACE)
def _palace_apply(g: Game, row: Row, a: int) -> None:
    place_palace_tile(g, row[1], a - PALACE_BASE)


def place_palace_tile(g: Game, seat: int, tile: int) -> None:
    """R68: the tile goes in place of the placeholder before anything else of the build happens;
    its income and abilities apply from now on (its one-time effect comes with R55 step 4)."""
    g.state.glob[G_PALACE_STATE.start + tile] = seat
    g.state.players[seat, P_PALACE_TILE] = tile


def palace_tile_effect(g: Game, seat: int, tile: int) -> None:
    """The tile's one-time effect (R120), after the build's power offers and city check (R55)."""
    pending.push(g.state, Kind.CITY_CHECK, seat)  # palace 8 may complete a city (OP-33)
    effects.gain(g, seat, g.tab.palace_once[tile])


# --------------------------------------------------------------------------------------------
# innovations


def innovation_cost(g: Game, seat: int, space: int) -> tuple[np.ndarray, int, int]:
    """(specific books per discipline, any books, coins) to develop from a display space (R73)."""
    p = g.state.players[seat]
    spec, any_books = g.innovation_space_cost[space]
    slot = int(np.count_nonzero(p[P_INNOVATIONS] >= 0))
    any_books += g.data.boards[p[P_BOARD]].innovation_slot_books[slot]
    has_palace = p[P_PALACE_TILE] >= 0 or p[P_NEUTRAL_PALACE] or p[buildings.BUILT + Building.PALACE]
    coins = 0 if has_palace else g.data.raw["innovation_display"]["no_palace_coins"]
    return spec, any_books, coins


def affordable_innovations(g: Game, seat: int, pl: list[int] | None = None) -> list[tuple[int, int]]:
    """(space, innovation id) pairs the seat can develop now (the costs of ``innovation_cost``);
    ``pl``: the seat's player row as plain ints, when the caller has it."""
    s = g.state
    if pl is None:
        pl = s.players[seat].tolist()  # plain ints: this runs for every MAIN decision (issue 10)
    slot = 0  # innovations taken (a loop: a generator costs a frame per call, issue 10)
    for t in pl[P_INNOVATIONS]:
        if t >= 0:
            slot += 1
    if slot >= INNOVATIONS_PER_PLAYER:  # R73
        return []
    books = pl[P_BOOKS]
    total = sum(books)
    # innovation_cost, unrolled: the slot's extra books and the no-Palace coins are the same for every space
    extra = g.data.boards[pl[P_BOARD]].innovation_slot_books[slot]
    if total < g.innovation_min_books + extra:  # fewer books than the cheapest space asks for
        return []
    has_palace = pl[P_PALACE_TILE] >= 0 or pl[P_NEUTRAL_PALACE] or pl[buildings.BUILT + Building.PALACE]
    if not has_palace and pl[P_COINS] < g.data.raw["innovation_display"]["no_palace_coins"]:
        return []
    owner = s.glob[G_INNOV_OWNER].tolist()
    out = []
    for space, tile in enumerate(s.glob[G_INNOV_SPACES].tolist()):
        if tile < 0 or owner[tile] != -1:
            continue
        spec, spec_sum, any_books = g.innovation_space_cost_ints[space]
        if total - spec_sum >= any_books + extra and all(b >= c for b, c in zip(books, spec, strict=True)):
            out.append((space, tile))
    return out


@decision(Kind.CHOOSE_INNOVATION, lambda g, row, a: f"innovation {g.data.innovation_keys[a - INNOVATION_BASE]}")
def _innov_legal(g: Game, row: Row) -> list[int]:
    return [INNOVATION_BASE + t for _, t in affordable_innovations(g, row[1])]


@applies(Kind.CHOOSE_INNOVATION)
def _innov_apply(g: Game, row: Row, a: int) -> None:
    seat, tile = row[1], a - INNOVATION_BASE
    s = g.state
    space = int(np.flatnonzero(s.glob[G_INNOV_SPACES] == tile)[0])
    spec, any_books, coins = innovation_cost(g, seat, space)
    p = s.players[seat]
    p[P_BOOKS] -= spec
    p[P_COINS] -= coins
    slot = int(np.count_nonzero(p[P_INNOVATIONS] >= 0))
    p[P_INNOVATIONS.start + slot] = tile
    s.glob[G_INNOV_OWNER.start + tile] = seat
    pending.push(s, Kind.INNOVATION_EFFECT, seat, tile)
    if any_books:
        pending.push(s, Kind.PAY_BOOKS, seat, any_books)
    effects.fire(g, seat, "innovation")  # T10


@automatic(Kind.INNOVATION_EFFECT)
def _innov_effect(g: Game, row: Row) -> None:
    effects.gain(g, row[1], g.tab.innovation_once[row[2]])


# --------------------------------------------------------------------------------------------
# pass: round bonus tile


@decision(Kind.PASS_BONUS, lambda g, row, a: f"bonus {g.data.bonus_ids[a - BONUS_BASE]}")
def _pass_bonus_legal(g: Game, row: Row) -> list[int]:
    state = g.state.glob[G_BONUS_STATE].tolist()
    return [BONUS_BASE + b for b in range(NUM_BONUS_TILES) if state[b] == -1]


@applies(Kind.PASS_BONUS)
def _pass_bonus_apply(g: Game, row: Row, a: int) -> None:
    """Take a display tile with its coins, then return the old one face up (R78.2, R78.3)."""
    seat, b = row[1], a - BONUS_BASE
    take_bonus(g, seat, b)


def take_bonus(g: Game, seat: int, b: int, keep_coins: bool = True) -> None:
    """Take a display tile (with its coins; the Automa returns them, AUTOMA.md §4.5) and return the
    old tile face up.  The display is a row: the returned tile takes the slot of the one taken
    (AUTOMA.md §10 #20)."""
    s = g.state
    p, glob = s.player_ints(seat), s.glob_ints  # Python ints (issue 10)
    old = p[P_BONUS]
    glob[G_BONUS_STATE.start + b] = seat
    if keep_coins:
        p[P_COINS] += glob[G_BONUS_COINS.start + b]
    glob[G_BONUS_COINS.start + b] = 0
    p[P_BONUS] = b
    if old >= 0:
        glob[G_BONUS_STATE.start + old] = -1
    row = bonus_row(s.glob)
    if b in row:
        if old >= 0:
            row[row.index(b)] = old
        else:
            row.remove(b)
        set_bonus_row(s.glob, row)


# --------------------------------------------------------------------------------------------
# power offers (R42)


def _offer_text(g: Game, row: Row, a: int) -> str:
    return "leech accept" if a == YES else "leech decline"


@decision(Kind.OFFER, _offer_text)
def _offer_legal(g: Game, row: Row) -> list[int]:
    return [YES, DONE]


@applies(Kind.OFFER)
def _offer_apply(g: Game, row: Row, a: int) -> None:
    if a != YES:
        return
    p = g.state.players[row[1]]
    got = buildings.effective_offer(p, row[2])  # R42.5: g = min(v, capacity, VP + 1)
    p[P_VP] -= max(got - 1, 0)
    power.gain(p, got)


# --------------------------------------------------------------------------------------------
# bridges (R40, R95)


def _bridge_pairs(g: Game, seat: int, mode: int) -> tuple[tuple[int, int], ...]:
    if g.state.players[seat, P_BRIDGES] >= g.data.raw["bridges_per_player"]:
        return ()
    return g.free_bridge_spots(seat, moles=mode == BR_MOLES)


@decision(Kind.BRIDGE_END, lambda g, row, a: f"bridge {hex_name(a - HEX_BASE)}")
def _bridge_end_legal(g: Game, row: Row) -> list[int]:
    ends = {e for pair in _bridge_pairs(g, row[1], row[2]) for e in pair}
    return [HEX_BASE + e for e in sorted(ends)]


@applies(Kind.BRIDGE_END)
def _bridge_end_apply(g: Game, row: Row, a: int) -> None:
    pending.push(g.state, Kind.BRIDGE_DIR, row[1], row[2], row[3], a - HEX_BASE)


@decision(Kind.BRIDGE_DIR, lambda g, row, a: f"bridge to {hex_name(a - HEX_BASE)}")
def _bridge_dir_legal(g: Game, row: Row) -> list[int]:
    end = row[4]
    out = []
    for x, y in _bridge_pairs(g, row[1], row[2]):
        if end in (x, y):
            out.append(HEX_BASE + (y if x == end else x))
    return out


@applies(Kind.BRIDGE_DIR)
def _bridge_dir_apply(g: Game, row: Row, a: int) -> None:
    seat, mode, left, end = row[1:5]
    build_bridge(g, seat, end, a - HEX_BASE)
    if left > 1:
        pending.push(g.state, Kind.BRIDGE_END, seat, mode, left - 1)


def build_bridge(g: Game, seat: int, x: int, y: int) -> None:
    """Place a bridge; it may complete a city for anyone with a building at an end (OP-33)."""
    s = g.state
    n = int(s.glob[G_NUM_BRIDGES])
    s.bridges[n] = (min(x, y), max(x, y), seat)
    s.glob[G_NUM_BRIDGES] = n + 1
    s.players[seat, P_BRIDGES] += 1
    owners = {int(s.hexes[e, H_OWNER]) for e in (x, y) if s.hexes[e, H_BUILDING] > 0}
    for owner in sorted(owners, reverse=True):
        if g.is_player(owner):
            pending.push(s, Kind.CITY_CHECK, owner)


# --------------------------------------------------------------------------------------------
# pavilions (C6)


def pavilion_targets(g: Game, seat: int) -> list[int]:
    h = g.state.hexes
    ok = (h[:, H_OWNER] == seat) & (h[:, H_BUILDING] > 0) & (h[:, H_PAVILION] == 0)
    return [int(p) for p in np.flatnonzero(ok)]


@decision(Kind.PAVILION_TARGET, lambda g, row, a: f"pavilion {hex_name(a - HEX_BASE)}")
def _pavilion_legal(g: Game, row: Row) -> list[int]:
    if g.state.players[row[1], P_PAVILIONS] <= 0:
        return []
    return [HEX_BASE + p for p in pavilion_targets(g, row[1])]


@applies(Kind.PAVILION_TARGET)
def _pavilion_apply(g: Game, row: Row, a: int) -> None:
    """Attach a pavilion: not a build, may complete a city (R141 C6, OP-50)."""
    seat = row[1]
    g.state.hexes[a - HEX_BASE, H_PAVILION] = 1
    g.state.players[seat, P_PAVILIONS] -= 1
    pending.push(g.state, Kind.CITY_CHECK, seat)


# --------------------------------------------------------------------------------------------
# upgrades (R66-R70, palace 3, palace 4, BA5)

_BUILT = buildings.BUILT
_GUILD, _PALACE = int(Building.GUILD), int(Building.PALACE)
_FROM = load().building_from  # the building each upgrade replaces (R66-R70), from the data
UPGRADES = tuple(Building(new) for new, old in enumerate(_FROM) if old >= 0)  # the upgrade actions, id order
_REWARD_FIELDS = {"vp": P_VP, "coins": P_COINS, "tools": P_TOOLS}  # palace 3's swap reward (R123)
_SWAP_TILE = next(t for t, row in enumerate(load().palace_tiles) if "swap_reward" in row)  # palace 3


def upgrade_targets(g: Game, seat: int, new: int, source: int) -> list[int]:
    """Own, non-neutral buildings that can become ``new`` now."""
    if buildings.pieces_left(g, seat, new) <= 0:
        return []
    old = Building.SCHOOL if source == UP_SWAP else _FROM[new]
    if g.state.players[seat, buildings.BUILT + old] <= 0:  # = own non-neutral ``old`` buildings on the map
        return []
    out = list(terrain.own_positions(g, seat, old))
    if source == UP_ACTION:
        p = g.state.players[seat]
        out = [q for q in out if buildings.can_pay(p, buildings.upgrade_cost(g, seat, q, new))]
        if new == Building.PALACE and _no_palace_tile(g, p):
            return []
    return out


def _no_palace_tile(g: Game, p: np.ndarray) -> bool:
    """A Palace needs a palace tile (R68): none built, none drafted (R16) and none on display."""
    return bool(p[P_PALACE_TILE] < 0 and p[P_DRAFT_PALACE] < 0 and _no_palace_on_display(g))


def _no_palace_on_display(g: Game) -> bool:
    return -1 not in g.state.glob_ints[G_PALACE_STATE].tolist()


@functools.cache
def _upgrade_rows() -> tuple[tuple[int, int, int, int, int], ...]:
    """(new, old, pieces, tools, coins) of the upgrade actions in ``UPGRADES`` order (R66-R70),
    read from the data once: the MAIN legality checks them at every decision (issue 10)."""
    d = load()
    rows = []
    for new in UPGRADES:
        cost = d.building_cost[new]
        if set(cost) - {"tools", "coins"}:
            raise ValueError(f"building cost of {new.name} has other resources than tools and coins: {cost}")
        rows.append((int(new), int(_FROM[new]), d.building_pieces[new], cost.get("tools", 0), cost.get("coins", 0)))
    return tuple(rows)


@functools.cache
def _cheapest_upgrade() -> tuple[int, int]:
    """The fewest tools and the fewest coins any upgrade asks (the Guild's price next to another
    player's building included, R67): below either, no upgrade is payable."""
    rows = _upgrade_rows()
    neighbour_coins = load().raw["buildings"]["guild"]["coins_if_neighbour"]
    return min(row[3] for row in rows), min(neighbour_coins, *(row[4] for row in rows))


def upgradable(g: Game, seat: int, pl: list[int] | None = None) -> list[int]:
    """The buildings ``new`` with ``upgrade_targets(g, seat, new, UP_ACTION)`` not empty, without
    listing the targets (issue 10): only the Guild's price depends on the hex (R67), so one
    affordability check settles the others, and the Guild needs a scan only when the full price
    is out of reach.  ``pl``: the seat's player row as plain ints, when the caller has it."""
    if pl is None:
        pl = g.state.players[seat].tolist()
    tools, coins = pl[P_TOOLS], pl[P_COINS]
    least_tools, least_coins = _cheapest_upgrade()
    if tools < least_tools or coins < least_coins:  # nothing payable: no row needs a look (issue 10)
        return []
    out = []
    for new, old, pieces, tools_cost, coins_cost in _upgrade_rows():
        if pl[_BUILT + new] >= pieces or pl[_BUILT + old] <= 0:
            continue  # no piece left, no source building
        if new == _PALACE and pl[P_PALACE_TILE] < 0 and pl[P_DRAFT_PALACE] < 0 and _no_palace_on_display(g):
            continue  # ``_no_palace_tile``
        if (tools >= tools_cost and coins >= coins_cost) or (new == _GUILD and _guild_somewhere(g, seat, old, pl)):
            out.append(new)
    return out


def _guild_somewhere(g: Game, seat: int, old: int, pl: list[int]) -> bool:
    """Some own Workshop where the Guild's price with its neighbours is payable (R67); ``pl``:
    the seat's player row as plain ints."""
    for q in terrain.own_positions(g, seat, old):  # noqa: SIM110  (a loop, not any(...): no generator frame, issue 10)
        if buildings.can_pay(pl, buildings.guild_cost(g, seat, q)):
            return True
    return False


def can_upgrade(g: Game, seat: int, new: int, pl: list[int] | None = None) -> bool:
    """``bool(upgrade_targets(g, seat, new, UP_ACTION))`` (see ``upgradable``)."""
    return new in upgradable(g, seat, pl)


def _upgrade_text(g: Game, row: Row, a: int) -> str:
    return f"upgrade {hex_name(a - HEX_BASE)}"


@decision(Kind.UPGRADE_TARGET, _upgrade_text)
def _upgrade_legal(g: Game, row: Row) -> list[int]:
    return [HEX_BASE + p for p in upgrade_targets(g, row[1], row[2], row[3])]


@applies(Kind.UPGRADE_TARGET)
def _upgrade_apply(g: Game, row: Row, a: int) -> None:
    seat, new, source = row[1], row[2], row[3]
    upgrade(g, seat, a - HEX_BASE, new, source)


def upgrade(g: Game, seat: int, pos: int, new: int, source: int) -> None:
    """Replace the building, queue acquisition effects, then the build event (R55, R66)."""
    s = g.state
    p = s.players[seat]
    if source == UP_ACTION:
        buildings.pay(p, buildings.upgrade_cost(g, seat, pos, new))
    buildings.replace(g, seat, pos, new)
    if source == UP_SWAP:  # palace 3 (R123)
        for key, n in g.data.palace_tiles[_SWAP_TILE]["swap_reward"].items():
            p[_REWARD_FIELDS[key]] += n
    if new in (Building.SCHOOL, Building.UNIVERSITY):
        pending.push(s, Kind.CHOOSE_COMPETENCY, seat, 0)  # R69, R70
    elif new == Building.PALACE:
        pending.push(s, Kind.PALACE_EFFECT, seat, -1)  # its one-time effect: R55 step 4
    buildings.after_build(g, seat, pos, new)
    if new == Building.PALACE:  # R68: the tile is chosen and placed first, before the offers
        if p[P_DRAFT_PALACE] >= 0:  # draft variant: the drafted tile, no choice
            tile = int(p[P_DRAFT_PALACE])
            p[P_DRAFT_PALACE] = -1
            place_palace_tile(g, seat, tile)
        else:
            pending.push(s, Kind.CHOOSE_PALACE, seat)


@automatic(Kind.PALACE_EFFECT)
def _palace_effect(g: Game, row: Row) -> None:
    seat = row[1]
    tile = row[2] if row[2] >= 0 else int(g.state.players[seat, P_PALACE_TILE])
    palace_tile_effect(g, seat, tile)


# --------------------------------------------------------------------------------------------
# palace 15 (R135, OP-19) and palace 16 (R136)

PALACE15_PARTS = {1: ("spades", 1, {"tb": 2}), 2: ("bridges", 2, {"bridge": 2}), 3: ("books", 4, {"books": 2})}


@decision(Kind.PALACE15, lambda g, row, a: f"part {PALACE15_PARTS[a - COUNT_BASE + 1][0]}")
def _p15_legal(g: Game, row: Row) -> list[int]:
    seat, mask = row[1], row[2]
    return [
        COUNT_BASE + k - 1
        for k, (_, bit, gain) in PALACE15_PARTS.items()
        if mask & bit and effects.feasible(g, seat, gain)
    ]


@applies(Kind.PALACE15)
def _p15_apply(g: Game, row: Row, a: int) -> None:
    seat, mask = row[1], row[2]
    _, bit, gain = PALACE15_PARTS[a - COUNT_BASE + 1]
    if mask & ~bit:
        pending.push(g.state, Kind.PALACE15, seat, mask & ~bit)
    effects.gain(g, seat, gain)


def guild_anywhere_targets(g: Game, seat: int) -> list[int]:
    if buildings.pieces_left(g, seat, Building.GUILD) <= 0:
        return []
    native = terrain.distances_to_native(g, seat) == 0
    return [int(p) for p in np.flatnonzero(terrain.empty_land(g) & native)]


@decision(Kind.GUILD_ANYWHERE, lambda g, row, a: f"guild {hex_name(a - HEX_BASE)}")
def _g16_legal(g: Game, row: Row) -> list[int]:
    return [HEX_BASE + p for p in guild_anywhere_targets(g, row[1])]


@applies(Kind.GUILD_ANYWHERE)
def _g16_apply(g: Game, row: Row, a: int) -> None:
    seat, pos = row[1], a - HEX_BASE
    buildings.place(g, seat, pos, Building.GUILD)
    buildings.after_build(g, seat, pos, Building.GUILD)


# --------------------------------------------------------------------------------------------
# automatic continuations


@automatic(Kind.CITY_CHECK)
def _city_check(g: Game, row: Row) -> None:
    seat = row[1]
    p = g.state.players[seat]
    waiting = 0
    if row[2] == 1:  # end of palace 15 (OP-19): the tiles of the cities founded during its parts
        waiting = max(0, int(p[P_DEFER_CITY]) - 1)
        p[P_DEFER_CITY] = 0
    elif p[P_DEFER_CITY]:
        p[P_DEFER_CITY] += cities.check(g, seat, tiles=False)  # founded now (R43), rewarded later
        return
    depth = g.state.glob.item(G_DEPTH)
    cities.check(g, seat)
    for _ in range(waiting):
        pending.push(g.state, Kind.CHOOSE_CITY, seat, 0)
    offer_reward_order(g, seat, g.state.glob.item(G_DEPTH) - depth)


# the acquisition effects of an upgrade that may come before or after its city rewards (R55.4)
_ACQUISITIONS = frozenset({Kind.CHOOSE_COMPETENCY, Kind.CHOOSE_PALACE, Kind.PALACE_EFFECT})
_CITY_ROWS = frozenset({Kind.CHOOSE_CITY, Kind.RIVER_CITY})


def offer_reward_order(g: Game, seat: int, new: int) -> None:
    """R55.4 / R70: when the top ``new`` rows are city rewards (tiles, a palace 14 crossing) pushed
    right above the acquisition of the upgrade that founded them, the player orders the two."""
    s = g.state
    top = s.glob.item(G_DEPTH)
    if new == 0 or top - new < 1:
        return
    below = s.stack[top - new - 1].tolist()
    kinds = s.stack[top - new : top, 0].tolist()
    if below[1] == seat and below[0] in _ACQUISITIONS and Kind.CHOOSE_CITY in kinds and _CITY_ROWS.issuperset(kinds):
        pending.push(s, Kind.REWARD_ORDER, seat, new)


def _order_text(g: Game, row: Row, a: int) -> str:
    if a == COUNT_BASE:
        return "first city"
    below = g.state.stack[int(g.state.glob[G_DEPTH]) - row[2] - 2]  # under this row and the city tiles
    return "first competency" if int(below[0]) == Kind.CHOOSE_COMPETENCY else "first palace"


@decision(Kind.REWARD_ORDER, _order_text)
def _order_legal(g: Game, row: Row) -> list[int]:
    return [COUNT_BASE, COUNT_BASE + 1]


@applies(Kind.REWARD_ORDER)
def _order_apply(g: Game, row: Row, a: int) -> None:
    """``first competency`` / ``first palace`` moves the upgrade's tile choice above the city tiles."""
    if a == COUNT_BASE:
        return
    s = g.state
    top = int(s.glob[G_DEPTH])
    n = row[2]
    acquisition = s.stack[top - n - 1].copy()
    s.stack[top - n - 1 : top - 1] = s.stack[top - n : top].copy()
    s.stack[top - 1] = acquisition


@decision(Kind.RIVER_CITY, lambda g, row, a: "done" if a == DONE else f"rivercity {hex_name(a - HEX_BASE)}")
def _river_legal(g: Game, row: Row) -> list[int]:
    options = cities.river_city_options(g, row[1])
    return [*(HEX_BASE + r for r in sorted(options)), DONE] if options else []


@applies(Kind.RIVER_CITY)
def _river_apply(g: Game, row: Row, a: int) -> None:
    """Palace 14 (R134): use the river crossing now, or not now (it is offered again later)."""
    if a != DONE:
        depth = g.state.glob.item(G_DEPTH)
        cities.found_river_city(g, row[1], a - HEX_BASE)
        offer_reward_order(g, row[1], g.state.glob.item(G_DEPTH) - depth)  # R70: any order


@automatic(Kind.GAIN)
def _gain_later(g: Game, row: Row) -> None:
    effects.gain(g, row[1], effects.source_gain(g, row[2], row[3], row[4]), row[5] or 1)
