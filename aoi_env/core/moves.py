"""The action-id table: one ``Discrete(NUM_ACTIONS)`` shared by every decision kind (STYLE §5.6).

Ids come in contiguous blocks; which blocks are legal, and what an id *means*, depends on the
pending decision (``aoi_env.core.pending.Kind``).  The same hex id is "target r3c4" while choosing
where to terraform and "upgrade r3c4" while choosing what to upgrade.  ``move_str`` and
``parse_move`` (in ``engine``) translate ids to the notation of ``docs/notation.md`` and back.

=================  =====  =====================================================================
block              size   meaning
=================  =====  =====================================================================
HEX_BASE           117    a map position, ``row * 13 + col``
DISC_BASE          4      a discipline / book colour: banking, law, engineering, medicine
COUNT_BASE         3      a number 1..3 (spades on the first hex; palace 15 part)
BUILDING_BASE      7      a building: workshop, guild, school, university, palace, tower, monument
ACTION_BASE        7      build (TB with tools), sail, dig, innovate, moles bridge, pavilion, pass
SCHOLAR_BASE       12     send scholar: discipline * 3 + (0: space "3", 1: space "2", 2: return)
SPELL_BASE         6      spells in printed board order S1 S2 S4 S5 S3 S6
BOOK_BASE          6      book actions BA1..BA6
SPECIAL_BASE       6      special action of: palace, deus ex machina, professors, competency C7,
                          round bonus tile, faction
CONVERT_BASE       14     burn, 5pw->scholar, 5pw->book x4, 3pw->tool, 1pw->coin, scholar->tool,
                          tool->coin, book->coin x4
DONE / YES         1 + 1  end / decline / skip, and accept / use
TUNNEL / FLY       1 + 1  choose a tunnel (Moles) or flight (palace 9) target next
BONUS_BASE         10     round bonus tiles B1..B10
PALACE_BASE        17     palace tiles 1..17
COMPETENCY_BASE    12     competencies C1..C12
CITY_BASE          7      city tiles K1..K7
INNOVATION_BASE    18     innovation tiles (data order)
BUNDLE_BASE        7      standard-distribution sets
TERRAIN_BASE       7      planning cards (draft)
FACTION_BASE       12     faction tiles (draft)
=================  =====  =====================================================================

Decode an id: find the block whose base is the largest one <= id; the offset inside the block
is the component index.  Example: 193 = BONUS_BASE (186) + 7 -> round bonus tile B8.
"""

from __future__ import annotations

from aoi_env.data import NUM_POSITIONS

ACTION_SCHEMA_VERSION = 1

_blocks: list[tuple[str, int]] = [
    ("HEX", NUM_POSITIONS),
    ("DISC", 4),
    ("COUNT", 3),
    ("BUILDING", 7),
    ("ACTION", 7),
    ("SCHOLAR", 12),
    ("SPELL", 6),
    ("BOOK", 6),
    ("SPECIAL", 6),
    ("CONVERT", 14),
    ("DONE", 1),
    ("YES", 1),
    ("TUNNEL", 1),
    ("FLY", 1),
    ("BONUS", 10),
    ("PALACE", 17),
    ("COMPETENCY", 12),
    ("CITY", 7),
    ("INNOVATION", 18),
    ("BUNDLE", 7),
    ("TERRAIN", 7),
    ("FACTION", 12),
]

BLOCKS: dict[str, tuple[int, int]] = {}
_offset = 0
for _name, _size in _blocks:
    BLOCKS[_name] = (_offset, _size)
    _offset += _size
NUM_ACTIONS = _offset

HEX_BASE = BLOCKS["HEX"][0]
DISC_BASE = BLOCKS["DISC"][0]
COUNT_BASE = BLOCKS["COUNT"][0]
BUILDING_BASE = BLOCKS["BUILDING"][0]  # + (Building - 1)
ACTION_BASE = BLOCKS["ACTION"][0]
SCHOLAR_BASE = BLOCKS["SCHOLAR"][0]
SPELL_BASE = BLOCKS["SPELL"][0]
BOOK_BASE = BLOCKS["BOOK"][0]
SPECIAL_BASE = BLOCKS["SPECIAL"][0]
CONVERT_BASE = BLOCKS["CONVERT"][0]
DONE = BLOCKS["DONE"][0]
YES = BLOCKS["YES"][0]
TUNNEL = BLOCKS["TUNNEL"][0]
FLY = BLOCKS["FLY"][0]
BONUS_BASE = BLOCKS["BONUS"][0]
PALACE_BASE = BLOCKS["PALACE"][0]
COMPETENCY_BASE = BLOCKS["COMPETENCY"][0]
CITY_BASE = BLOCKS["CITY"][0]
INNOVATION_BASE = BLOCKS["INNOVATION"][0]
BUNDLE_BASE = BLOCKS["BUNDLE"][0]
TERRAIN_BASE = BLOCKS["TERRAIN"][0]
FACTION_BASE = BLOCKS["FACTION"][0]

# main actions (ACTION_BASE + i)
A_BUILD, A_SAIL, A_DIG, A_INNOVATE, A_MOLES_BRIDGE, A_PAVILION, A_PASS = (ACTION_BASE + i for i in range(7))
ACTION_WORDS = ("build", "sail", "dig", "innovate", "molebridge", "pavilion", "pass")

# send-scholar forms (SCHOLAR_BASE + discipline * 3 + form)
SCHOLAR_FORMS = ("3", "2", "return")

# special-action sources (SPECIAL_BASE + i); bit i of P_SPECIALS_USED
SP_PALACE, SP_DEUS, SP_PROFESSORS, SP_COMPETENCY, SP_BONUS, SP_FACTION = range(6)
SPECIAL_WORDS = ("palace", "deus_ex_machina", "professors", "competency", "bonus", "faction")

# conversions (CONVERT_BASE + i)
CV_BURN, CV_POWER_SCHOLAR = 0, 1
CV_POWER_BOOK = 2  # + discipline (2..5)
CV_POWER_TOOL, CV_POWER_COIN, CV_SCHOLAR_TOOL, CV_TOOL_COIN = 6, 7, 8, 9
CV_BOOK_COIN = 10  # + discipline (10..13)
NUM_CONVERSIONS = 14


def block_of(action: int) -> tuple[str, int]:
    """(block name, offset inside the block) of an action id; ValueError if out of range."""
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action id {action} is out of range 0..{NUM_ACTIONS - 1}")
    for name, (base, size) in BLOCKS.items():
        if base <= action < base + size:
            return name, action - base
    raise AssertionError("unreachable")
