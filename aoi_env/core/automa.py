"""The official solo Automa as an engine-level opponent (AUTOMA.md; issue 6).

An Automa seat has no resources and never makes a decision: on its turn the engine draws from its
card deck (§4.3), turns the action card and the support card into a list of steps (§4.4) and
resolves them with the tie-breakers of §5, choosing hexes by the interpretations of §10 (each is
documented in docs/automa.md).  Its builds are normal builds for everybody else: humans next to
them get power offers (R42), its buildings block hexes and count for reach, area scoring and
science majorities.  It founds no cities and takes no palace tiles, competencies or innovation
effects (§10 #26, #27, §11).

Per-Automa state lives in ``glob[G_AUTOMA]`` (see ``AUTOMA_LAYOUT``); the deck is an array whose
index 0 is the top card.
"""

from __future__ import annotations

import functools
import struct
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import yaml

from aoi_env.core import pending
from aoi_env.core.board import _cube
from aoi_env.core.pending import Kind
from aoi_env.core.rules import buildings, science
from aoi_env.core.rules.terrain import empty_land_bits, owned_positions, positions, reach_table_bits
from aoi_env.core.state import AUTOMA_FIELDS as STATE_AUTOMA_FIELDS
from aoi_env.core.state import (
    G_AUTOMA,
    G_BOOKS_USED,
    G_FINAL_TILE,
    G_INNOV_OWNER,
    G_INNOV_SPACES,
    G_NEXT_COUNT,
    G_NEXT_ORDER,
    G_ROUND,
    G_ROUND_TILES,
    G_SCHOLAR_SPACES,
    G_SPELLS_USED,
    H_BUILDING,
    H_MARK,
    H_OWNER,
    H_TERRAIN,
    P_BOARD,
    P_INNOVATIONS,
    P_PASSED,
    P_SAILING,
    P_SCHOLAR_SUPPLY,
    P_SCIENCE,
    P_VP,
    PLAYER_FIELDS,
    bonus_row,
)
from aoi_env.data import DATA_DIR, INNOVATIONS_PER_PLAYER, NUM_POSITIONS, ROUNDS, DataError
from aoi_env.data.enums import Building, Terrain

if TYPE_CHECKING:
    from aoi_env.core.engine import Game

DISC_KEYS = ("banking", "law", "engineering", "medicine")
TERRAIN_KEYS = tuple(t.name.lower() for t in Terrain)[:7]
NUM_CARDS = 14
_AUTOMA_STEP = int(Kind.AUTOMA_STEP)  # an IntEnum member costs ~100 ns a look-up on Python 3.11 (issue 10)

# step codes of the AUTOMA_STEP continuation (p0)
TB, TB_ANYWHERE, UPGRADE, BLOCK, SCHOLAR, ADVANCE, INNOVATION, VP, PM_ADVANCE = range(1, 10)
STEP_NAMES = {
    TB: "terraform & build",
    TB_ANYWHERE: "terraform & build anywhere",
    UPGRADE: "upgrade",
    BLOCK: "block",
    SCHOLAR: "scholar",
    ADVANCE: "advance",
    INNOVATION: "innovation",
    VP: "victory points",
    PM_ADVANCE: "advance (Powermongers)",
}
"""Captions of the step codes (replays, ``aoi play``; AUTOMA.md §5)."""
FACTION_FLAG = 1  # p4: the step came from the Faction action (§4.4.1: faction tie-breakers)

# Printed card actions and Faction-action parts that are one step each: (code, value) (§4.4, §2.5).
# "faction", "innovation" (round 3 on) and "vp" (a number or DL) are built in ``build_steps``.
PRINTED_STEPS = {
    "tb": (TB, 0),
    "upgrade": (UPGRADE, 0),
    "block": (BLOCK, 0),
    "scholar": (SCHOLAR, 0),
    "advance": (ADVANCE, 1),
}
FACTION_STEPS = {"tb": (TB, 0), "tb_anywhere": (TB_ANYWHERE, 0), "advance2": (ADVANCE, 2)}
CARD_ACTIONS = frozenset({*PRINTED_STEPS, "faction", "innovation", "vp"})
FACTION_ACTIONS = frozenset({*FACTION_STEPS, "vp"})
TIE_BREAKERS = frozenset({"atp", "human_atp", "closest", "most_power", "direction"})  # §5.1, §7


# ------------------------------------------------------------------------------------------------
# data


@dataclass(frozen=True)
class Card:
    number: int
    starter: bool
    actions: tuple[str, ...]
    vp: int | str | None  # a number, "DL" or None
    pass_icon: bool
    structure: str  # M MR U UR
    atp: str  # A B
    direction: str  # RD LU
    count: int
    science: str  # SCORE CATCH
    bonus: int  # 0 left, 1 middle, 2 right
    setup: tuple[str, str]


@dataclass(frozen=True)
class AutomaData:
    cards: dict[int, Card]
    levels: dict[int, dict[str, Any]]
    round_tiles: dict[str, dict[str, Any]]  # by RULES id (T1..T12)
    final_tiles: dict[str, dict[str, Any]]  # by RULES id (F1..F4)
    atp_wheel: tuple[str, ...]
    atp_offsets: dict[str, tuple[int, ...]]
    factions: dict[str, dict[str, Any]]
    faction_names: tuple[str, ...]
    unsupported: tuple[str, ...]
    initial_workshops: dict[str, dict[str, dict[str, tuple[int, int]]]]


def _fail(where: str, what: str, got: Any) -> None:
    raise DataError(f"automa.yaml: {where}: {what}, got {got!r}")


def check_automa_yaml(raw: dict[str, Any]) -> None:
    """Every name in automa.yaml is one the Automa's code acts on: a misspelt step or tie-breaker
    would otherwise be skipped in silence (``build_steps`` and ``pick_hex`` ignore what they do not know)."""
    if raw.get("schema_version") != 1:
        _fail("schema_version", "expected 1", raw.get("schema_version"))
    letters = set(raw["initial_workshops"]["1-3"])
    for n, c in raw["cards"].items():
        where = f"cards.{n}"
        fields = {"starter", "actions", "vp", "pass", "structure", "atp", "dir", "count", "science", "bonus", "setup"}
        if set(c) - fields or set(c) | {"vp"} != fields:
            _fail(where, f"expected the fields {sorted(fields)} (vp only with a vp action)", sorted(c))
        if not c["actions"] or set(c["actions"]) - CARD_ACTIONS:
            _fail(f"{where}.actions", f"expected some of {sorted(CARD_ACTIONS)}", c["actions"])
        if ("vp" in c["actions"]) != ("vp" in c) or not (
            c.get("vp") is None or c["vp"] == "DL" or type(c["vp"]) is int
        ):
            _fail(f"{where}.vp", "a number or DL exactly when the card has a vp action", c.get("vp"))
        for key, valid in (("structure", ("M", "MR", "U", "UR")), ("atp", ("A", "B")), ("dir", ("RD", "LU")),
                           ("science", ("SCORE", "CATCH")), ("bonus", ("left", "middle", "right"))):  # fmt: skip
            if c[key] not in valid:
                _fail(f"{where}.{key}", f"expected one of {', '.join(valid)}", c[key])
        if type(c["count"]) is not int or c["count"] < 1:
            _fail(f"{where}.count", "expected a positive number", c["count"])
        if len(c["setup"]) != 2 or not set(c["setup"]) <= letters:
            _fail(f"{where}.setup", f"expected two of the letters {sorted(letters)}", c["setup"])
    for name, f in raw["factions"].items():
        where = f"factions.{name}"
        fields = {"steps", "faction_action", "vp_modifier", "tie_breakers", "double_pass_vp_if_first",
                  "end_vp_per_building", "advance_after_build_power"}  # fmt: skip
        if set(f) - fields:
            _fail(where, f"unknown field(s); valid: {sorted(fields)}", sorted(set(f) - fields))
        if set(f["steps"]) - set(DISC_KEYS):
            _fail(f"{where}.steps", f"expected disciplines {list(DISC_KEYS)}", f["steps"])
        if not f["faction_action"] or set(f["faction_action"]) - FACTION_ACTIONS:
            _fail(f"{where}.faction_action", f"expected some of {sorted(FACTION_ACTIONS)}", f["faction_action"])
        if ("vp" in f["faction_action"]) != ("vp_modifier" in f):
            _fail(
                f"{where}.vp_modifier", "expected exactly when the Faction action has a vp step", f.get("vp_modifier")
            )
        if set(f.get("tie_breakers", ())) - TIE_BREAKERS:
            _fail(f"{where}.tie_breakers", f"expected some of {sorted(TIE_BREAKERS)}", f["tie_breakers"])
    for tiles, ids in (
        ("round_tiles", {f"T{i}" for i in range(1, 13)}),
        ("final_tiles", {f"F{i}" for i in range(1, 5)}),
    ):
        if set(raw[tiles]) != ids:
            _fail(tiles, f"expected the tiles {sorted(ids)}", sorted(raw[tiles]))
        for tid, row in raw[tiles].items():
            if row["discipline"] not in DISC_KEYS:
                _fail(f"{tiles}.{tid}.discipline", f"expected one of {list(DISC_KEYS)}", row["discipline"])
    if sorted(raw["atp_wheel"]) != sorted(TERRAIN_KEYS):
        _fail("atp_wheel", "expected the 7 terrains", raw["atp_wheel"])
    for side, table in raw["initial_workshops"].items():
        for letter, row in table.items():
            if set(row) != set(TERRAIN_KEYS):
                _fail(f"initial_workshops.{side}.{letter}", "expected a hex for each of the 7 terrains", sorted(row))


@functools.cache
def automa_data() -> AutomaData:
    with open(DATA_DIR / "automa.yaml", encoding="utf-8") as fh:
        raw = yaml.safe_load(fh)
    check_automa_yaml(raw)
    cards = {}
    for n, c in raw["cards"].items():
        cards[int(n)] = Card(
            number=int(n),
            starter=bool(c["starter"]),
            actions=tuple(c["actions"]),
            vp=c.get("vp"),
            pass_icon=bool(c["pass"]),
            structure=c["structure"],
            atp=c["atp"],
            direction=c["dir"],
            count=int(c["count"]),
            science=c["science"],
            bonus=("left", "middle", "right").index(c["bonus"]),
            setup=tuple(c["setup"]),  # type: ignore[arg-type]
        )
    if sorted(cards) != list(range(1, NUM_CARDS + 1)):
        raise ValueError("automa.yaml: expected cards 1..14")
    return AutomaData(
        cards=cards,
        levels={int(k): v for k, v in raw["levels"].items()},
        round_tiles=raw["round_tiles"],
        final_tiles=raw["final_tiles"],
        atp_wheel=tuple(raw["atp_wheel"]),
        atp_offsets={k: tuple(v) for k, v in raw["atp_offsets"].items()},
        factions=raw["factions"],
        faction_names=tuple(raw["factions"]),
        unsupported=tuple(raw["unsupported_factions"]),
        initial_workshops={
            side: {letter: {t: tuple(rc) for t, rc in row.items()} for letter, row in tab.items()}
            for side, tab in raw["initial_workshops"].items()
        },
    )


class SpecShapeError(ValueError):
    """An Automa spec that is not ``faction:level[:terrain]`` at all (callers name their own forms)."""


def parse_spec(spec: str) -> tuple[str, int, str | None]:
    """``faction:level[:terrain]`` (e.g. ``simpletons:3`` or ``druids:5:lake``) -> parts, validated."""
    data = automa_data()
    parts = [p.strip().lower() for p in str(spec).split(":")]
    if not 2 <= len(parts) <= 3:
        raise SpecShapeError(f"bad automa spec {spec!r}: expected faction:level[:terrain], e.g. simpletons:3")
    faction, level_txt = parts[0], parts[1]
    if faction in data.unsupported:
        raise ValueError(
            f"Automa faction {faction!r} is not supported: its faction card is not in any available source "
            f"(see docs/automa.md); valid: {', '.join(data.faction_names)}"
        )
    if faction not in data.factions:
        raise ValueError(f"unknown Automa faction {faction!r}; valid: {', '.join(data.faction_names)}")
    if not (level_txt.isascii() and level_txt.isdigit()) or int(level_txt) not in data.levels:  # '²' is a digit
        raise ValueError(f"Automa level must be 1..5, got {level_txt!r}")
    terrain = parts[2] if len(parts) == 3 else None
    if terrain is not None and terrain not in TERRAIN_KEYS:
        raise ValueError(f"unknown Automa terrain {terrain!r}; valid: {', '.join(TERRAIN_KEYS)}")
    return faction, int(level_txt), terrain


# ------------------------------------------------------------------------------------------------
# per-Automa state in glob[G_AUTOMA]


class _Layout:
    def __init__(self) -> None:
        self.size = 0

    def add(self, n: int = 1) -> Any:
        v: int | slice = self.size if n == 1 else slice(self.size, self.size + n)
        self.size += n
        return v


_a = _Layout()
A_SEAT = _a.add()
A_LEVEL = _a.add()
A_FACTION = _a.add()  # index into automa_data().faction_names
A_DECK = _a.add(NUM_CARDS)  # card numbers, index 0 = top
A_DECK_LEN = _a.add()
A_RESERVE = _a.add(NUM_CARDS)
A_RESERVE_LEN = _a.add()
A_DISCARD = _a.add(NUM_CARDS)  # index 0 = top
A_DISCARD_LEN = _a.add()
A_SUPPORT = _a.add()  # support card of the current turn
A_LAST_OFFER = _a.add()  # most power offered to one human by her last build (Powermongers, §10 #13)
A_SETUP_CARD = _a.add()  # the card whose setup letters place her initial Workshops (§3.6)
A_UNSEEN = _a.add()  # bit c - 1: card c is in her deck and no player has seen it (``unseen_cards``)
AUTOMA_FIELDS = _a.size
MAX_AUTOMA = 2
assert AUTOMA_FIELDS == STATE_AUTOMA_FIELDS, "update AUTOMA_FIELDS in state.py"


def record(g: Game, seat: int) -> np.ndarray:
    """The writable per-Automa record of ``seat`` (a view into glob)."""
    start = _record_start(g, seat)
    return g.state.glob[start : start + AUTOMA_FIELDS]


_PACK_RECORD = struct.Struct(f"={AUTOMA_FIELDS}i").pack_into
"""``_PACK_RECORD(state.glob_ints, start * 4, *values)`` writes a whole record in one C call (a
numpy slice assignment from a list converts every int: ~16,000 instructions; issue 10)."""


def record_values(g: Game, seat: int) -> list[int]:
    """``record(g, seat)`` as plain ints (a copy): for readers of several fields, e.g. the
    observation at every decision of a solo game (issue 10: no numpy scalars)."""
    start = _record_start(g, seat)
    return g.state.glob_ints[start : start + AUTOMA_FIELDS].tolist()


def _record_start(g: Game, seat: int) -> int:
    """Where the record of Automa ``seat`` starts in glob (read as Python ints, issue 10)."""
    glob = g.state.glob_ints
    for start in range(G_AUTOMA.start, G_AUTOMA.start + MAX_AUTOMA * AUTOMA_FIELDS, AUTOMA_FIELDS):
        if glob[start + A_SEAT] == seat and glob[start + A_LEVEL] > 0:
            return start
    raise KeyError(f"seat {seat} is not an Automa")


def _pile(rec: np.ndarray, field: slice, length: int) -> list[int]:
    return rec[field][: rec[length]].tolist()


def _store(rec: np.ndarray | list[int], field: slice, length: int, cards: list[int]) -> None:
    """Write a pile (its cards, then zeros) and its length into a record or its ``record_values``."""
    rec[field] = [*cards, *[0] * (field.stop - field.start - len(cards))]
    rec[length] = len(cards)


def card_bits(cards: list[int]) -> int:
    """The cards as a bit set (bit c - 1 for card c), the form of ``A_UNSEEN``."""
    return sum(1 << (c - 1) for c in set(cards))


def unseen_cards(rec: np.ndarray) -> list[int]:
    """The cards in her face-down deck that no player has seen, in card order: the extra reserve
    cards of §3.5 step 2 and each reserve card that joined the deck (§4.6 step 2) until drawn or
    looked at as her action card (§4.3).  Every other card in her deck is known to be there: the
    starter cards, level 5's card 13, level 1's *3 and every card once drawn (the round's cards
    all come back, §4.6).  ``hidden.resample`` swaps only these with her face-down reserve."""
    bits = int(rec[A_UNSEEN])
    return [c for c in range(1, NUM_CARDS + 1) if bits >> (c - 1) & 1]


def unseen_at_start(level: int, deck: list[int]) -> list[int]:
    """§3.5 step 2: the deck's random reserve cards (not the starters, not level 5's card 13)."""
    data = automa_data()
    forced = data.levels[level]["forced"]
    return [c for c in deck if not data.cards[c].starter and c != forced]


def card_label(card: int) -> str:
    """A card as AUTOMA.md writes it: ``*2`` for a starter card, ``11`` for an advanced one."""
    return f"*{card}" if automa_data().cards[card].starter else str(card)


def support_card(rec: np.ndarray) -> int:
    """This round's support card, face up on top of her discard pile (§4.3), else 0 (the pile is
    shuffled into the new deck before every round, §4.6)."""
    return int(rec[A_DISCARD.start]) if rec[A_DISCARD_LEN] > 0 else 0


def open_action_card(rec: np.ndarray) -> int:
    """Her action card on top of her deck once she has drawn this round, else 0: §4.3 looks at it
    after each draw (so everyone knows her next support card), and the deck is reshuffled with
    an empty discard pile before every round (§4.6)."""
    return int(rec[A_DECK.start]) if rec[A_DISCARD_LEN] > 0 and rec[A_DECK_LEN] > 0 else 0


def faction_of(g: Game, seat: int) -> str:
    return automa_data().faction_names[g.state.glob_ints[_record_start(g, seat) + A_FACTION]]


def level_of(g: Game, seat: int) -> int:
    return g.state.glob_ints[_record_start(g, seat) + A_LEVEL]


# ------------------------------------------------------------------------------------------------
# the deck (§3.5, §4.3, §4.6)


def new_deck(level: int, rng: np.random.Generator) -> tuple[list[int], list[int]]:
    """(deck, reserve) at the start of the game for a difficulty level (§3.5)."""
    data = automa_data()
    lv = data.levels[level]
    deck = [int(c) for c in rng.permutation([n for n, c in data.cards.items() if c.starter])]
    reserve = [int(c) for c in rng.permutation([n for n, c in data.cards.items() if not c.starter])]
    if lv["forced"] is not None:
        reserve.remove(int(lv["forced"]))
        deck.append(int(lv["forced"]))
    for _ in range(int(lv["extra"])):
        deck.append(reserve.pop(int(rng.integers(len(reserve)))))
    deck = [deck[int(i)] for i in rng.permutation(len(deck))]
    reserve = [reserve[int(i)] for i in rng.permutation(len(reserve))]
    if lv["to_reserve_top"] is not None:
        card = int(lv["to_reserve_top"])
        deck.remove(card)
        reserve.insert(0, card)
    return deck, reserve


def is_pass(deck_after_draw: list[int]) -> bool:
    """§4.3.2: pass when no action card is left, or <= 2 cards remain and the action card shows the icon."""
    if not deck_after_draw:
        return True
    return len(deck_after_draw) <= 2 and automa_data().cards[deck_after_draw[0]].pass_icon


def next_round_deck(deck: list[int], reserve: list[int], discard: list[int], rng: np.random.Generator) -> tuple:
    """§4.6: deck rest + the reserve's top card join the discard pile, which is shuffled into the deck."""
    pool = discard + deck
    if reserve:
        pool.append(reserve[0])
        reserve = reserve[1:]
    return [pool[int(i)] for i in rng.permutation(len(pool))], reserve, []


# ------------------------------------------------------------------------------------------------
# building the step list (§4.4)


def dl_vp(level: int, rnd: int) -> int:
    return int(automa_data().levels[level]["dl_vp"][rnd - 1])


def build_steps(action: int, support: int, rnd: int, faction: str, level: int) -> list[tuple[int, int, int]]:
    """The steps of an Automa turn as (code, value, flags) in order (§4.4)."""
    return list(_steps(action, rnd, faction, level))


@functools.cache
def _steps(action: int, rnd: int, faction: str, level: int) -> tuple[tuple[int, int, int], ...]:
    """``build_steps``, memoised: it reads only the card data (issue 10: once per Automa turn)."""
    data = automa_data()
    card = data.cards[action]
    fdata = data.factions[faction]
    powermonger = "advance_after_build_power" in fdata
    steps: list[tuple[int, int, int]] = []
    for printed in card.actions:
        part: list[tuple[int, int, int]] = []
        if printed == "faction":
            for sub in fdata["faction_action"]:
                if sub == "vp":
                    part.append((VP, max(dl_vp(level, rnd) + int(fdata.get("vp_modifier", 0)), 0), FACTION_FLAG))
                else:
                    part.append((*FACTION_STEPS[sub], FACTION_FLAG))
        elif printed in PRINTED_STEPS:
            part.append((*PRINTED_STEPS[printed], 0))
        elif printed == "innovation":
            if rnd >= 3:  # §4.4.5: only from round 3 on
                part.append((INNOVATION, 0, 0))
        elif printed == "vp":
            vp = dl_vp(level, rnd) if card.vp == "DL" else int(card.vp or 0)
            part.append((VP, vp, 0))
        if powermonger:  # §4.4.2: after the first T&B or Upgrade of each printed action
            for i, (code, _, _) in enumerate(part):
                if code in (TB, TB_ANYWHERE, UPGRADE):
                    part.insert(i + 1, (PM_ADVANCE, 1, 0))
                    break
        steps.extend(part)
    return tuple(s for s in steps if not (s[0] == VP and s[1] <= 0))


# ------------------------------------------------------------------------------------------------
# selection helpers (§5.1, §10)


@functools.cache
def _cube_distance() -> np.ndarray:
    """Hex-grid distance between every two grid positions (§10 #4: every hex step counts)."""
    cubes = np.array([_cube(p) for p in range(NUM_POSITIONS)])
    diff = np.abs(cubes[:, None, :] - cubes[None, :, :])
    return diff.max(axis=2).astype(np.int16)


@functools.cache
def _within_bits() -> tuple[tuple[int, ...], ...]:
    """``_cube_distance`` as bit sets: per position, for d = 0, 1, ... up to the largest distance
    on the grid, the positions at most d hexes away (issue 10: the distance from a position to the
    nearest of a set is the first d whose bits meet the set, no numpy indexing)."""
    dist = _cube_distance()
    longest = int(dist.max())
    out = []
    for row in dist.tolist():
        within = [0] * (longest + 1)
        for q, d in enumerate(row):
            within[d] |= 1 << q
        for d in range(1, longest + 1):
            within[d] |= within[d - 1]
        out.append(tuple(within))
    return tuple(out)


def _nearest(pos: int, targets: int) -> int:
    """Hex distance from ``pos`` to the nearest position in the bit set ``targets`` (not empty)."""
    for d, within in enumerate(_within_bits()[pos]):
        if within & targets:
            return d
    raise ValueError("no target positions")


def directional(options: list[int], direction: str, count: int) -> int:
    """§5.1 / §10 #1: RD = reading order, LU = its reverse; take the n-th, wrapping around."""
    order = sorted(options)
    return order[reading_index(len(order), direction, count)]


def reading_index(k: int, direction: str, count: int) -> int:
    """Index of the n-th of ``k`` options listed in reading order: RD from the front, LU from
    the back, wrapping around (§10 #1)."""
    i = (count - 1) % k
    return i if direction == "RD" else k - 1 - i


def innovation_reading_order(g: Game) -> list[int]:
    """Display spaces in reading order (§5.7, §10 #19): the two wide "2/4" spaces lie on top of
    the display (R20: "the two top innovations"), then the column spaces row by row."""
    columns = 4 * g.data.raw["innovation_display"]["rows_per_column"][g.seats]
    return [*range(columns, len(g.innovation_space_cost)), *range(columns)]


@functools.cache
def atp_rank(terrain_key: str, side: str) -> dict[int, int]:
    """Rank (0 = best) of every terrain on the ATP card of ``terrain_key`` (§2.1); memoised, so
    callers must not change it (issue 10: the Automa asks at every build)."""
    data = automa_data()
    wheel = data.atp_wheel
    i = wheel.index(terrain_key)
    order = [wheel[(i + o) % 7] for o in data.atp_offsets[side]]
    return {TERRAIN_KEYS.index(t): r for r, t in enumerate(order)}


def _keep_min(options: list[int], score: dict[int, int] | Any) -> list[int]:
    values = [score(p) for p in options]
    best = min(values)
    return [p for p, v in zip(options, values, strict=True) if v == best]


def humans(g: Game) -> list[int]:
    return [s for s in range(g.seats) if g.is_player(s)]


def _human_bits(g: Game) -> int:
    """The positions of the humans' buildings (neutral ones included) as bits, from the building
    index (issue 10: no mask of the hexes)."""
    out = 0
    for human in humans(g):
        for pos in owned_positions(g, human):
            out |= 1 << pos
    return out


def power_to_humans(g: Game, pos: int) -> int:
    """§5.1 "power you would gain": power values of human buildings adjacent to ``pos`` (§10 #12)."""
    return power_to_humans_everywhere(g)[pos]


def power_to_humans_everywhere(g: Game) -> list[int]:
    """``power_to_humans`` at every position, in one pass over the humans' buildings and their
    neighbours (issue 10: the Automa compares it over all her candidates)."""
    values = buildings.power_values(g).tolist()
    neighbours = g.neighbours()  # adjacency() as lists: each human building adds to its neighbours
    out = [0] * len(neighbours)
    for human in humans(g):
        for pos in owned_positions(g, human):
            for q in neighbours[pos]:
                out[q] += values[pos]
    return out


def closest_to_humans(g: Game, options: list[int]) -> list[int]:
    targets = _human_bits(g)
    if not targets:
        return options
    return _keep_min(options, lambda p: _nearest(p, targets))


def _her_buildings(g: Game, seat: int, marked: bool | None) -> np.ndarray:
    h = g.state.hexes
    mask = (h[:, H_OWNER] == seat) & (h[:, H_BUILDING] > 0)
    if marked is True:
        mask &= h[:, H_MARK] == 1
    elif marked is False:
        mask &= h[:, H_MARK] == 0
    return mask


def _ship(g: Game, seat: int) -> int:
    rnd = min(max(g.state.glob_ints[G_ROUND], 1), 6)
    return int(automa_data().levels[level_of(g, seat)]["ship"][rnd - 1])


def _her_reach(g: Game, sources: list[int], ship: int) -> int:
    """The hexes in Reach of ``sources`` with her ship level, as bits: ``g.geo.reach_from`` without
    bridges (her Reach ignores them, §5.1), from the per-position rows (issue 10)."""
    reach = reach_table_bits(g.geo.name, ship)
    out = 0
    for q in sources:
        out |= reach[q]
    return out


def valid_hexes(g: Game, seat: int, structure: str) -> list[int]:
    """§5.1 structure selection: empty land in Reach of her (un)marked buildings, then Bring together."""
    mark = g.state.hexes[:, H_MARK].tolist()
    mine = owned_positions(g, seat)
    marked_at = [p for p in mine if mark[p] == 1]
    unmarked_at = [p for p in mine if mark[p] == 0]
    ship = _ship(g, seat)
    base = marked_at if structure.startswith("M") else unmarked_at
    options = positions(_her_reach(g, base, ship) & empty_land_bits(g))
    if structure.endswith("R") and options and marked_at and unmarked_at:
        reach = reach_table_bits(g.geo.name, ship)
        unmarked_bits = sum(1 << q for q in unmarked_at)
        if not any(reach[q] & unmarked_bits for q in marked_at):  # Bring together (§10 #5)
            d0 = min(_nearest(p, unmarked_bits) for p in marked_at)  # >= 1: they lie on different hexes
            other = unmarked_bits if structure == "MR" else sum(1 << q for q in marked_at)
            within = _within_bits()
            closer = [p for p in options if within[p][d0 - 1] & other]  # nearer than d0
            if closer:
                options = closer
    return options


def choose_tb_hex(g: Game, seat: int, support: Card, faction_step: bool, anywhere: bool) -> int | None:
    """§5.2 steps 2-3 with the fallbacks of §10 #7; None = nothing to build on."""
    if anywhere:
        options = positions(empty_land_bits(g))
    else:
        options = valid_hexes(g, seat, support.structure)
        if not options:  # §10 #7: widen to the Reach of all her buildings, then anywhere
            area = _her_reach(g, owned_positions(g, seat), _ship(g, seat))
            options = positions(area & empty_land_bits(g)) or positions(empty_land_bits(g))
    if not options:
        return None
    faction = faction_of(g, seat)
    order = automa_data().factions[faction].get("tie_breakers") if faction_step else None
    order = order or ["atp", "closest", "direction"]
    terrain = g.state.hexes[:, H_TERRAIN].tolist()  # plain ints (issue 10)
    for rule in order:
        if len(options) == 1:
            break
        if rule == "atp":
            rank = atp_rank(TERRAIN_KEYS[int(g.state.players[seat, P_BOARD])], support.atp)
            options = _keep_min(options, lambda p, rank=rank: rank[terrain[p]])
        elif rule == "human_atp":  # Kuddlers, Mimics: the humans' ATP cards (§10 #23: best rank)
            ranks = [atp_rank(TERRAIN_KEYS[int(g.state.players[h, P_BOARD])], support.atp) for h in humans(g)]
            options = _keep_min(options, lambda p, ranks=ranks: min(r[terrain[p]] for r in ranks))
        elif rule == "closest":
            options = closest_to_humans(g, options)
        elif rule == "most_power":
            power = power_to_humans_everywhere(g)
            options = _keep_min(options, lambda p, power=power: -power[p])
    return directional(options, support.direction, support.count)


# ------------------------------------------------------------------------------------------------
# resolving the steps (§5)


def _build_done(g: Game, seat: int, pos: int, btype: int) -> None:
    """Offers to the humans as for any build (R42); remember the largest for Powermongers: the
    power offered (§10 #13, accepted or not), which is what the human could gain (R42.5): no
    offer at all when their bowls cannot take any."""
    made = buildings.after_build(g, seat, pos, btype)  # its offers: nothing it does changes a human's bowls
    players = g.state.players
    offered = (buildings.effective_offer(players[other], v) for other, v in made)
    g.state.glob_ints[_record_start(g, seat) + A_LAST_OFFER] = max(offered, default=0)


def resolve_tb(g: Game, seat: int, support: Card, faction_step: bool, anywhere: bool) -> None:
    if buildings.pieces_left(g, seat, Building.WORKSHOP) <= 0:
        resolve_upgrade(g, seat, support)  # §5.2.1
        return
    pos = choose_tb_hex(g, seat, support, faction_step, anywhere)
    if pos is None:
        resolve_upgrade(g, seat, support)  # §10 #7
        return
    g.state.hexes[pos, H_TERRAIN] = g.state.players[seat, P_BOARD]  # free, no spades (§1)
    buildings.place(g, seat, pos, Building.WORKSHOP)
    if support.structure.startswith("M"):
        g.state.hexes[pos, H_MARK] = 1
    _build_done(g, seat, pos, Building.WORKSHOP)


_UPGRADE_TO: dict[int, tuple[int, ...]] = {
    int(Building.WORKSHOP): (int(Building.GUILD),),
    int(Building.GUILD): (int(Building.PALACE), int(Building.SCHOOL)),
    int(Building.SCHOOL): (int(Building.UNIVERSITY),),
}
"""What each building type can become, best first, as plain ints: her upgrade compares building
types in loops, and an IntEnum member costs ~100 ns a look-up on Python 3.11 (issue 10)."""
_WORKSHOP = int(Building.WORKSHOP)


def _target(g: Game, seat: int, btype: int) -> int | None:
    """§5.3.4 / §10 #11: the highest power value building it can legally become."""
    for new in _UPGRADE_TO.get(btype, ()):
        if buildings.pieces_left(g, seat, new) > 0:
            return new
    return None


def upgrade_candidates(g: Game, seat: int) -> list[tuple[int, int]]:
    """(position, new building type) of each building she may upgrade (§5.3, §10 #11): only her
    Workshops next to a human building while she has a Guild left and one is there (§10 #10,
    German text), else all; empty when nothing can be upgraded (§10 #9)."""
    btype = g.state.hexes[:, H_BUILDING].tolist()  # plain ints (issue 10)
    targets = {b: _target(g, seat, b) for b in _UPGRADE_TO}
    upgradable: list[tuple[int, int]] = []
    for p in owned_positions(g, seat):
        new = targets.get(btype[p])
        if new is not None:
            upgradable.append((p, new))
    if buildings.pieces_left(g, seat, Building.GUILD) > 0:
        human, neighbours = _human_bits(g), g.neighbours()  # adjacency() as lists (issue 10)
        near = [
            (p, new) for p, new in upgradable if btype[p] == _WORKSHOP and any(human >> q & 1 for q in neighbours[p])
        ]
        if near:
            return near
    return upgradable


def resolve_upgrade(g: Game, seat: int, support: Card) -> None:
    """§5.3: of the candidates, the least power to the humans (§10 #12), then directional."""
    candidates = dict(upgrade_candidates(g, seat))
    if not candidates:
        return  # §10 #9: nothing to upgrade
    best = _keep_min(list(candidates), power_to_humans_everywhere(g).__getitem__)
    pos = directional(best, support.direction, support.count)
    buildings.replace(g, seat, pos, candidates[pos])
    _build_done(g, seat, pos, candidates[pos])


def resolve_block(g: Game, seat: int, support: Card) -> None:
    """§5.4: an X token on one uncovered spell and one uncovered book action."""
    glob = g.state.glob
    spells = [i for i in range(6) if not glob[G_SPELLS_USED.start + i]]
    if spells:
        glob[G_SPELLS_USED.start + directional(spells, support.direction, support.count)] = 1
    books = [i for i in range(3) if not glob[G_BOOKS_USED.start + i]]
    if books:
        glob[G_BOOKS_USED.start + directional(books, support.direction, support.count)] = 1


def can_advance(g: Game, seat: int, d: int) -> bool:
    """§10 #14: not at 12, not at 11 with 12 taken, not at 7 without a key (she has none)."""
    level = g.state.players_ints[seat * PLAYER_FIELDS + P_SCIENCE.start + d]  # a Python int (issue 10)
    if level >= science.MAX_LEVEL:
        return False
    if level == science.KEY_LEVEL - 1 and science.keys_available(g.state.players[seat]) <= 0:
        return False
    return not (level == science.MAX_LEVEL - 1 and science.top_taken(g, seat, d))


def _science_levels(g: Game, seat: int) -> list[int]:
    """The seat's four science levels as plain ints (issue 10: no numpy scalars or fancy indexing)."""
    start = seat * PLAYER_FIELDS + P_SCIENCE.start
    return g.state.players_ints[start : start + 4].tolist()


def catch_up(g: Game, seat: int, support: Card) -> int | None:
    """§5.1 catch-up: at 0, then closest to the highest human marker, then directional (B, L, E, M)."""
    options = [d for d in range(4) if can_advance(g, seat, d)]
    if not options:
        return None
    levels = _science_levels(g, seat)
    zero = [d for d in options if levels[d] == 0]
    if zero:
        options = zero
    hs = humans(g)
    if len(options) > 1 and hs:
        top = [max(column) for column in zip(*(_science_levels(g, h) for h in hs), strict=True)]
        options = _keep_min(options, lambda d: abs(levels[d] - top[d]))
    return directional(options, support.direction, support.count)


def scoring_discipline(g: Game) -> int:
    """The discipline of the Automa icon on the current round tile (round 6: the final tile)."""
    data = automa_data()
    rnd = int(g.state.glob[G_ROUND])
    if rnd >= ROUNDS:
        key = g.data.final_tile_ids[int(g.state.glob[G_FINAL_TILE])]
        return DISC_KEYS.index(data.final_tiles[key]["discipline"])
    key = g.data.round_tile_ids[int(g.state.glob[G_ROUND_TILES][rnd - 1])]
    return DISC_KEYS.index(data.round_tiles[key]["discipline"])


def resolve_scholar(g: Game, seat: int, support: Card) -> None:
    """§5.5: scholar on the highest free space of the chosen discipline, else 1 level."""
    d: int | None = None
    if support.science == "SCORE":
        d = scoring_discipline(g)
        if not can_advance(g, seat, d):
            d = None
    if d is None:
        d = catch_up(g, seat, support)
    if d is None:
        return
    p = g.state.players[seat]
    spaces = g.state.glob[G_SCHOLAR_SPACES]
    free = [i for i in range(d * 4, d * 4 + 4) if spaces[i] == -1]
    if p[P_SCHOLAR_SUPPLY] > 0 and free:
        space = free[0]  # the "3" space is first
        spaces[space] = seat
        p[P_SCHOLAR_SUPPLY] -= 1
        science.advance(g, seat, d, g.data.raw["science"]["scholar_spaces"][space % 4])
    else:
        science.advance(g, seat, d, 1)


def resolve_innovation(g: Game, seat: int, support: Card) -> None:
    """§5.7: with fewer than 3, take a display tile by directional selection; no effect (§11)."""
    p = g.state.players[seat]
    taken = int(np.count_nonzero(p[P_INNOVATIONS] >= 0))
    if taken >= INNOVATIONS_PER_PLAYER:
        return
    glob = g.state.glob
    free = {i for i, t in enumerate(glob[G_INNOV_SPACES].tolist()) if t >= 0 and glob[G_INNOV_OWNER.start + t] == -1}
    spaces = [i for i in innovation_reading_order(g) if i in free]
    if not spaces:
        return
    space = spaces[reading_index(len(spaces), support.direction, support.count)]
    tile = int(glob[G_INNOV_SPACES.start + space])
    glob[G_INNOV_OWNER.start + tile] = seat
    p[P_INNOVATIONS.start + taken] = tile


def resolve_step(g: Game, seat: int, code: int, value: int, flags: int, support_no: int) -> None:
    support = automa_data().cards[support_no]
    faction_step = bool(flags & FACTION_FLAG)
    if code in (TB, TB_ANYWHERE, UPGRADE):
        g.state.glob_ints[_record_start(g, seat) + A_LAST_OFFER] = 0  # set again by a build (Powermongers)
    if code in (TB, TB_ANYWHERE):
        resolve_tb(g, seat, support, faction_step, anywhere=code == TB_ANYWHERE)
    elif code == UPGRADE:
        resolve_upgrade(g, seat, support)
    elif code == BLOCK:
        resolve_block(g, seat, support)
    elif code == SCHOLAR:
        resolve_scholar(g, seat, support)
    elif code in (ADVANCE, PM_ADVANCE):
        if code == PM_ADVANCE:
            need = automa_data().factions[faction_of(g, seat)]["advance_after_build_power"]
            if record(g, seat)[A_LAST_OFFER] < need:
                return
        d = catch_up(g, seat, support)
        if d is not None:
            science.advance(g, seat, d, value)
    elif code == INNOVATION:
        resolve_innovation(g, seat, support)
    elif code == VP:
        g.state.players[seat, P_VP] += value


# ------------------------------------------------------------------------------------------------
# a turn, passing, a new round


def take_turn(g: Game, seat: int) -> None:
    """§4.3: draw, check for passing, then queue the steps (offers may interleave)."""
    start = _record_start(g, seat)
    glob = g.state.glob_ints
    rec = glob[start : start + AUTOMA_FIELDS].tolist()  # plain ints, written back once (issue 10)
    deck = rec[A_DECK.start : A_DECK.start + rec[A_DECK_LEN]]
    discard = rec[A_DISCARD.start : A_DISCARD.start + rec[A_DISCARD_LEN]]
    if not deck:
        automa_pass(g, seat, rec[A_SUPPORT] or 1)
        return
    support = deck.pop(0)
    discard.insert(0, support)
    _store(rec, A_DECK, A_DECK_LEN, deck)
    _store(rec, A_DISCARD, A_DISCARD_LEN, discard)
    rec[A_SUPPORT] = support
    rec[A_UNSEEN] &= ~card_bits([support, *deck[:1]])  # drawn, and the action card looked at
    _PACK_RECORD(glob, start * 4, *rec)  # glob is int32: 4 bytes a field
    if is_pass(deck):
        automa_pass(g, seat, support)
        return
    faction = automa_data().faction_names[rec[A_FACTION]]  # faction_of and level_of, from the record read
    state, step_kind = g.state, _AUTOMA_STEP
    for code, value, flags in reversed(_steps(deck[0], glob[G_ROUND], faction, rec[A_LEVEL])):  # build_steps
        pending.push(state, step_kind, seat, code, value, flags, support)


def pass_vp(g: Game) -> int:
    """§2.4: the Automa VP of the round tile (round 6: the final tile), rounds 1-3 / 4-6 side."""
    data = automa_data()
    rnd = int(g.state.glob[G_ROUND])
    if rnd >= ROUNDS:
        return int(data.final_tiles[g.data.final_tile_ids[int(g.state.glob[G_FINAL_TILE])]]["vp"])
    key = g.data.round_tile_ids[int(g.state.glob[G_ROUND_TILES][rnd - 1])]
    return int(data.round_tiles[key]["vp"][0 if rnd <= 3 else 1])


def automa_pass(g: Game, seat: int, support_no: int) -> None:
    """§4.5: pass VP (twice for Racelings passing first), a bonus tile by the support card."""
    from aoi_env.core.decisions import take_bonus

    s = g.state
    p = s.players[seat]
    first = int(s.glob[G_NEXT_COUNT]) == 0
    vp = pass_vp(g)
    if first and automa_data().factions[faction_of(g, seat)].get("double_pass_vp_if_first"):
        vp *= 2
    p[P_VP] += vp
    p[P_PASSED] = 1
    n = int(s.glob[G_NEXT_COUNT])
    s.glob[G_NEXT_ORDER.start + n] = seat
    s.glob[G_NEXT_COUNT] = n + 1
    if s.glob[G_ROUND] < ROUNDS:  # §10 #30: no tile in round 6
        row = bonus_row(s.glob)
        if row:
            slot = min(automa_data().cards[support_no].bonus, len(row) - 1)
            take_bonus(g, seat, row[slot], keep_coins=False)


def start_round(g: Game, seat: int, rnd: int) -> None:
    """Ship level for the round (used as her sailing) and, from round 2 on, the new deck (§4.6)."""
    rec = record(g, seat)
    level = automa_data().levels[int(rec[A_LEVEL])]
    g.state.players[seat, P_SAILING] = level["ship"][rnd - 1]
    if rnd >= 2:
        reserve = _pile(rec, A_RESERVE, A_RESERVE_LEN)
        if reserve and reserve[0] != level["to_reserve_top"]:  # joins face down, unless level 1's *3 (§3.5 step 4)
            rec[A_UNSEEN] = int(rec[A_UNSEEN]) | card_bits(reserve[:1])
        deck, reserve, discard = next_round_deck(
            _pile(rec, A_DECK, A_DECK_LEN), reserve, _pile(rec, A_DISCARD, A_DISCARD_LEN), g.rng()
        )
        _store(rec, A_DECK, A_DECK_LEN, deck)
        _store(rec, A_RESERVE, A_RESERVE_LEN, reserve)
        _store(rec, A_DISCARD, A_DISCARD_LEN, discard)


def end_game_vp(g: Game, seat: int) -> int:
    """§8.3: Wanderers score 2 VP per own building."""
    per = automa_data().factions[faction_of(g, seat)].get("end_vp_per_building", 0)
    return int(per * np.count_nonzero(_her_buildings(g, seat, None)))
