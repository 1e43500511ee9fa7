"""The observation's layout: every named block, its shape, its scale, and where it sits in the flat vector.

``LAYOUT`` is the schema the encoder (``aoi_env.observation``) writes in order and the
environment card (docs/environment.md) prints through ``layout_table()``.  Every value lies in
[0, 1]: counts are divided by the scale given here and clipped, categories are one-hot.  Player
blocks have ``MAX_SEATS`` = 5 rows by *relative* seat (``relative_seat``: the observer is 0),
whatever the player count.  Hex planes are indexed by grid position ``pos = row * 13 + col``
(117 positions, see ``aoi_env.core.board``).  The encoding itself (what is written where, the caches,
the numba kernel) lives in ``aoi_env.observation`` and ``aoi_env.observation_jit``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from aoi_env.core import automa
from aoi_env.core.pending import Kind
from aoi_env.core.rules.science import MAX_LEVEL
from aoi_env.core.state import MAX_SEATS
from aoi_env.data import NUM_POSITIONS

OBS_SCHEMA_VERSION = 5  # 1: 5,891 floats; 2: 5,987; 3: 6,127; 4: 7,297; 5: 7,437 (the env card's Version History)

P = NUM_POSITIONS
S = MAX_SEATS
DECISION_KINDS: tuple[Kind, ...] = tuple(k for k in Kind if k < Kind.AUTO)
"""The decision kinds, in the order of the ``pending_kind`` one-hot."""

# scales: a count is written as min(value / scale, 1)
VP_SCALE = 200.0
COINS_SCALE = 100.0  # coins above 50 are common late in a game and score 1 VP per 5 (R85)
TOOLS_SCALE = 20.0
SCHOLARS_SCALE = 7.0
BOOKS_SCALE = 10.0
BOWL_SCALE = 14.0  # 12 tokens + 2 from the neutral Palace (R117)
SAILING_SCALE = 4.0  # track 0-3, +1 with bonus tile B1 (OP-41)
TERRAFORMING_SCALE = 2.0  # upgrades done: 0-2 (R72)
PIECES = (9, 4, 3, 1, 1)  # workshop, guild, school, university, palace pieces (R2)
NEUTRAL_SCALE = 5.0  # neutral pieces owned per type (5 Towers, else 1, R1)
COUNT_SCALE = 8.0  # cities (keys), pending counts
OFFER_SCALE = 16.0  # power offered to a neighbour (R42: up to 6 neighbouring buildings)
DEFER_SCALE = 4.0  # palace 15 deferral: 1 + city tiles waiting (OP-19)
BRIDGE_SCALE = 3.0  # bridges per player (R2)
PAVILION_SCALE = 8.0
BONUS_COIN_SCALE = 6.0
COMP_COPIES = 4.0
CITY_COPIES = 3.0
AREA_SCALE = 15.0


@dataclass(frozen=True)
class Block:
    """One named block of the observation: its shape and what it holds."""

    name: str
    shape: tuple[int, ...]
    doc: str

    @property
    def size(self) -> int:
        return math.prod(self.shape)


LAYOUT: tuple[Block, ...] = (
    # -- the map: planes of 117 grid positions ----------------------------------------------
    Block("hex_terrain", (9, P), "terrain one-hot: desert plains swamp lake forest mountain wasteland river off"),
    Block("hex_building", (7, P), "building one-hot: workshop guild school university palace tower monument"),
    Block("hex_owner", (S, P), "owner of the building, relative seat (0 = observer)"),
    Block("hex_neutral", (1, P), "the building is a neutral piece (R46)"),
    Block("hex_pavilion", (1, P), "a pavilion is attached (C6)"),
    Block("hex_city", (1, P), "the building belongs to a city (R43)"),
    Block("hex_river_city", (1, P), "river hex counted for a city by palace 14 (R134)"),
    Block("hex_mark", (1, P), "an Automa's marked building (AUTOMA.md 5.1)"),
    Block(
        "hex_bridge_dirs",
        (S, 3, P),
        "a built bridge of that relative seat leaves this hex, its upper end, to the next row far right / "
        "the next row far left / two rows straight down (R40; board.BRIDGE_DIRECTIONS)",
    ),
    Block("hex_bridge_spots", (1, P), "free printed bridge spots (built by nobody) with an end on the hex / 3"),
    Block("hex_border", (1, P), "land hex on the map border (C11, F1)"),
    Block(
        "hex_spades",
        (1, P),
        "spades to turn the hex into the observer's native terrain / 3 (R35); 0 off land and until the "
        "observer has a planning board",
    ),
    Block(
        "hex_reach",
        (1, P),
        "land hex in the observer's reach now, built or not (R39; B1's +1 while it applies, OP-41; "
        "no tunnel or flight)",
    ),
    Block(
        "hex_pending",
        (1, P),
        "hex named by the pending decision (first TB hex, first bridge end, the Lizards' terraformed hex)",
    ),
    # -- game parameters ----------------------------------------------------------------------
    Block("game_players", (4,), "number of seats (players and Automas) one-hot: 2 3 4 5"),
    Block("game_ruleset", (1,), "1 = ruleset v1.0, 0 = v1.2 (R145)"),
    Block("game_map", (1,), "1 = board side 1-3, 0 = side 3-5 (R5)"),
    # -- players, rows by relative seat ------------------------------------------------------
    Block("player_present", (S,), "the relative seat is taken in this game (a player or an Automa)"),
    Block("player_automa", (S, 8), "Automa seat: level / 5, then her faction one-hot (docs/automa.md order)"),
    Block(
        "player_automa_cards",
        (S, 2 + automa.NUM_CARDS),
        f"Automa seat: cards in her deck / {automa.NUM_CARDS}, in the reserve / {automa.NUM_CARDS}, then which "
        "cards 1..14 lie face up on her discard pile (AUTOMA.md 4.3)",
    ),
    Block(
        "player_automa_open",
        (S, 2, automa.NUM_CARDS),
        "Automa seat: her support card 1..14 (the top of her discard pile: the card drawn for her "
        "current or last turn this round), then her action card on top of her deck once she has drawn this round "
        "(AUTOMA.md 4.3: looked at, so her next support card is known; 4.6: reshuffled each round)",
    ),
    Block(
        "automa_bonus_row",
        (6, 10),
        "games with an Automa (else 0): bonus tile B1..B10 in each slot of her row (AUTOMA.md 3.7)",
    ),
    Block("player_faction", (S, 12), "faction one-hot (data order); 0 on an Automa seat (see player_automa)"),
    Block("player_board", (S, 7), "planning board = native terrain one-hot (an Automa: her terrain)"),
    Block(
        "player_resources",
        (S, 12),
        f"vp/{VP_SCALE:g} coins/{COINS_SCALE:g} tools/{TOOLS_SCALE:g} scholars/7 scholar_supply/7 "
        f"books(banking law engineering medicine)/{BOOKS_SCALE:g} bowls(I II III)/{BOWL_SCALE:g}",
    ),
    Block("player_science", (S, 4), f"science level per discipline / {MAX_LEVEL} (R47)"),
    Block(
        "player_tracks",
        (S, 2),
        f"sailing track/{SAILING_SCALE:g} (without bonus B1's +1, which hex_reach counts), "
        f"terraforming upgrades/{TERRAFORMING_SCALE:g}",
    ),
    Block("player_buildings", (S, 5), "own pieces built / pieces (9 4 3 1 1): workshop guild school university palace"),
    Block("player_neutral", (S, 7), f"neutral pieces owned / {NEUTRAL_SCALE:g}: workshop .. monument (R46)"),
    Block(
        "player_counts",
        (S, 5),
        f"cities/{COUNT_SCALE:g}, bridges/{BRIDGE_SCALE:g}, pavilions in hand/{PAVILION_SCALE:g}, setup spades/3, "
        f"palace 15 deferral (1 + city tiles waiting)/{DEFER_SCALE:g} (OP-19)",
    ),
    Block("player_competencies", (S, 12), "competency tiles C1..C12 owned"),
    Block("player_innovations", (S, 18), "innovations owned (data order)"),
    Block("player_palace", (S, 17), "palace tile of the built Palace, 1..17 (R68)"),
    Block("player_draft_palace", (S, 17), "palace tile drafted but not built (R16, OP-54)"),
    Block("player_bonus", (S, 10), "round bonus tile held, B1..B10"),
    Block(
        "player_flags",
        (S, 9),
        "passed, owns the neutral Palace, city rewards deferred (palace 15), special actions used this "
        "round: palace deus_ex_machina professors competency bonus faction",
    ),
    Block("player_order", (S, S), "position in this round's turn order, one-hot"),
    Block("player_next_order", (S, S), "position in next round's order (passing order), one-hot; 0 if not passed"),
    # -- displays ----------------------------------------------------------------------------
    Block("bonus_display", (10,), "round bonus tile B1..B10 is on the display"),
    Block("bonus_coins", (10,), f"coins on display tiles / {BONUS_COIN_SCALE:g} (R80.3)"),
    Block("innovation_display", (12, 18), "innovation on each display space, one-hot; 0 once taken (R12, R20)"),
    Block(
        "competency_display",
        (12, 12),
        "competency type on each display space (column * 3 + row), one-hot, also with no copy left (R11)",
    ),
    Block("competency_left", (12,), f"copies left per competency / {COMP_COPIES:g}"),
    Block("palace_display", (17,), "palace tile 1..17 is available (R14)"),
    Block("city_left", (7,), f"city tiles left per type K1..K7 / {CITY_COPIES:g} (R13)"),
    Block("spells_used", (6,), "X token on each spell, printed order S1 S2 S4 S5 S3 S6 (R75)"),
    Block("book_actions", (6,), "book action BA1..BA6 is in play (R8)"),
    Block("book_actions_used", (6,), "X token on book action BA1..BA6"),
    Block(
        "scholar_spaces",
        (16, S + 1),
        "occupant of science space discipline * 4 + space (space 0: the 3 space, 1-3: the 2 spaces): "
        "rel. seat, neutral",
    ),
    Block("neutral_left", (7,), "neutral pieces left / supply (1 each, 5 towers): workshop .. monument (R1)"),
    Block("pavilions_left", (1,), f"pavilions left / {PAVILION_SCALE:g}"),
    Block(
        "neutral_faction",
        (5,),
        f"2 players, no Automa: area token / {AREA_SCALE:g} (0 while face down: setup and rounds 1-5, R25), "
        "neutral science levels / 12 (R24)",
    ),
    # -- round --------------------------------------------------------------------------------
    Block("round", (8,), "round one-hot: setup, 1..6, over"),
    Block("phase", (5,), "phase one-hot: setup income actions science over"),
    Block("round_tiles", (6, 12), "round scoring tile of rounds 1..6, one-hot T1..T12 (R6)"),
    Block("final_tile", (4,), "final round tile F1..F4 (R7)"),
    Block("start_player", (S,), "start player, relative seat"),
    # -- setup --------------------------------------------------------------------------------
    Block(
        "setup_bundle_faction",
        (7, 12),
        "setup only (else 0), standard distribution: faction of the set of each terrain (R15)",
    ),
    Block("setup_bundle_bonus", (7, 10), "setup only (else 0), standard distribution: bonus tile of each untaken set"),
    Block(
        "setup_draft",
        (36,),
        "setup only (else 0): draft pools (R16) or the solo offer: planning cards 7, factions 12, palace tiles 17",
    ),
    Block(
        "setup_solo_pairs",
        (12, 7),
        "setup only (else 0), solo pick (AUTOMA.md 3.3): faction offered with planning card, one-hot",
    ),
    # -- the pending decision -----------------------------------------------------------------
    Block(
        "pending_kind",
        (len(DECISION_KINDS),),
        "pending decision kind one-hot (observation.DECISION_KINDS, in Kind order)",
    ),
    Block("pending_seat", (S,), "seat to decide, relative (0 = the observer decides)"),
    Block(
        "pending_count",
        (1,),
        "spades (free spades of a TB) / books / steps (above 7 at a key) / new city rewards still to go "
        f"/ {COUNT_SCALE:g}; power offered / {OFFER_SCALE:g}",
    ),
    Block("pending_flags", (4,), "Terraform & Build flags: buy spades, Workshop allowed, Lizards, no jump"),
    Block(
        "pending_building",
        (7,),
        "building of a pending initial or neutral placement or upgrade, workshop .. monument "
        "(palace 16's Guild: 0, its kind says it)",
    ),
    Block("pending_source", (3,), "upgrade source: paid action, free (palace 4, BA5), palace 3 swap"),
    Block("pending_bridge", (3,), "bridge mode: spell/printed, Moles; bridges left / 3"),
    Block("pending_discipline", (4,), "discipline of a key decision (R50)"),
    Block("pending_option", (1,), "second action (MAIN) / during setup / from palace 11"),
    Block("pending_parts", (3,), "palace 15 parts left: spades, bridges, books (R135)"),
    Block("pending_builder", (S,), "power offer: the builder, relative seat (R42)"),
    Block("pending_turn", (S,), "Phase II: the seat whose turn it is, relative (decisions also come in others' turns)"),
    Block("pending_acquisition", (2,), "reward order (R55.4): the upgrade's competency / palace tile"),
)

OBS_SIZE = sum(b.size for b in LAYOUT)
SLICES: dict[str, slice] = {}
_cursor = 0
for _b in LAYOUT:
    SLICES[_b.name] = slice(_cursor, _cursor + _b.size)
    _cursor += _b.size
SHAPES: dict[str, tuple[int, ...]] = {b.name: b.shape for b in LAYOUT}
assert _cursor == OBS_SIZE


def relative_seat(seat: np.ndarray | int, observer: int, seats: int) -> np.ndarray | int:
    """The egocentric rotation, the one place it is defined: ``observer`` -> 0, the next seat -> 1, ..."""
    return (seat - observer) % seats


def layout() -> list[tuple[str, slice, tuple[int, ...]]]:
    """(name, slice into the flat vector, shape of the view) of every block, in order."""
    return [(b.name, SLICES[b.name], b.shape) for b in LAYOUT]


def views(obs: np.ndarray) -> dict[str, np.ndarray]:
    """Named views (not copies) onto a flat observation vector."""
    if obs.shape != (OBS_SIZE,):
        raise ValueError(f"an observation has shape ({OBS_SIZE},), got {obs.shape}")
    return {b.name: obs[SLICES[b.name]].reshape(b.shape) for b in LAYOUT}


def layout_table() -> str:
    """The Markdown table of the environment card (generated from ``LAYOUT``)."""
    rows = ["| slice | name | shape | contents |", "|---|---|---|---|"]
    for b in LAYOUT:
        sl = SLICES[b.name]
        shape = " x ".join(str(d) for d in b.shape)
        rows.append(f"| {sl.start}:{sl.stop} | `{b.name}` | {shape} | {b.doc} |")
    return "\n".join(rows)
