"""The pending-decision stack (STYLE §5.7): one typed stack, not one field per quirk.

Each row of ``state.stack`` is ``(kind, seat, p0, p1, p2, p3, p4, p5)``.  The top row is what
happens next.  *Decision* kinds wait for the seat's move; *automatic* kinds are continuations that
the engine runs as soon as they reach the top (they let one action queue work "after" the
decisions it triggers: power offers before city rewards before competency choice, R55).

Parameters per kind are documented on each member as ``p0, p1, ...``.
"""

from __future__ import annotations

import struct
from enum import IntEnum

from aoi_env.core.state import G_DEPTH, MAX_STACK, STACK_FIELDS, State


class Kind(IntEnum):
    """Pending entry kinds.  Values >= AUTO are automatic continuations."""

    # --- setup decisions (R15-R23)
    PICK_BUNDLE = 1  # standard distribution: take a set (R15)
    DRAFT_PICK = 2  # draft: planning card / faction / palace tile (R16)
    PICK_BONUS = 3  # take a round bonus tile at setup (R16.8); no parameters
    INITIAL_KIND = 4  # Omar: place a Workshop or the Tower now (OP-43)
    INITIAL_PLACE = 5  # p0 = Building to place on an empty native hex, no reach (R21, R22)
    # --- turn
    MAIN = 10  # choose the turn's action or a free conversion (R58, R59, R79); p0 = 1 second action
    POST = 11  # after the action: conversions or done (R79)
    # --- terraform & build (R60-R65)
    TB_TARGET = 20  # p0 free spades, p1 flags (TB_*), choose the first hex (or tunnel / fly)
    TB_TUNNEL = 21  # p0 free spades, p1 flags: choose a tunnel target (R95)
    TB_FLY = 22  # p0 free spades, p1 flags: choose a flight target (R129)
    TB_SPADES = 23  # p0 free spades, p1 flags, p2 hex: how many spades on the first hex
    TB_FINISH = 24  # p0 spades left, p1 flags, p2 hex: extra spades elsewhere, Workshop, or done
    LIZARD_BUILD = 25  # p0 hex terraformed + 1 (0 none), p1 flags: free Workshop on a native hex in reach (R94)
    SPADES = 26  # p0 spades left: split spades, no buying, no Workshop (R81, R23)
    # --- other action parts
    UPGRADE_TARGET = 30  # p0 new Building, p1 UP_* source: choose the building to upgrade
    BRIDGE_END = 31  # p0 BR_* mode, p1 bridges left to build: choose one end
    BRIDGE_DIR = 32  # p0 BR_* mode, p1 bridges left, p2 chosen end: choose the other end
    PAVILION_TARGET = 33  # choose own building for a pavilion (C6)
    NEUTRAL_PLACE = 34  # p0 Building: place a neutral building in reach (R46)
    GUILD_ANYWHERE = 35  # palace 16: Guild on any empty native hex (R136)
    CHOOSE_INNOVATION = 36  # choose an innovation from the display (R73)
    PAY_BOOKS = 37  # p0 books still to pay (any colour)
    CHOOSE_BOOKS = 38  # p0 books to gain (colour of choice)
    STEPS_ANY = 39  # p0 steps to place one at a time (R48)
    STEPS_ONE = 40  # p0 steps in one discipline of choice
    USE_KEY = 41  # p0 discipline, p1 steps still to go above 7 (R50, OP-30)
    CHOOSE_COMPETENCY = 42  # p0 = 1 at setup (spades deferred to R23)
    CHOOSE_CITY = 43  # p0 = 1 when from palace 11 (no city on the map, R131)
    CHOOSE_PALACE = 44  # choose the palace tile when building the Palace (R68)
    PALACE15 = 45  # p0 bitmask of parts left (1 TB, 2 bridges, 4 books) (R135, OP-19)
    PASS_BONUS = 46  # take a round bonus tile when passing (R78)
    OFFER = 47  # p0 power offered, p1 builder: accept or decline (R42)
    SOLO_PICK = 48  # one human against the Automa: a faction from 3 cards x 2 factions (AUTOMA.md §3.3)
    RIVER_CITY = 49  # palace 14: found a city across one river hex now, or not (R134)
    REWARD_ORDER = 50  # p0 new city tiles on top: take them or the upgrade's tile first (R55.4, OP-22)

    # --- automatic continuations
    AUTO = 100
    END_ACTION = 101  # the main action is complete: open POST (R79)
    END_TURN = 102  # the turn is over
    CITY_CHECK = 103  # look for new cities of the seat (R43, OP-33)
    INNOVATION_EFFECT = 104  # p0 innovation id: apply its one-time effect (R101)
    GAIN = 105  # p0 source (SRC_*), p1 id, p2 part (PART_*), p3 multiplier: apply a gain later
    PALACE_EFFECT = 106  # p0 palace tile: one-time effect after the tile is placed (R120)
    PLAYER_SETUP = 107  # starting resources, bowls and science of one seat (R17)
    INCOME_SEAT = 108  # Phase I income of one seat (R57)
    SCIENCE_SEAT = 109  # Phase III science bonus of one seat (R80.1, R143)
    AUTOMA_TURN = 110  # an Automa's turn: draw, pass check, queue the steps (AUTOMA.md §4.3)
    AUTOMA_STEP = 111  # p0 step code, p1 value, p2 flags, p3 support card (AUTOMA.md §5)
    AUTOMA_SETUP = 112  # an Automa's initial Workshops (marked, unmarked) (AUTOMA.md §3.6)


# TB flags (p1 of TB_* kinds)
TB_BUY = 1  # missing spades may be bought with tools (R63.1)
TB_BUILD = 2  # a Workshop may be built (not in Phase III / setup)
TB_LIZARD = 4  # Lizards' city TB: free Workshop anywhere native in reach (R94)
TB_NO_JUMP = 8  # no tunnel / flight (neutral placement, Phase III)

# bridge modes (p0 of BRIDGE_*)
BR_SPELL = 0  # printed spot, paid already (S1, B6, palace 15)
BR_MOLES = 1  # Moles geometry, 1 tool paid (R95, OP-47)

# upgrade sources (p1 of UPGRADE_TARGET)
UP_ACTION = 0  # paid upgrade action (R66)
UP_FREE = 1  # free Workshop -> Guild (palace 4, BA5)
UP_SWAP = 2  # palace 3: School -> Guild swap (R123)

# gain sources and parts (for Kind.GAIN)
SRC_FACTION, SRC_PALACE, SRC_INNOVATION, SRC_COMPETENCY, SRC_BONUS, SRC_CITY, SRC_SPELL, SRC_BOOK = range(8)
SRC_ROUND, SRC_FINAL = 8, 9
PART_ONCE, PART_SPECIAL, PART_PASS, PART_REWARD, PART_EFFECT, PART_INCOME = range(6)

DROPPABLE = frozenset(
    {
        Kind.TB_TARGET, Kind.LIZARD_BUILD, Kind.SPADES, Kind.UPGRADE_TARGET, Kind.BRIDGE_END,
        Kind.PAVILION_TARGET, Kind.NEUTRAL_PLACE, Kind.GUILD_ANYWHERE, Kind.CHOOSE_COMPETENCY,
        Kind.CHOOSE_CITY, Kind.USE_KEY, Kind.TB_FINISH, Kind.PALACE15, Kind.RIVER_CITY,
    }
)  # fmt: skip
"""Decisions for an optional effect that is simply lost when no legal move exists (R46.1, OP-45)."""


Row = tuple[int, ...]
"""A pending entry as handed to the handlers: kind, seat, then the parameters (``STACK_FIELDS``
plain ints, read from ``state.stack`` by ``top`` / ``pop`` / ``read_row``; a tuple: read in one
C call, and no handler can change it)."""

ROW_BYTES = STACK_FIELDS * 4
"""Bytes of one pending row in ``state.stack_ints`` (int32 fields): row ``i`` starts at ``i * ROW_BYTES``."""
_PACK_ROW = struct.Struct(f"={STACK_FIELDS}i").pack_into
"""``_PACK_ROW(buffer, offset, kind, seat, p0, ..., p5)`` writes a whole row in one C call instead
of a tuple, an array and a slice assignment (issue 10)."""
read_row = struct.Struct(f"={STACK_FIELDS}i").unpack_from
"""``read_row(state.stack_ints, i * ROW_BYTES)``: row ``i`` of the stack as a tuple of ints, in one
C call (issue 10)."""


assert STACK_FIELDS == 8, "push names the six parameters p0..p5"


def push(
    state: State,
    kind: int,
    seat: int,
    p0: int = 0,
    p1: int = 0,
    p2: int = 0,
    p3: int = 0,
    p4: int = 0,
    p5: int = 0,
    *more: int,
) -> None:
    """Put a decision or automatic step on top of the stack: it is resolved before what is below.
    The parameters are named, not ``*params``: no tuple to build and unpack at each of the ~2
    pushes a decision (issue 10); ``more`` only catches a seventh one for the error."""
    if more:
        raise ValueError(f"a pending row holds at most {STACK_FIELDS - 2} parameters, got {6 + len(more)}")
    glob = state.glob_ints  # Python-int views of the arrays (State, issue 10)
    depth = glob[G_DEPTH]
    if depth >= MAX_STACK:
        raise RuntimeError("pending stack overflow")
    _PACK_ROW(state.stack_ints, depth * ROW_BYTES, kind, seat, p0, p1, p2, p3, p4, p5)
    glob[G_DEPTH] = depth + 1


def pop(state: State) -> Row:
    """Remove the top entry and return its fields as plain ints: the handlers read ``row[i]``
    several times per decision, and a tuple is read several times faster than a numpy row
    (issue 10)."""
    glob = state.glob_ints
    depth = glob[G_DEPTH] - 1
    glob[G_DEPTH] = depth
    return read_row(state.stack_ints, depth * ROW_BYTES)


def top(state: State) -> Row | None:
    """The pending entry's fields as plain ints (a copy), None when the stack is empty."""
    depth = state.glob_ints[G_DEPTH]
    return read_row(state.stack_ints, (depth - 1) * ROW_BYTES) if depth else None
