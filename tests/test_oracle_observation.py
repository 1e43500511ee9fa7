"""Oracle for the observation: an independent decoder written from the environment card.

``docs/environment.md`` ("Observation Space" and its block table) is the specification.  The
block slices and shapes are parsed from the card's table itself (and only checked against
``aoi_env.observation.layout()``); each block is then decoded as the card describes (scales,
one-hots, egocentric seat order, the hex planes, the pending decision, the Automa blocks,
displays, tiles, tracks, bowls ...) and compared with the truth read directly from the game's
state arrays (``g.state.hexes / players / glob / bridges / stack`` by the field constants of
``aoi_env.core.state``), the printed map data and a few public ``Game`` methods.  Nothing of the
encoder (``aoi_env/observation.py``, ``aoi_env/observation_jit.py``) is used to build the truth:
reach, bridge directions and spade distances are recomputed here from the rules (R35, R38-R40).

Positions: random games of 2-5 seats driven through ``raw_env`` (both rulesets, standard and
draft distribution, fixed and random setup, 1-2 humans with 1-2 Automas), sampled at random
decisions including the first setup decision and the finished game, plus scripted positions
(``aoi_env.testing.Scenario``) for decisions random play almost never reaches (palace 15's parts,
palace 14's river city, the reward order, the Lizards' free Workshop).  Every observer seat is
decoded, from three encoders: the env's own ``observe`` (numba-compiled when numba is
installed), ``ObservationEncoder(compiled=False)`` (the numpy encoder, with its caches kept across
a whole game) and ``ObservationEncoder(compiled=True)`` when numba is available; a subprocess
with ``AOI_ENV_NUMBA=0`` checks the env's own encoder without numba.  Coverage is asserted: every
block of the card is seen with a non-zero truth, and a list of rarer features (each pending
context, the Automa blocks, the face-up area token ...) is seen at least once.

Card and behaviour agree everywhere; the one failure found was an encoder bug (a reused numpy
encoder crashed on a game with more seats on the same map), fixed; its test is at the end.
"""

from __future__ import annotations

import functools
import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from aoi_env import Game
from aoi_env.core import automa as am
from aoi_env.core.hidden import resample
from aoi_env.core.pending import Kind
from aoi_env.core.state import (
    G_AREA_TOKEN,
    G_AUTOMA,
    G_BONUS_COINS,
    G_BONUS_ROW,
    G_BONUS_STATE,
    G_BOOK_ACTIONS,
    G_BOOKS_USED,
    G_BUNDLE_BONUS,
    G_BUNDLE_FACTION,
    G_CITY_LEFT,
    G_COMP_LEFT,
    G_COMP_SPACES,
    G_DECISIONS,
    G_DEPTH,
    G_DRAFT_BOARDS,
    G_DRAFT_FACTIONS,
    G_DRAFT_PALACES,
    G_FINAL_TILE,
    G_INNOV_OWNER,
    G_INNOV_SPACES,
    G_NEUTRAL_LEFT,
    G_NEUTRAL_SCIENCE,
    G_NEXT_COUNT,
    G_NEXT_ORDER,
    G_NUM_BRIDGES,
    G_ORDER,
    G_PALACE_STATE,
    G_PAVILIONS_LEFT,
    G_PHASE,
    G_ROUND,
    G_ROUND_TILES,
    G_SCHOLAR_SPACES,
    G_SPELLS_USED,
    G_START_PLAYER,
    G_TURN,
    H_BUILDING,
    H_CITY,
    H_MARK,
    H_NEUTRAL,
    H_OWNER,
    H_PAVILION,
    H_RIVER_CITY,
    H_TERRAIN,
    NEUTRAL_SEAT,
    P_BOARD,
    P_BONUS,
    P_BOOKS,
    P_BOWLS,
    P_BRIDGES,
    P_BUILT,
    P_CITIES,
    P_COINS,
    P_COMPETENCIES,
    P_DEFER_CITY,
    P_DRAFT_PALACE,
    P_FACTION,
    P_INNOVATIONS,
    P_NEUTRAL_BUILT,
    P_NEUTRAL_PALACE,
    P_PALACE_TILE,
    P_PASSED,
    P_PAVILIONS,
    P_SAILING,
    P_SCHOLAR_SUPPLY,
    P_SCHOLARS,
    P_SCIENCE,
    P_SETUP_SPADES,
    P_SPECIALS_USED,
    P_TERRAFORMING,
    P_TOOLS,
    P_VP,
    Phase,
)
from aoi_env.data.enums import Terrain
from aoi_env.env import raw_env
from aoi_env.observation import ObservationEncoder, layout
from aoi_env.observation_jit import AVAILABLE as NUMBA
from aoi_env.testing import Scenario, biased_random_action, play

ROOT = Path(__file__).resolve().parents[1]
CARD = ROOT / "docs" / "environment.md"
OBS_SIZE = 7437  # the card: "Observation Shape | dict: `observation` (7437,), `action_mask` (276,)"
NUM_ACTIONS = 276
ATOL = 1e-6


# -- the card's block table ----------------------------------------------------------------------


def card_blocks() -> list[tuple[str, slice, tuple[int, ...], str]]:
    """(name, slice, shape, contents) of every row of the card's observation table."""
    rows = []
    for line in CARD.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^\| (\d+):(\d+) \| `(\w+)` \| ([\d x]+) \| (.*) \|$", line)
        if m:
            shape = tuple(int(x) for x in m.group(4).split(" x "))
            rows.append((m.group(3), slice(int(m.group(1)), int(m.group(2))), shape, m.group(5)))
    return rows


BLOCKS = card_blocks()
NAMES = [name for name, _, _, _ in BLOCKS]
STARTS = np.array([sl.start for _, sl, _, _ in BLOCKS])


def decode(obs: np.ndarray) -> dict[str, np.ndarray]:
    """The card's named blocks of a flat observation (slices and shapes read from the card)."""
    return {name: obs[sl].reshape(shape) for name, sl, shape, _ in BLOCKS}


def test_card_table_is_contiguous_and_matches_the_public_layout() -> None:
    """The card's table tiles 0..7437 without gaps and agrees with ``observation.layout()``."""
    assert len(BLOCKS) == 74
    cursor = 0
    for name, sl, shape, _ in BLOCKS:
        assert sl.start == cursor and sl.stop - sl.start == int(np.prod(shape)), name
        cursor = sl.stop
    assert cursor == OBS_SIZE
    assert [(n, s, tuple(sh)) for n, s, sh, _ in BLOCKS] == [(n, s, tuple(sh)) for n, s, sh in layout()]
    e = raw_env(num_players=3)
    assert e.observation_space("player_0")["observation"].shape == (OBS_SIZE,)
    assert e.observation_space("player_0")["action_mask"].shape == (NUM_ACTIONS,)
    assert e.state_space.shape == (OBS_SIZE,) and e.state_space == e.observation_space("player_0")["observation"]


# -- geometry, recomputed from the card's frame and the rules ------------------------------------

RIVER = int(Terrain.RIVER)
LAND = RIVER  # terrains below are land (desert .. wasteland)
SPOT_ENDS = 3.0  # hex_bridge_spots: "/ 3"


def frame_neighbours(terrain: np.ndarray) -> tuple[tuple[int, ...], ...]:
    """Edge neighbours in the 9 x 13 frame, odd rows shifted half a hex right (play area only)."""
    return _frame_neighbours(tuple((terrain != Terrain.OFF).tolist()))


@functools.cache
def _frame_neighbours(play: tuple[bool, ...]) -> tuple[tuple[int, ...], ...]:
    out: list[tuple[int, ...]] = []
    for p in range(117):
        r, c = divmod(p, 13)
        below = (c - 1, c) if r % 2 == 0 else (c, c + 1)
        cells = [(r, c - 1), (r, c + 1)] + [(r + dr, x) for dr in (-1, 1) for x in below]
        ok = [rr * 13 + cc for rr, cc in cells if 0 <= rr < 9 and 0 <= cc < 13 and play[rr * 13 + cc]]
        out.append(tuple(ok) if play[p] else ())
    return tuple(out)


def bridge_plane(a: int, b: int) -> tuple[int, int]:
    """(upper end, direction): 0 = next row far right, 1 = next row far left, 2 = two rows down."""
    lo, hi = min(a, b), max(a, b)
    (r, c), (r2, c2) = divmod(lo, 13), divmod(hi, 13)
    if (r2, c2) == (r + 2, c):
        return lo, 2
    assert r2 == r + 1, (a, b)
    if c2 == (c + 1 if r % 2 == 0 else c + 2):
        return lo, 0
    assert c2 == (c - 2 if r % 2 == 0 else c - 1), (a, b)
    return lo, 1


def reach_of(g: Game, seat: int, terr: np.ndarray, bld: np.ndarray, own: np.ndarray, seen: Counter) -> np.ndarray:
    """R39: land hexes adjacent (edges, R38 bridges) to one of the seat's buildings, or joined to
    it by a path of 1..s river hexes; s = sailing track, +1 while holding B1 in Phase II (R138)."""
    s = g.state
    nb = frame_neighbours(terr)
    sail = int(s.players[seat, P_SAILING])
    bonus = int(s.players[seat, P_BONUS])
    holds_b1 = bonus >= 0 and g.data.bonus_ids[bonus] == "B1"
    # R138; once passed, the held tile is the new one, face down until the next round (R78.2)
    if holds_b1 and g.is_player(seat) and int(s.glob[G_PHASE]) == Phase.ACTIONS and not s.players[seat, P_PASSED]:
        sail += 1
        seen["reach: B1's +1"] += 1
    bridges: dict[int, list[int]] = {}
    for a, b in s.bridges[: int(s.glob[G_NUM_BRIDGES]), :2].astype(int).tolist():
        bridges.setdefault(a, []).append(b)
        bridges.setdefault(b, []).append(a)
    out = np.zeros(117, dtype=bool)
    for y in np.flatnonzero((bld > 0) & (own == seat)).tolist():
        out[[*nb[y], *bridges.get(y, [])]] = True
        frontier = [r for r in nb[y] if terr[r] == RIVER]
        visited = set(frontier)
        for _ in range(sail):  # frontier: river hexes k steps out, k = 1..sail
            nxt = []
            for r in frontier:
                for x in nb[r]:
                    if terr[x] == RIVER and x not in visited:
                        visited.add(x)
                        nxt.append(x)
                    elif terr[x] < LAND and x != y:
                        out[x] = True
            frontier = nxt
    return out & (terr < LAND)


# -- the oracle ------------------------------------------------------------------------------------

DECISION_KINDS = [k for k in Kind if k < Kind.AUTO]  # "aoi_env.core.pending.Kind order"
TB_KINDS = (Kind.TB_TARGET, Kind.TB_TUNNEL, Kind.TB_FLY, Kind.TB_SPADES, Kind.TB_FINISH, Kind.LIZARD_BUILD)
COUNT_KINDS = (*TB_KINDS[:5], Kind.SPADES, Kind.PAY_BOOKS, Kind.CHOOSE_BOOKS, Kind.STEPS_ANY, Kind.STEPS_ONE)
PIECES = np.array([9, 4, 3, 1, 1])  # player_buildings: "/ pieces (9 4 3 1 1)"
NEUTRAL_SUPPLY = np.array([1, 1, 1, 1, 1, 5, 1])  # neutral_left: "(1 each, 5 towers)"


def clip(x: Any) -> np.ndarray:
    return np.clip(np.asarray(x, dtype=np.float64), 0.0, 1.0)


def automa_records(g: Game) -> dict[int, np.ndarray]:
    rec = g.state.glob[G_AUTOMA].astype(int).reshape(am.MAX_AUTOMA, am.AUTOMA_FIELDS)
    return {int(r[am.A_SEAT]): r for r in rec if r[am.A_LEVEL] > 0}


def truth(g: Game, observer: int, seen: Counter) -> dict[str, np.ndarray]:
    """Every block as the card describes it, from the state arrays; ``seen`` counts features."""
    s = g.state
    n = g.seats
    H = s.hexes.astype(int)
    Pl = s.players.astype(int)
    G = s.glob.astype(int)
    E = {name: np.zeros(shape) for name, _, shape, _ in BLOCKS}

    def rel(seat: int) -> int:  # "the next seat clockwise is relative seat 1"
        return (int(seat) - observer) % n

    # the map
    terr, bld, own = H[:, H_TERRAIN], H[:, H_BUILDING], H[:, H_OWNER]
    pos = np.arange(117)
    land = terr < LAND
    E["hex_terrain"][terr, pos] = 1
    built = np.flatnonzero(bld > 0)
    E["hex_building"][bld[built] - 1, built] = 1
    E["hex_owner"][[rel(o) for o in own[built]], built] = 1
    assert (own[built] >= 0).all()
    for field, name in (
        (H_NEUTRAL, "hex_neutral"),
        (H_PAVILION, "hex_pavilion"),
        (H_CITY, "hex_city"),
        (H_RIVER_CITY, "hex_river_city"),
        (H_MARK, "hex_mark"),
    ):
        E[name][0] = H[:, field] != 0
    printed = g.data.maps[g.geo.name]
    assert (terr[printed.terrain == Terrain.OFF] == Terrain.OFF).all()
    taken = set()
    for a, b, owner in s.bridges[: G[G_NUM_BRIDGES]].astype(int).tolist():
        upper, d = bridge_plane(a, b)
        E["hex_bridge_dirs"][rel(owner), d, upper] = 1
        taken.add((min(a, b), max(a, b)))
        seen[f"bridge direction {d}"] += 1
    for a, b in printed.bridge_spots:
        if (min(a, b), max(a, b)) not in taken:
            E["hex_bridge_spots"][0, [a, b]] += 1 / SPOT_ENDS
    E["hex_bridge_spots"] = clip(E["hex_bridge_spots"])
    assert not (printed.border & ~land).any()
    E["hex_border"][0] = printed.border
    native = Pl[observer, P_BOARD]
    seen["observer without a planning board"] += native < 0
    if native >= 0:  # R35: the shortest way round the cycle of 7 terrains
        d = (native - terr) % 7
        E["hex_spades"][0] = np.where(land, np.minimum(d, 7 - d), 0) / 3
    E["hex_reach"][0] = reach_of(g, observer, terr, bld, own, seen)
    if E["hex_reach"][0][(bld > 0) & (own == observer)].any():
        seen["reach: own building hex in reach"] += 1

    # the pending decision
    depth = G[G_DEPTH]
    row = s.stack[depth - 1].astype(int).tolist() if depth else None
    if row is not None:
        kind, seat, p = Kind(row[0]), row[1], row[2:]
        assert kind < Kind.AUTO, "between decisions the top of the stack is a decision"
        seen[f"kind {kind.name}"] += 1
        E["pending_kind"][DECISION_KINDS.index(kind)] = 1
        E["pending_seat"][rel(seat)] = 1
        if kind in (Kind.TB_SPADES, Kind.TB_FINISH, Kind.BRIDGE_DIR):
            E["hex_pending"][0, p[2]] = 1
            seen[f"hex_pending {kind.name}"] += 1
        if kind == Kind.LIZARD_BUILD and p[0] > 0:  # p0 = hex terraformed + 1
            E["hex_pending"][0, p[0] - 1] = 1
            seen["hex_pending LIZARD_BUILD"] += 1
        if kind in COUNT_KINDS or kind == Kind.REWARD_ORDER:
            E["pending_count"][0] = min(p[0] / 8, 1)
        elif kind == Kind.USE_KEY:
            E["pending_count"][0] = min(p[1] / 8, 1)
        elif kind == Kind.OFFER:
            E["pending_count"][0] = min(p[0] / 16, 1)
            E["pending_builder"][rel(p[1])] = 1
        if E["pending_count"][0]:
            seen[f"pending_count {kind.name}"] += 1
        if kind in TB_KINDS:
            E["pending_flags"][:] = [(p[1] >> i) & 1 for i in range(4)]
        if kind in (Kind.INITIAL_PLACE, Kind.NEUTRAL_PLACE, Kind.UPGRADE_TARGET):
            assert p[0] > 0, row  # a Building, workshop = 1
            E["pending_building"][p[0] - 1] = 1
        if kind == Kind.UPGRADE_TARGET:
            E["pending_source"][p[1]] = 1
        if kind in (Kind.BRIDGE_END, Kind.BRIDGE_DIR):
            E["pending_bridge"][p[0]] = 1
            E["pending_bridge"][2] = min(p[1] / 3, 1)
        if kind == Kind.USE_KEY:
            E["pending_discipline"][p[0]] = 1
        if kind in (Kind.MAIN, Kind.CHOOSE_COMPETENCY, Kind.CHOOSE_CITY):
            E["pending_option"][0] = p[0] != 0
        if kind == Kind.PALACE15:
            E["pending_parts"][:] = [(p[0] >> i) & 1 for i in range(3)]
        if kind == Kind.REWARD_ORDER:  # the upgrade's acquisition lies under the p0 city rows
            below = Kind(int(s.stack[depth - 2 - p[0], 0]))
            E["pending_acquisition"][0 if below == Kind.CHOOSE_COMPETENCY else 1] = 1
            seen[f"reward order {below.name}"] += 1
    else:
        assert g.is_over()
    if G[G_PHASE] == Phase.ACTIONS:
        E["pending_turn"][rel(G[G_ORDER.start + G[G_TURN]])] = 1
        if row is not None and row[1] != G[G_ORDER.start + G[G_TURN]]:
            seen["decision in another seat's turn"] += 1

    # game parameters
    E["game_players"][n - 2] = 1
    E["game_ruleset"][0] = g.config.ruleset == "v1.0"
    E["game_map"][0] = g.geo.name == "1-3"

    # players, rows by relative seat
    automas = automa_records(g)
    assert set(automas) == {seat for seat in range(n) if g.is_automa(seat)}
    for seat in range(n):
        r, pl = rel(seat), Pl[seat]
        E["player_present"][r] = 1
        if seat in automas:
            a = automas[seat]
            E["player_automa"][r, 0] = a[am.A_LEVEL] / 5
            E["player_automa"][r, 1 + a[am.A_FACTION]] = 1
            E["player_automa_cards"][r, :2] = a[am.A_DECK_LEN] / 14, a[am.A_RESERVE_LEN] / 14
            discard = a[am.A_DISCARD][: a[am.A_DISCARD_LEN]]
            E["player_automa_cards"][r, 2 + discard - 1] = 1
            if discard.size:  # the card drawn last is on top; the one after it was looked at (4.3)
                seen["automa discard pile"] += 1
                E["player_automa_open"][r, 0, discard[0] - 1] = 1
                if a[am.A_DECK_LEN]:
                    E["player_automa_open"][r, 1, a[am.A_DECK][0] - 1] = 1
            if seat == observer:
                seen["automa observer"] += 1
        elif pl[P_FACTION] >= 0:
            E["player_faction"][r, pl[P_FACTION]] = 1
        if pl[P_BOARD] >= 0:
            E["player_board"][r, pl[P_BOARD]] = 1
        E["player_resources"][r] = clip(
            [pl[P_VP] / 200, pl[P_COINS] / 100, pl[P_TOOLS] / 20, pl[P_SCHOLARS] / 7, pl[P_SCHOLAR_SUPPLY] / 7]
            + list(pl[P_BOOKS] / 10)
            + list(pl[P_BOWLS] / 14)
        )
        E["player_science"][r] = clip(pl[P_SCIENCE] / 12)
        E["player_tracks"][r] = clip([pl[P_SAILING] / 4, pl[P_TERRAFORMING] / 2])
        E["player_buildings"][r] = clip(pl[P_BUILT][1:6] / PIECES)
        E["player_neutral"][r] = clip(pl[P_NEUTRAL_BUILT][1:8] / 5)
        E["player_counts"][r] = clip(
            [pl[P_CITIES] / 8, pl[P_BRIDGES] / 3, pl[P_PAVILIONS] / 8, pl[P_SETUP_SPADES] / 3, pl[P_DEFER_CITY] / 4]
        )
        E["player_competencies"][r] = [(pl[P_COMPETENCIES] >> i) & 1 for i in range(12)]
        innovations = pl[P_INNOVATIONS]
        E["player_innovations"][r, innovations[innovations >= 0]] = 1
        for field, name in ((P_PALACE_TILE, "player_palace"), (P_DRAFT_PALACE, "player_draft_palace")):
            if pl[field] >= 0:
                E[name][r, pl[field]] = 1
        if pl[P_BONUS] >= 0:
            E["player_bonus"][r, pl[P_BONUS]] = 1
        E["player_flags"][r] = [pl[P_PASSED] != 0, pl[P_NEUTRAL_PALACE] != 0, pl[P_DEFER_CITY] > 0] + [
            (pl[P_SPECIALS_USED] >> i) & 1 for i in range(6)
        ]
    for k, seat in enumerate(G[G_ORDER]):
        if seat >= 0:
            E["player_order"][rel(seat), k] = 1
    for k, seat in enumerate(G[G_NEXT_ORDER][: G[G_NEXT_COUNT]]):
        E["player_next_order"][rel(seat), k] = 1
    if automas:
        for k, tile in enumerate(G[G_BONUS_ROW]):
            if tile >= 0:
                E["automa_bonus_row"][k, tile] = 1

    # displays
    on_display = G[G_BONUS_STATE] == -1
    E["bonus_display"][:] = on_display
    E["bonus_coins"][:] = clip(np.where(on_display, G[G_BONUS_COINS], 0) / 6)
    for k, i in enumerate(G[G_INNOV_SPACES]):
        if i >= 0 and G[G_INNOV_OWNER.start + i] == -1:
            E["innovation_display"][k, i] = 1
        elif i >= 0:
            seen["innovation display space emptied"] += 1
    for k, c in enumerate(G[G_COMP_SPACES]):
        if c >= 0:
            E["competency_display"][k, c] = 1
            if G[G_COMP_LEFT.start + c] == 0:
                seen["competency display space with no copy left"] += 1
    E["competency_left"][:] = clip(G[G_COMP_LEFT] / 4)
    E["palace_display"][:] = G[G_PALACE_STATE] == -1
    E["city_left"][:] = clip(G[G_CITY_LEFT] / 3)
    E["spells_used"][:] = G[G_SPELLS_USED] != 0
    for k, ba in enumerate(G[G_BOOK_ACTIONS]):
        E["book_actions"][ba] = 1
        E["book_actions_used"][ba] = G[G_BOOKS_USED.start + k] != 0
    for k, occupant in enumerate(G[G_SCHOLAR_SPACES]):
        if occupant == NEUTRAL_SEAT:
            E["scholar_spaces"][k, 5] = 1
            seen["neutral scholar"] += 1
        elif occupant >= 0:
            E["scholar_spaces"][k, rel(occupant)] = 1
    E["neutral_left"][:] = clip(G[G_NEUTRAL_LEFT][1:8] / NEUTRAL_SUPPLY)
    E["pavilions_left"][0] = min(G[G_PAVILIONS_LEFT] / 8, 1)
    if n == 2:
        if G[G_ROUND] >= 6:  # "0 while face down: setup and rounds 1-5"
            E["neutral_faction"][0] = G[G_AREA_TOKEN] / 15
            seen["area token face up"] += bool(G[G_AREA_TOKEN])
        E["neutral_faction"][1:] = clip(G[G_NEUTRAL_SCIENCE] / 12)

    # round
    E["round"][G[G_ROUND]] = 1
    E["phase"][G[G_PHASE]] = 1
    E["round_tiles"][np.arange(6), G[G_ROUND_TILES]] = 1
    E["final_tile"][G[G_FINAL_TILE]] = 1
    E["start_player"][rel(G[G_START_PLAYER])] = 1

    # setup ("setup only (else 0)")
    if G[G_PHASE] == Phase.SETUP:
        if g.config.distribution == "standard":
            for t in range(7):
                f = G[G_BUNDLE_FACTION.start + t]
                if f >= 0:  # -1: the set is taken
                    E["setup_bundle_faction"][t, f] = 1
                    E["setup_bundle_bonus"][t, G[G_BUNDLE_BONUS.start + t]] = 1
        for offset, field in ((0, G_DRAFT_BOARDS), (7, G_DRAFT_FACTIONS), (19, G_DRAFT_PALACES)):
            pool = G[field]
            E["setup_draft"][offset + pool[pool >= 0]] = 1
        for f, board in zip(G[G_DRAFT_FACTIONS], G[G_DRAFT_BOARDS], strict=True):
            if f >= 0 and row is not None and row[0] == Kind.SOLO_PICK:
                E["setup_solo_pairs"][f, board] = 1
    return E


Mismatches = dict[str, list[str]]  # block name -> "where: [index] obs x card y" of each position


def compare(
    obs: np.ndarray, g: Game, observer: int, where: str, seen: Counter, covered: Counter, mismatches: Mismatches
) -> None:
    """Decode ``obs`` block by block and record in ``mismatches`` every block that differs from
    the truth; ``covered`` counts the blocks whose truth is not all zero."""
    assert obs.dtype == np.float32 and obs.shape == (OBS_SIZE,), where
    assert obs.min() >= 0.0 and obs.max() <= 1.0, where  # "float32 [0, 1]"
    want = truth(g, observer, seen)
    flat = np.zeros(OBS_SIZE)  # the truth laid out by the card's slices (one vector: fast to compare)
    for name, sl, _, _ in BLOCKS:
        flat[sl] = want[name].ravel()
    for k in np.flatnonzero(np.logical_or.reduceat(flat != 0, STARTS)):
        covered[NAMES[k]] += 1
    wrong = np.abs(obs - flat) > ATOL
    if not wrong.any():
        return
    got = decode(obs)
    for k in np.flatnonzero(np.logical_or.reduceat(wrong, STARTS)):
        name = NAMES[k]
        idx = tuple(np.argwhere(np.abs(got[name] - want[name]) > ATOL)[0])
        mismatches.setdefault(name, []).append(
            f"{where} observer {observer}: {name}[{', '.join(map(str, idx))}] obs {got[name][idx]:.4f} "
            f"card {want[name][idx]:.4f}"
        )


# -- positions ---------------------------------------------------------------------------------

RANDOM_GAMES: list[tuple[int, dict[str, Any], int, float]] = [  # num_players, options, seed, sample rate
    (2, {}, 1, 0.4),
    (2, {"ruleset": "v1.0", "distribution": "draft"}, 2, 0.3),
    (2, {"area_tokens": (13,)}, 14, 0.3),
    (3, {"ruleset": "v1.0"}, 3, 0.25),
    (3, {"map": "1-3", "distribution": "draft", "skip_forced": False}, 4, 0.12),
    (4, {"distribution": "draft"}, 5, 0.15),
    (4, {"ruleset": "v1.0", "setup_choices": "random"}, 6, 0.15),
    (5, {}, 7, 0.15),
    (5, {"ruleset": "v1.0", "distribution": "draft"}, 8, 0.12),
    (1, {"automa": ("simpletons:3",)}, 9, 0.5),
    (1, {"automa": ("racelings:5",), "ruleset": "v1.0"}, 10, 0.5),
    (2, {"automa": ("druids:4",)}, 11, 0.4),
    (2, {"automa": ("powermongers:2",), "ruleset": "v1.0", "skip_forced": False}, 15, 0.4),
    (1, {"automa": ("kuddlers:2", "powermongers:4")}, 12, 0.5),
    (1, {"automa": ("wanderers:1:lake", "mimics:5")}, 13, 0.5),
    (3, {}, 16, 0.25),
    (4, {}, 17, 0.15),
    (5, {"setup_choices": "random", "skip_forced": False}, 18, 0.08),
    (1, {"automa": ("druids:2:forest",), "ruleset": "v1.0"}, 19, 0.5),
]


class Checker:
    """Decodes every observer's observation of a position from the three encoders."""

    def __init__(self) -> None:
        # kept from position to position (its caches must not go stale), one per number of seats:
        # see test_numpy_encoder_reused_for_a_game_with_more_seats
        self.numpy_encoder = ObservationEncoder(compiled=False)  # one for every game: its caches must follow
        self.jit_encoder = ObservationEncoder(compiled=True) if NUMBA else None
        self.seen: Counter = Counter()
        self.covered: Counter = Counter()
        self.mismatches: Mismatches = {}
        self.positions = 0
        self.decoded = 0

    def check(self, e: Any, where: str) -> None:
        g: Game = e.game
        self.positions += 1
        self.seen[f"seats {g.seats}"] += 1
        self.seen[f"phase {Phase.NAMES[int(g.state.glob[G_PHASE])]}"] += 1
        current = g.current_seat()
        for agent in e.agents:  # the env: players only
            seat = int(agent.split("_")[1])
            out = e.observe(agent)
            self.decoded += 1
            self.compare(out["observation"], g, seat, f"{where} env")
            mask = out["action_mask"]
            assert mask.dtype == np.int8 and mask.shape == (NUM_ACTIONS,)
            legal = sorted(g.legal_actions()) if seat == current else []
            assert np.flatnonzero(mask).tolist() == legal, where
        if e.agents:
            state = e.state()  # "the observation of player_0"
            assert np.array_equal(state, e.observe("player_0")["observation"]), where
        for seat in range(g.seats):  # the engine encoders: every seat, Automas included
            for enc, label in ((self.numpy_encoder, "numpy"), (self.jit_encoder, "jit")):
                if enc is not None:
                    self.decoded += 1
                    self.compare(enc.encode(g, seat), g, seat, f"{where} {label}")

    def compare(self, obs: np.ndarray, g: Game, observer: int, where: str) -> None:
        compare(obs, g, observer, where, self.seen, self.covered, self.mismatches)


def run_random_games(checker: Checker, games: list[tuple[int, dict[str, Any], int, float]] = RANDOM_GAMES) -> None:
    """Drive each game through ``raw_env`` with a biased random policy; check its first position,
    its final one and each other one with probability ``rate``."""
    for players, options, seed, rate in games:
        e = raw_env(num_players=players, **options)
        e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        where = f"raw_env({players}, {options}) seed {seed}"
        first = True
        while True:
            g = e.game
            if first or g.is_over() or rng.random() < rate:
                checker.check(e, f"{where} decision {int(g.state.glob[G_DECISIONS])}")
                first = False
            if g.is_over():
                break
            e.step(biased_random_action(g, rng))


def _palace15() -> Game:
    """Seat 0 (Inventors, Plains) builds its Palace with tile 15 next to Guild r8c6 + Workshop r6c6."""
    sc = Scenario("aoi(players=3)", factions=["inventors", "monks", "illusionists"], boards=["plains", "lake", "swamp"])
    sc.round(2, tile="T9").build(0, "r8c6", "guild").build(0, "r6c6", "workshop").build(0, "r7c5", "guild")
    g = sc.offer_palace(15, 17).set(0, tools=5, coins=8).turn(0)
    return play(g, "upgrade palace", "upgrade r7c5", "palace 15")


def _river_groups() -> Scenario:
    """Seat 0: Workshop r7c7 south of river hex r6c7, Guild r5c7 + Workshop r5c8 north of it."""
    sc = Scenario("aoi(players=3)", factions=["inventors", "monks", "illusionists"], boards=["plains", "lake", "swamp"])
    return sc.round(2, tile="T9").build(0, "r7c7", "workshop").build(0, "r5c7", "guild").build(0, "r5c8", "workshop")


def _lizards() -> Game:
    """Lizards (Swamp): a Workshop on r8c8 founds a city with Palace + Guild + Workshop (R94)."""
    sc = Scenario("aoi(players=3)", factions=["lizards", "goblins", "omar"], boards=["swamp", "desert", "lake"])
    sc.round(1, tile="T10").build(0, "r8c5", "palace").build(0, "r8c6", "guild").build(0, "r8c7", "workshop")
    g = sc.terrain("r8c8", "swamp").terrain("r7c6", "plains").set(0, tools=6, coins=10).turn(0)
    return play(g, "build", "target r8c8")


def _sold_out() -> Game:
    """5 players: seats 0-3 hold the competency of display space 0, so no copy of it is left."""
    sc = Scenario("aoi(players=5)")
    first = int(sc.state().glob[G_COMP_SPACES.start])
    for seat in range(4):
        sc.competency(seat, f"C{first + 1}")
    return sc.turn(4)


def scripted_positions() -> list[tuple[str, Game, tuple[str, ...]]]:
    """(label, start position, moves): every prefix of the moves is a checked position."""
    river = _river_groups().build(0, "r7c6", "guild").offer_palace(14, 17).set(0, tools=4, coins=6).turn(0)
    university = _river_groups().build(0, "r7c6", "school").build(0, "r0c4", "palace").palace_tile(0, 14)
    return [
        ("palace 15", _palace15(), ("part spades", "target r7c6", "spades 1", "workshop", "part bridges",
                                    "bridge r5c7", "bridge to r6c6", "part books", "book law", "book law")),
        ("palace 14", river, ("upgrade palace", "upgrade r7c6", "palace 14", "rivercity r6c7")),
        ("university river city", university.set(0, tools=5, coins=8).turn(0),
         ("upgrade university", "upgrade r7c6", "rivercity r6c7", "first competency")),
        ("lizards", _lizards(), ("city K1", "target r7c6", "spades 1")),
        ("key", Scenario("aoi(players=3)").set(0, science=(0, 0, 7, 0), cities=1, scholars=1).turn(0),
         ("scholar engineering 3", "key engineering")),
        ("competency sold out", _sold_out(), ()),
    ]  # fmt: skip


def run_scripted(checker: Checker) -> None:
    for label, start, moves in scripted_positions():
        e = raw_env(num_players=start.seats)
        e.reset(options={"game": start})  # the env plays a copy of the position
        checker.check(e, f"{label} start")
        for k, move in enumerate(moves):
            e.step(e.game.parse_move(move))
            checker.check(e, f"{label} after {k + 1} moves")


@pytest.fixture(scope="module")
def checked() -> Checker:
    checker = Checker()
    run_random_games(checker)
    run_scripted(checker)
    return checker


# -- tests -------------------------------------------------------------------------------------


def test_every_block_decodes_to_the_truth(checked: Checker) -> None:
    """Every block of every observer's observation equals the card's decoding of the state."""
    report = {name: f"{len(v)}x, first: {v[0]}" for name, v in checked.mismatches.items()}
    assert not report, report


def test_every_block_was_checked_with_a_non_trivial_value(checked: Checker) -> None:
    assert checked.positions >= 1000 and checked.decoded >= 8000, (checked.positions, checked.decoded)
    assert {name for name in NAMES if checked.covered[name] == 0} == set()
    for seats in (2, 3, 4, 5):
        assert checked.seen[f"seats {seats}"] >= 10
    for phase in Phase.NAMES:
        assert checked.seen[f"phase {phase}"] >= 1, phase
    for feature in (
        "automa observer",
        "automa discard pile",
        "area token face up",
        "neutral scholar",
        "reach: own building hex in reach",
        "decision in another seat's turn",
        "hex_pending TB_SPADES",
        "hex_pending TB_FINISH",
        "hex_pending BRIDGE_DIR",
        "hex_pending LIZARD_BUILD",
        "pending_count OFFER",
        "pending_count CHOOSE_BOOKS",
        "pending_count TB_FINISH",
        "reward order CHOOSE_COMPETENCY",
        "reward order PALACE_EFFECT",
        "kind SOLO_PICK",
        "kind PICK_BUNDLE",
        "kind DRAFT_PICK",
        "kind PALACE15",
        "kind RIVER_CITY",
        "kind USE_KEY",
        "competency display space with no copy left",
        "innovation display space emptied",
        "observer without a planning board",
        "reach: B1's +1",
        "bridge direction 0",
        "bridge direction 1",
        "bridge direction 2",
    ):
        assert checked.seen[feature] > 0, feature


def test_egocentric_rotation_of_player_rows() -> None:
    """Observer o's relative row r is observer 0's row (o + r) mod n, and absent rows are zero."""
    g = Game("aoi(players=2,automa=druids:4)", seed=5)
    rng = np.random.default_rng(5)
    for _ in range(120):
        g.apply_action(biased_random_action(g, rng))
    enc = ObservationEncoder(compiled=False)
    base = decode(enc.encode(g, 0))
    n = g.seats
    rows = [name for name in NAMES if name.startswith("player_") and name != "player_present"]
    for o in range(n):
        view = decode(enc.encode(g, o))
        for name in rows:
            for r in range(5):
                want = base[name][(o + r) % n] if r < n else np.zeros_like(base[name][0])
                assert np.array_equal(view[name][r], want), (name, o, r)
        assert view["player_present"].tolist() == [1.0] * n + [0.0] * (5 - n)


@pytest.mark.parametrize("game", ["aoi(players=2)", "aoi(players=1,automa=simpletons:3+mimics:2)"])
def test_hidden_information_is_not_in_the_observation(game: str) -> None:
    """ "hidden are only ... the 2-player area token until round 6 (R25) and the order of the
    Automa's face-down deck and reserve": redrawing them leaves every observation unchanged."""
    g = Game(game, seed=3)
    rng = np.random.default_rng(3)
    changed = 0
    for _ in range(60):
        g.apply_action(biased_random_action(g, rng))
        if int(g.state.glob[G_ROUND]) >= 6:
            break
        other = resample(g, rng)
        changed += not np.array_equal(other.state.glob, g.state.glob)
        for seat in range(g.seats):
            assert np.array_equal(
                ObservationEncoder(compiled=False).encode(other, seat),
                ObservationEncoder(compiled=False).encode(g, seat),
            )
    assert changed > 0


def test_the_oracle_notices_a_change_in_any_block() -> None:
    """Sanity of the oracle itself: changing one value of any block is reported for that block only."""
    g = Game("aoi(players=2,automa=mimics:3)", seed=4)
    rng = np.random.default_rng(4)
    for _ in range(40):
        g.apply_action(biased_random_action(g, rng))
    obs = ObservationEncoder(compiled=False).encode(g, 1)
    clean: Mismatches = {}
    compare(obs, g, 1, "clean", Counter(), Counter(), clean)
    assert clean == {}
    for name, sl, _, _ in BLOCKS:
        bad = obs.copy()
        i = sl.start + (sl.stop - sl.start) // 2
        bad[i] = 1.0 if bad[i] < 0.5 else 0.0
        found: Mismatches = {}
        compare(bad, g, 1, "changed", Counter(), Counter(), found)
        assert list(found) == [name]


def numba_off_summary() -> dict[str, Any]:
    """A few random games checked in a process started with ``AOI_ENV_NUMBA=0`` (see below)."""
    checker = Checker()
    run_random_games(checker, [RANDOM_GAMES[i] for i in (0, 5, 8, 13)])  # 2, 4, 5 seats; 2 Automas
    return {
        "numba": NUMBA,
        "compiled": ObservationEncoder().compiled,
        "positions": checker.positions,
        "decoded": checker.decoded,
        "mismatches": {name: found[:2] for name, found in checker.mismatches.items()},
    }


def test_env_with_numba_off_decodes_to_the_truth() -> None:
    """``AOI_ENV_NUMBA=0`` (read at import, ObservationEncoder's docstring): the env's own encoder
    is then the numpy one; its observations decode to the truth as well."""
    code = "import json, tests.test_oracle_observation as t; print(json.dumps(t.numba_off_summary()))"
    env = {**os.environ, "AOI_ENV_NUMBA": "0"}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert summary["numba"] is False and summary["compiled"] is False
    assert summary["positions"] >= 50, summary
    assert summary["mismatches"] == {}, summary["mismatches"]


def test_numpy_encoder_reused_for_a_game_with_more_seats() -> None:
    """The card: "`ObservationEncoder().encode(game, seat)` gives one observation of an engine
    `Game`"; one encoder reused for another game must still give that game's observation.  (The
    numpy encoder's shared map cache was keyed without the number of seats: a game with more
    seats on the same map raised IndexError.)"""
    enc = ObservationEncoder(compiled=False)
    enc.encode(Game("aoi(players=2)", seed=1), 0)
    g = Game("aoi(players=3,map=1-3)", seed=1)
    mismatches: Mismatches = {}
    obs = enc.encode(g, 2)
    compare(obs, g, 2, "reused encoder", Counter(), Counter(), mismatches)
    assert not mismatches
    assert np.array_equal(obs, ObservationEncoder(compiled=False).encode(g, 2))
