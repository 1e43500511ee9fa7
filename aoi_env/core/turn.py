"""A player's turn in Phase II (R58-R79): free conversions, exactly one action, conversions, done.

``MAIN`` offers the conversions and every action whose main effect can be carried out now
(OP-58); ``POST`` offers the conversions and ``done``.  Choosing an action pushes ``END_ACTION``
(which opens ``POST`` once the action and everything it triggered are resolved) and then the
action's own decisions.  Pass is an action too (R79: conversions "before and/or after your
action"): its effects and the new round bonus tile come first, then ``POST`` -- but only when the
pass gave something a conversion spends (power, tools, scholars, books, e.g. B8's steps reaching
a power threshold).  Otherwise every conversion after the pass could have been made before it
with the same result, so a ``POST`` would only add a redundant decision.
"""

from __future__ import annotations

import functools

import numpy as np

from aoi_env.core import effects, pending, terraform
from aoi_env.core.decisions import DISC_NAMES, affordable_innovations, pavilion_targets, upgradable
from aoi_env.core.engine import Game, applies, automatic, decision
from aoi_env.core.moves import (
    A_BUILD,
    A_DIG,
    A_INNOVATE,
    A_MOLES_BRIDGE,
    A_PASS,
    A_PAVILION,
    A_SAIL,
    ACTION_BASE,
    ACTION_WORDS,
    BLOCKS,
    BOOK_BASE,
    BUILDING_BASE,
    CONVERT_BASE,
    CV_BOOK_COIN,
    CV_BURN,
    CV_POWER_BOOK,
    CV_POWER_COIN,
    CV_POWER_SCHOLAR,
    CV_POWER_TOOL,
    CV_SCHOLAR_TOOL,
    CV_TOOL_COIN,
    DONE,
    NUM_CONVERSIONS,
    SCHOLAR_BASE,
    SCHOLAR_FORMS,
    SP_BONUS,
    SP_COMPETENCY,
    SP_DEUS,
    SP_FACTION,
    SP_PALACE,
    SP_PROFESSORS,
    SPECIAL_BASE,
    SPECIAL_WORDS,
    SPELL_BASE,
)
from aoi_env.core.pending import (
    BR_MOLES,
    PART_EFFECT,
    PART_PASS,
    SRC_BONUS,
    SRC_BOOK,
    SRC_COMPETENCY,
    SRC_INNOVATION,
    SRC_PALACE,
    TB_BUILD,
    TB_BUY,
    UP_ACTION,
    Kind,
    Row,
)
from aoi_env.core.rules import power, science, tracks
from aoi_env.core.rules.power import II, III
from aoi_env.core.state import (
    G_BOOK_ACTIONS,
    G_BOOKS_USED,
    G_NEXT_COUNT,
    G_NEXT_ORDER,
    G_ROUND,
    G_SCHOLAR_SPACES,
    G_SPELLS_USED,
    P_BOARD,
    P_BONUS,
    P_BOOKS,
    P_BRIDGES,
    P_BUILT,
    P_COINS,
    P_COMPETENCIES,
    P_FACTION,
    P_INNOVATIONS,
    P_PALACE_TILE,
    P_PASSED,
    P_PAVILIONS,
    P_SAILING,
    P_SCHOLAR_SUPPLY,
    P_SCHOLARS,
    P_SPECIALS_USED,
    P_TERRAFORMING,
    P_TOOLS,
    PlayerRow,
)
from aoi_env.core.tables import tables
from aoi_env.data import ROUNDS, DataError, load
from aoi_env.data.enums import NUM_COMPETENCIES, Building

BOOKS = P_BOOKS.start
BUILT = P_BUILT.start
# one past the last id of each action block a turn dispatches on (moves.BLOCKS)
BUILDING_END, SCHOLAR_END, SPELL_END, BOOK_END = (sum(BLOCKS[b]) for b in ("BUILDING", "SCHOLAR", "SPELL", "BOOK"))
_INNOV_SPECIAL = {SP_DEUS: "deus_ex_machina", SP_PROFESSORS: "professors"}  # their action ids (R101, R104)
_MAIN, _POST, _END_ACTION = int(Kind.MAIN), int(Kind.POST), int(Kind.END_ACTION)  # plain ints (see flow._MAIN)


def _special_competency() -> int:
    """The competency with a special action (C7, R141): the only one with a ``special`` in the
    data, as the action space has one competency special; the innovations' are checked too."""
    d = load()
    comps = [c for c, row in enumerate(d.competencies) if row.get("special")]
    innovations = {key for key, row in zip(d.innovation_keys, d.innovations, strict=True) if row.get("special")}
    if len(comps) != 1 or innovations != set(_INNOV_SPECIAL.values()):
        raise DataError(
            f"special actions: competencies {comps}, innovations {sorted(innovations)}; "
            "the action ids hold one competency's and Deus ex machina's and Professors'"
        )
    return comps[0]


COMPETENCY_C7 = _special_competency()


_AMOUNTS = load().conversion_amounts  # (paid, got) per conversion, R79
PW_SCHOLAR, PW_BOOK, PW_TOOL, PW_COIN = (
    _AMOUNTS[k][0] for k in ("power_scholar", "power_book", "power_tool", "power_coin")
)
GOT_SCHOLAR, GOT_BOOK, GOT_TOOL, GOT_COIN = (
    _AMOUNTS[k][1] for k in ("power_scholar", "power_book", "power_tool", "power_coin")
)
SCHOLAR_TOOL, TOOL_COIN, BOOK_COIN = _AMOUNTS["scholar_tool"], _AMOUNTS["tool_coin"], _AMOUNTS["book_coin"]

CONVERT_WORDS = (
    "burn",
    f"{PW_SCHOLAR}pw scholar",
    *(f"{PW_BOOK}pw book {d}" for d in DISC_NAMES),
    f"{PW_TOOL}pw tool",
    f"{PW_COIN}pw coin",
    "scholar tool",
    "tool coin",
    *(f"book {d} coin" for d in DISC_NAMES),
)
assert len(CONVERT_WORDS) == NUM_CONVERSIONS


# --------------------------------------------------------------------------------------------
# conversions (R33, R79)


_ID_BURN, _ID_POWER_SCHOLAR, _ID_POWER_TOOL, _ID_POWER_COIN, _ID_SCHOLAR_TOOL, _ID_TOOL_COIN = (
    CONVERT_BASE + c for c in (CV_BURN, CV_POWER_SCHOLAR, CV_POWER_TOOL, CV_POWER_COIN, CV_SCHOLAR_TOOL, CV_TOOL_COIN)
)
_IDS_POWER_BOOK = tuple(CONVERT_BASE + CV_POWER_BOOK + d for d in range(4))
_ID_BOOK_COIN = CONVERT_BASE + CV_BOOK_COIN  # + the discipline
_BOOK_MIN = BOOK_COIN[0]


def conversions(player: PlayerRow | list[int]) -> list[int]:
    """The conversion ids the player can make now, ascending (a player row, its ``tolist()`` or
    ``State.player_ints``); the ids are added in ``CONVERT_WORDS`` order (issue 10: no second
    list for the base)."""
    pl = player.tolist() if isinstance(player, np.ndarray) else player  # plain ints (issue 10)
    out = []
    if pl[II] >= 2:  # R33: a burn takes 2 tokens from bowl II
        out.append(_ID_BURN)
    power = pl[III]
    if power >= PW_SCHOLAR and pl[P_SCHOLAR_SUPPLY] >= GOT_SCHOLAR:
        out.append(_ID_POWER_SCHOLAR)
    if power >= PW_BOOK:
        out.extend(_IDS_POWER_BOOK)
    if power >= PW_TOOL:
        out.append(_ID_POWER_TOOL)
    if power >= PW_COIN:
        out.append(_ID_POWER_COIN)
    if pl[P_SCHOLARS] >= SCHOLAR_TOOL[0]:
        out.append(_ID_SCHOLAR_TOOL)
    if pl[P_TOOLS] >= TOOL_COIN[0]:
        out.append(_ID_TOOL_COIN)
    if pl[BOOKS] >= _BOOK_MIN:
        out.append(_ID_BOOK_COIN)
    if pl[BOOKS + 1] >= _BOOK_MIN:
        out.append(_ID_BOOK_COIN + 1)
    if pl[BOOKS + 2] >= _BOOK_MIN:
        out.append(_ID_BOOK_COIN + 2)
    if pl[BOOKS + 3] >= _BOOK_MIN:
        out.append(_ID_BOOK_COIN + 3)
    return out


def convert(player: PlayerRow, c: int) -> None:
    """Make conversion ``c`` (an index into ``CONVERT_WORDS``); the caller checked it is legal."""
    if c == CV_BURN:
        power.burn(player)
    elif c == CV_POWER_SCHOLAR:
        power.spend(player, PW_SCHOLAR)
        player[P_SCHOLAR_SUPPLY] -= GOT_SCHOLAR
        player[P_SCHOLARS] += GOT_SCHOLAR
    elif CV_POWER_BOOK <= c < CV_POWER_BOOK + 4:
        power.spend(player, PW_BOOK)
        player[BOOKS + c - CV_POWER_BOOK] += GOT_BOOK
    elif c == CV_POWER_TOOL:
        power.spend(player, PW_TOOL)
        player[P_TOOLS] += GOT_TOOL
    elif c == CV_POWER_COIN:
        power.spend(player, PW_COIN)
        player[P_COINS] += GOT_COIN
    elif c == CV_SCHOLAR_TOOL:
        player[P_SCHOLARS] -= SCHOLAR_TOOL[0]
        player[P_SCHOLAR_SUPPLY] += SCHOLAR_TOOL[0]
        player[P_TOOLS] += SCHOLAR_TOOL[1]
    elif c == CV_TOOL_COIN:
        player[P_TOOLS] -= TOOL_COIN[0]
        player[P_COINS] += TOOL_COIN[1]
    else:
        player[BOOKS + c - CV_BOOK_COIN] -= BOOK_COIN[0]
        player[P_COINS] += BOOK_COIN[1]


# --------------------------------------------------------------------------------------------
# special actions (R76)


def special_gain(g: Game, seat: int, sp: int) -> dict | None:
    """The gain of the seat's special action ``sp`` if the seat owns it and it is unused."""
    return _special_gain(g, g.state.players[seat].tolist(), sp)


@functools.cache
def _innovation_index(keys: tuple[str, ...], key: str) -> int:
    return keys.index(key)


def _special_gain(g: Game, pl: list[int], sp: int) -> dict | None:
    """``special_gain`` from the player row as plain ints."""
    if pl[P_SPECIALS_USED] >> sp & 1:
        return None
    if sp == SP_PALACE:
        tile = pl[P_PALACE_TILE]
        return g.tab.palace_special[tile] or None if tile >= 0 else None
    if sp in _INNOV_SPECIAL:
        key = _innovation_index(g.data.innovation_keys, _INNOV_SPECIAL[sp])
        return g.tab.innovation_special[key] if key in pl[P_INNOVATIONS] else None
    if sp == SP_COMPETENCY:
        return g.tab.competency_special[COMPETENCY_C7] if pl[P_COMPETENCIES] >> COMPETENCY_C7 & 1 else None
    if sp == SP_BONUS:
        b = pl[P_BONUS]
        return g.tab.bonus_special[b] or None if b >= 0 else None
    return g.tab.faction_special[pl[P_FACTION]] or None


def owned_specials(g: Game, pl: list[int]) -> list[tuple[int, dict]]:
    """(sp, gain) of every special action the seat owns (R76), used this round or not: the
    unused ones of the row with no special used (memoised: the heuristic asks ~20 times a decision)."""
    fresh = list(pl)
    fresh[P_SPECIALS_USED] = 0
    return list(_unused_specials(g, fresh))


_SPECIALS: dict[tuple, tuple[tuple[int, dict], ...]] = {}


def _unused_specials(g: Game, pl: list[int]) -> tuple[tuple[int, dict], ...]:
    """(sp, gain) for every ``_special_gain`` that is not None, memoised on exactly the fields
    ``_special_gain`` reads (MAIN legality runs it at every decision; issue 10)."""
    key = (
        g.tab.ruleset,
        g.tab.players,
        pl[P_SPECIALS_USED],
        pl[P_PALACE_TILE],
        *pl[P_INNOVATIONS],
        pl[P_COMPETENCIES] >> COMPETENCY_C7 & 1,
        pl[P_BONUS],
        pl[P_FACTION],
    )
    out = _SPECIALS.get(key)
    if out is None:
        if len(_SPECIALS) > 4096:
            _SPECIALS.clear()
        gains = ((sp, _special_gain(g, pl, sp)) for sp in range(len(SPECIAL_WORDS)))
        out = _SPECIALS[key] = tuple((sp, gain) for sp, gain in gains if gain is not None)
    return out


# --------------------------------------------------------------------------------------------
# what can be done


def spell_cost(g: Game, seat: int, i: int) -> int:
    """Power spell ``i`` costs the seat, after its faction's discount (R75)."""
    return _spell_costs(g.tab.ruleset, g.tab.players, g.state.players.item(seat, P_FACTION))[i]


def book_slots(g: Game) -> list[tuple[int, int]]:
    """(slot, book action id) of the book actions in this game (R8)."""
    return [(slot, int(k)) for slot, k in enumerate(g.state.glob[G_BOOK_ACTIONS])]


def scholar_space(g: Game, d: int, form: int) -> int:
    """Index of a free scholar space (form 0: the "3" space, 1: a "2" space), -1 if none."""
    spaces = g.state.glob[G_SCHOLAR_SPACES]
    candidates = (d * 4,) if form == 0 else (d * 4 + 1, d * 4 + 2, d * 4 + 3)
    for i in candidates:
        if spaces[i] == -1:
            return i
    return -1


@functools.cache
def _spell_costs(ruleset: str, players: int, faction: int) -> tuple[int, ...]:
    """The power each spell costs the faction, its discount included (Illusionists, R92)."""
    tab = tables(ruleset, players)
    discount = tab.faction_flags[faction]["spell_discount"]
    return tuple(max(0, cost - discount) for cost in tab.spell_cost)


@functools.lru_cache(maxsize=4096)
def _scholar_ids(spaces: bytes) -> tuple[int, ...]:
    """The scholar action ids open on these scholar spaces (``glob[G_SCHOLAR_SPACES]`` as bytes,
    R47, R74): per discipline the "3" space if free, a "2" space if one is free, and form 2 always;
    cached by the spaces' bytes (issue 10: MAIN legality asks at every turn, and a game sees only
    a few dozen patterns)."""
    free = [v == -1 for v in memoryview(spaces).cast("i").tolist()]
    out = []
    for d in range(4):
        for form in range(3):  # scholar_space: form 0 the "3" space, form 1 a free "2" space
            if form == 2 or (free[d * 4] if form == 0 else any(free[d * 4 + 1 : d * 4 + 4])):
                out.append(SCHOLAR_BASE + d * 3 + form)
    return tuple(out)


def main_actions(g: Game, seat: int, pl: list[int] | None = None) -> list[int]:
    """Every action id whose main effect can be carried out now (R59, OP-58); ``pl``: the seat's
    player row as plain ints, when the caller has it."""
    s = g.state
    if pl is None:
        pl = s.players[seat].tolist()  # plain ints: numpy scalar reads dominate otherwise (issue 10)
    tab = g.tab
    out = [A_PASS]
    if terraform.has_tb_target(g, seat, 0, TB_BUY | TB_BUILD, pl):
        out.append(A_BUILD)
    for new in upgradable(g, seat, pl):
        out.append(BUILDING_BASE - 1 + new)
    sail_max, sail_coins, sail_tools, sail_scholars, dig_max, dig_coins, dig_tools, dig_scholars = tracks.limits()[
        pl[P_BOARD]
    ]  # below the top of the track and a step affordable (R71, R72)
    coins, tools, scholars = pl[P_COINS], pl[P_TOOLS], pl[P_SCHOLARS]
    if pl[P_SAILING] < sail_max and coins >= sail_coins and tools >= sail_tools and scholars >= sail_scholars:
        out.append(A_SAIL)
    if pl[P_TERRAFORMING] < dig_max and coins >= dig_coins and tools >= dig_tools and scholars >= dig_scholars:
        out.append(A_DIG)
    if affordable_innovations(g, seat, pl):
        out.append(A_INNOVATE)
    if scholars > 0:
        out.extend(_scholar_ids(s.glob_ints[G_SCHOLAR_SPACES].tobytes()))
    power3 = pl[III]
    spell_costs = _spell_costs(tab.ruleset, tab.players, pl[P_FACTION])
    if power3 >= min(spell_costs):  # else no spell is payable: skip the look at each (issue 10)
        for i, (used, cost) in enumerate(zip(s.glob_ints[G_SPELLS_USED].tolist(), spell_costs, strict=True)):
            if not used and power3 >= cost and effects.feasible(g, seat, tab.spell_effect[i], pl):
                out.append(SPELL_BASE + i)
    books = sum(pl[P_BOOKS])
    if books >= min(tab.book_cost):  # likewise for the book actions
        books_used = s.glob_ints[G_BOOKS_USED].tolist()
        for slot, k in enumerate(s.glob_ints[G_BOOK_ACTIONS].tolist()):  # book_slots
            if not books_used[slot] and books >= tab.book_cost[k] and effects.feasible(g, seat, tab.book_effect[k], pl):
                out.append(BOOK_BASE + k)
    for sp, gain in _unused_specials(g, pl):
        if effects.feasible(g, seat, gain, pl):
            out.append(SPECIAL_BASE + sp)
    bridge_action = tab.faction_flags[pl[P_FACTION]]["bridge_action"]  # R95: {tools: n} for the Moles
    if (
        bridge_action
        and pl[P_TOOLS] >= bridge_action["tools"]
        and pl[P_BRIDGES] < g.data.raw["bridges_per_player"]
        and g.free_bridge_spots(seat, moles=True)
    ):
        out.append(A_MOLES_BRIDGE)
    if pl[P_PAVILIONS] > 0 and pavilion_targets(g, seat):
        out.append(A_PAVILION)
    return out


# --------------------------------------------------------------------------------------------
# MAIN and POST


def describe_turn(g: Game, row: Row, a: int) -> str:
    """Notation of a MAIN or POST id (docs/notation.md)."""
    if a == DONE:
        return "done"
    if CONVERT_BASE <= a < CONVERT_BASE + NUM_CONVERSIONS:
        return f"convert {CONVERT_WORDS[a - CONVERT_BASE]}"
    if ACTION_BASE <= a < ACTION_BASE + len(ACTION_WORDS):
        return ACTION_WORDS[a - ACTION_BASE]
    if BUILDING_BASE <= a < BUILDING_END:
        return f"upgrade {Building(a - BUILDING_BASE + 1).name.lower()}"
    if SCHOLAR_BASE <= a < SCHOLAR_END:
        d, form = divmod(a - SCHOLAR_BASE, 3)
        return f"scholar {DISC_NAMES[d]} {SCHOLAR_FORMS[form]}"
    if SPELL_BASE <= a < SPELL_END:
        return f"spell {g.data.spell_ids[a - SPELL_BASE]}"
    if BOOK_BASE <= a < BOOK_END:
        return f"book {g.data.book_action_ids[a - BOOK_BASE]}"
    if SPECIAL_BASE <= a < SPECIAL_BASE + len(SPECIAL_WORDS):
        return f"special {SPECIAL_WORDS[a - SPECIAL_BASE]}"
    raise ValueError(f"action {a} has no meaning in a turn")


@decision(Kind.MAIN, describe_turn)
def _main_legal(g: Game, row: Row) -> list[int]:
    seat = row[1]
    pl = g.state.players[seat].tolist()
    return conversions(pl) + main_actions(g, seat, pl)


@applies(Kind.MAIN)
def _main_apply(g: Game, row: Row, a: int) -> None:
    seat = row[1]
    s = g.state
    p = s.player_ints(seat)  # single fields only: Python ints (issue 10)
    if CONVERT_BASE <= a < CONVERT_BASE + NUM_CONVERSIONS:
        convert(p, a - CONVERT_BASE)
        pending.push(s, _MAIN, seat, row[2])
        return
    if a == A_PASS:  # Pass is an action too: conversions may follow it (R79)
        pending.push(s, _END_ACTION, seat, 1, *convertible(p))
        do_pass(g, seat)
        return
    if a == SPECIAL_BASE + SP_FACTION and "second_action" in (special_gain(g, seat, SP_FACTION) or {}):
        p[P_SPECIALS_USED] |= 1 << SP_FACTION  # Psychics: 5 power, then a second action (R100)
        effects.gain(g, seat, g.tab.faction_special[int(p[P_FACTION])])
        return
    pending.push(s, _END_ACTION, seat)
    do_action(g, seat, a)


def do_action(g: Game, seat: int, a: int) -> None:
    """Start the MAIN action ``a``: pay what is paid up front and push the decisions it needs."""
    s = g.state
    p = s.player_ints(seat)  # single fields only: Python ints (issue 10)
    if a == A_BUILD:
        pending.push(s, Kind.TB_TARGET, seat, 0, TB_BUY | TB_BUILD)
    elif BUILDING_BASE <= a < BUILDING_END:
        pending.push(s, Kind.UPGRADE_TARGET, seat, a - BUILDING_BASE + 1, UP_ACTION)
    elif a in (A_SAIL, A_DIG):
        track = "sail" if a == A_SAIL else "dig"
        tracks.pay(g, seat, track)
        tracks.advance(g, seat, track)
    elif a == A_INNOVATE:
        pending.push(s, Kind.CHOOSE_INNOVATION, seat)
    elif SCHOLAR_BASE <= a < SCHOLAR_END:
        send_scholar(g, seat, *divmod(a - SCHOLAR_BASE, 3))
    elif SPELL_BASE <= a < SPELL_END:
        i = a - SPELL_BASE
        power.spend(p, spell_cost(g, seat, i))
        s.glob_ints[G_SPELLS_USED.start + i] = 1
        effects.fire(g, seat, "spell")  # Illusionists (R92)
        effects.gain(g, seat, g.tab.spell_effect[i])
    elif BOOK_BASE <= a < BOOK_END:
        k = a - BOOK_BASE
        slot = [sl for sl, kk in book_slots(g) if kk == k][0]
        s.glob[G_BOOKS_USED.start + slot] = 1
        pending.push(s, Kind.GAIN, seat, SRC_BOOK, k, PART_EFFECT, 1)  # the effect after paying
        pending.push(s, Kind.PAY_BOOKS, seat, g.tab.book_cost[k])
    elif SPECIAL_BASE <= a < SPECIAL_BASE + len(SPECIAL_WORDS):
        sp = a - SPECIAL_BASE
        gain = special_gain(g, seat, sp)
        p[P_SPECIALS_USED] |= 1 << sp
        effects.gain(g, seat, gain or {})
    elif a == A_MOLES_BRIDGE:
        p[P_TOOLS] -= g.tab.faction_flags[int(p[P_FACTION])]["bridge_action"]["tools"]  # R95
        pending.push(s, Kind.BRIDGE_END, seat, BR_MOLES, 1)
    elif a == A_PAVILION:
        pending.push(s, Kind.PAVILION_TARGET, seat)
    else:
        raise ValueError(f"unknown action {a}")


def send_scholar(g: Game, seat: int, d: int, form: int) -> None:
    """R74: a scholar onto a free 3/2 space (stays there), or back to the supply for 1 step."""
    s = g.state
    p = s.players[seat]
    p[P_SCHOLARS] -= 1
    if form == 2:
        p[P_SCHOLAR_SUPPLY] += 1
        steps = g.data.raw["science"]["return_scholar_steps"]
    else:
        space = scholar_space(g, d, form)
        s.glob[G_SCHOLAR_SPACES.start + space] = seat
        steps = g.data.raw["science"]["scholar_spaces"][space % 4]
    effects.fire(g, seat, "send_scholar")  # B2, C9 (OP-55: even if steps are lost)
    science.advance(g, seat, d, steps)


def do_pass(g: Game, seat: int) -> None:
    """R78: pass effects, then (rounds 1-5) a new round bonus tile; passing order = next order.
    VP counted from discipline levels (C12) wait for the other parts' steps (B8; ``pass_gains``)."""
    s = g.state
    glob = s.glob_ints  # Python ints (issue 10)
    s.player_ints(seat)[P_PASSED] = 1
    n = glob[G_NEXT_COUNT]
    glob[G_NEXT_ORDER.start + n] = seat
    glob[G_NEXT_COUNT] = n + 1
    if glob[G_ROUND] < ROUNDS:
        pending.push(s, Kind.PASS_BONUS, seat)
    parts = pass_gains(g, seat)
    for src, ident, gain in parts:  # pushed first, so they resolve after the other parts' steps
        if effects.reads_science(gain):
            pending.push(s, Kind.GAIN, seat, src, ident, PART_PASS, 1)
    for _src, _ident, gain in parts:
        if not effects.reads_science(gain):
            effects.gain(g, seat, gain)


def pass_gains(g: Game, seat: int) -> list[tuple[int, int, dict]]:
    """The seat's pass parts as (source, id, gain) (R78.1).  The player orders them; the only
    order that matters is scoring VP by discipline levels (C12) before or after the steps of
    another part (B8), and after is never worse, so ``do_pass`` resolves them in that order."""
    p = g.state.players[seat]
    tab = g.tab
    out = []
    b = int(p[P_BONUS])
    if b >= 0 and tab.bonus_pass[b]:
        out.append((SRC_BONUS, b, tab.bonus_pass[b]))
    for t in p[P_INNOVATIONS].tolist():
        if t >= 0 and tab.innovation_pass[t]:
            out.append((SRC_INNOVATION, t, tab.innovation_pass[t]))
    tile = int(p[P_PALACE_TILE])
    if tile >= 0 and tab.palace_pass[tile]:
        out.append((SRC_PALACE, tile, tab.palace_pass[tile]))
    comps = int(p[P_COMPETENCIES])
    for c in range(NUM_COMPETENCIES):
        if comps >> c & 1 and tab.competency_pass[c]:
            out.append((SRC_COMPETENCY, c, tab.competency_pass[c]))
    return out


@decision(Kind.POST, describe_turn)
def _post_legal(g: Game, row: Row) -> list[int]:
    return [*conversions(g.state.player_ints(row[1])), DONE]


@applies(Kind.POST)
def _post_apply(g: Game, row: Row, a: int) -> None:
    seat = row[1]
    if a != DONE:
        convert(g.state.player_ints(seat), a - CONVERT_BASE)
        pending.push(g.state, _POST, seat)


def convertible(player: PlayerRow) -> tuple[int, int, int, int, int]:
    """What the conversions of R79 spend: bowls II (burn) and III, tools, scholars, books."""
    row = player.tolist()  # one conversion instead of five numpy reads (issue 10)
    return row[II], row[III], row[P_TOOLS], row[P_SCHOLARS], sum(row[P_BOOKS])


@automatic(Kind.END_ACTION)
def _end_action(g: Game, row: Row) -> None:
    """Open ``POST``; after a Pass (p0 = 1, p1..p5 = ``convertible`` before it) only if the pass
    increased one of those (see the module docstring)."""
    seat = row[1]
    if row[2] == 1:
        before = list(row[3:8])
        if not any(now > was for now, was in zip(convertible(g.state.players[seat]), before, strict=True)):
            return
    pending.push(g.state, _POST, seat)
