"""Closed sets of the game as IntEnums; names follow RULES.md's glossary and the data keys.

The integer values are the indices used in every numpy table of the engine, so their order is
part of the state and action-id schema (see ``aoi_env.core.moves``).
"""

from __future__ import annotations

from enum import IntEnum


class Terrain(IntEnum):
    """Terrain of a map position, in the order of the terraforming cycle (R35)."""

    DESERT = 0  # yellow
    PLAINS = 1  # brown
    SWAMP = 2  # black
    LAKE = 3  # blue
    FOREST = 4  # green
    MOUNTAIN = 5  # grey
    WASTELAND = 6  # red
    RIVER = 7  # river hex: never built on, counted by sailing (R39)
    OFF = 8  # outside the play area


NUM_TERRAINS = 7
TERRAIN_LETTERS = "DPSLFMW"


class Discipline(IntEnum):
    """Science board tracks (R47); books have the same four colours (R28)."""

    BANKING = 0  # yellow
    LAW = 1  # blue
    ENGINEERING = 2  # brown
    MEDICINE = 3  # white


NUM_DISCIPLINES = 4


class Building(IntEnum):
    """Building shapes on the map (R2, R41); 0 = empty hex."""

    NONE = 0
    WORKSHOP = 1
    GUILD = 2
    SCHOOL = 3
    UNIVERSITY = 4
    PALACE = 5
    TOWER = 6  # neutral only (Omar's start, competency C10)
    MONUMENT = 7  # neutral only (innovation)


PLAYER_BUILDINGS = (Building.WORKSHOP, Building.GUILD, Building.SCHOOL, Building.UNIVERSITY, Building.PALACE)
NUM_BUILDING_TYPES = 8


class Faction(IntEnum):
    """The 12 faction tiles (R88-R100)."""

    BLESSED = 0
    FELINES = 1
    GOBLINS = 2
    ILLUSIONISTS = 3
    INVENTORS = 4
    LIZARDS = 5
    MOLES = 6
    MONKS = 7
    NAVIGATORS = 8
    OMAR = 9
    PHILOSOPHERS = 10
    PSYCHICS = 11


NUM_FACTIONS = 12

# How many of each kind of tile the game has (R1, DATA.md); the state and the action space are
# laid out for these counts and the data loader checks the YAML against them.
NUM_INNOVATIONS = 18
NUM_PALACE_TILES = 17
NUM_BONUS_TILES = 10  # round bonus tiles B1-B10
NUM_ROUND_TILES = 12  # round scoring tiles T1-T12
NUM_FINAL_TILES = 4
NUM_SPELLS = 6
NUM_BOOK_ACTIONS = 6
NUM_CITY_TILES = 7  # kinds K1-K7 (3 copies each, R13)
NUM_COMPETENCIES = 12  # kinds C1-C12
