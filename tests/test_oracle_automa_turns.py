"""Oracle: everything the solo Automa does on her turns, apart from the hex she picks.

An independent reading of ``docs/AUTOMA.md`` (the official solo Automa) is compared
with the engine (``aoi_env/core/automa.py``) in random games.  The oracle reads the raw state
arrays, the Automa record through ``automa.py``'s layout constants only (deck, reserve, discard)
and static component data; it calls **no** decision function of ``automa.py`` (no ``is_pass``,
``build_steps``, ``catch_up``, ``resolve_*``, ``pass_vp`` ...).  Cards, difficulty tables, round
tile Automa icons and faction rules are re-typed below from AUTOMA.md.  The hex of a T&B /
Upgrade is checked by ``tests/test_oracle_automa_targets.py``; here the map step is only checked
to touch one hex of hers, and the power it offers the humans is recomputed (Powermongers).

``automa_frames`` (aoi_env/core/flow.py) snapshots the position before each Automa turn and
reports each of her steps; a second wrapper (this file) snapshots the position before each step.
Every step's expected effect is computed from the position just before it (humans may answer
power offers between two steps) and compared with the whole state the step leaves: the players
array (her power bowls aside, she has no resources), the hexes, and the global fields of the
board (X tokens, scholar spaces, innovations, bonus tiles, pass order, Automa records).

Checked, in every turn:

* §4.3 draw and pass check: support = top card, action = next card; pass iff no action card or
  <= 2 cards left with a pass icon on the action card; deck / discard / support after the draw;
* §4.4 the step list (printed order, §2.5 faction action, Powermongers' conditional advance after
  the first T&B / Upgrade of each printed action, no Take Innovation before round 3, VP steps
  DL(round, level) + faction modifier, steps <= 0 VP dropped) == the engine's sequence of steps;
* §4.5 pass: round-tile Automa VP (§2.4, R1-3 / R4-6 side, round 6 the final tile), Racelings
  twice when nobody passed before her, the left / middle / right bonus tile of the support card
  (her old tile takes its slot, its coins go back, none for her; no tile in round 6, §10 #30),
  her place in the pass order (= her place in the next round's turn order, §4.2);
* §5.4 BLOCK (one uncovered spell in printed order, one uncovered book action, directional),
  §5.5 Send Scholar (scoring-tile or catch-up discipline, the "3" space else a "2" space, else
  1 level, 7 scholars), §5.6 Advance (catch-up, Druids 2 levels), §5.7 Take Innovation (reading
  order of the display, < 3 held, no effect), §5.8 Gain VP, §7 Powermongers (offered >= 2);
  science track rules for her: no key (never a city, §10 #26), level 12 only once (R52, §10 #14);
* §4.6 / §3.5 / §2.3 the deck: the starting deck and reserve per level, every next-round deck =
  old deck + discard + the reserve's top card, reshuffled; her ship level per round;
* §4.1, §1 between her turns nothing of hers changes (no income, no science bonus, no power);
* §8 her final scoring: area (Reach with her round-6 ship level, no bridges) and science
  majorities with shared ranks (R83, R84), Wanderers +2 VP per building, no resources.
"""

from __future__ import annotations

import collections
import contextlib
import itertools

import numpy as np

from aoi_env import Game
from aoi_env.core.automa import (
    A_DECK,
    A_DECK_LEN,
    A_DISCARD,
    A_DISCARD_LEN,
    A_FACTION,
    A_LEVEL,
    A_RESERVE,
    A_RESERVE_LEN,
    A_SEAT,
    A_SUPPORT,
    AUTOMA_FIELDS,
)
from aoi_env.core.engine import AUTO
from aoi_env.core.flow import automa_frames
from aoi_env.core.pending import Kind
from aoi_env.core.rules import scoring
from aoi_env.core.state import (
    G_AREA_TOKEN,
    G_AUTOMA,
    G_BONUS_COINS,
    G_BONUS_ROW,
    G_BONUS_STATE,
    G_BOOKS_USED,
    G_CITY_LEFT,
    G_COMP_LEFT,
    G_FINAL_TILE,
    G_INNOV_OWNER,
    G_INNOV_SPACES,
    G_NEUTRAL_SCIENCE,
    G_NEXT_COUNT,
    G_NEXT_ORDER,
    G_ORDER,
    G_PALACE_STATE,
    G_ROUND,
    G_ROUND_TILES,
    G_SCHOLAR_SPACES,
    G_SPELLS_USED,
    H_BUILDING,
    H_OWNER,
    H_PAVILION,
    P_BONUS,
    P_BOOKS,
    P_BOWLS,
    P_BUILT,
    P_CITIES,
    P_COINS,
    P_INNOVATIONS,
    P_PALACE_TILE,
    P_PASSED,
    P_SAILING,
    P_SCHOLAR_SUPPLY,
    P_SCHOLARS,
    P_SCIENCE,
    P_TOOLS,
    P_VP,
    turn_seat,
)
from aoi_env.data import NUM_POSITIONS
from aoi_env.data.enums import Building, Terrain
from aoi_env.testing import biased_random_action, random_action
from tests.rules.oracle_common import (
    AREA_VP,
    DISC,
    POWER_VALUE,
    SCIENCE_VP,
    adjacent,
    built_bridges,
    groups,
    ranked_payouts,
    reach_from,
)

# ------------------------------------------------------------------------------------------------
# tables re-typed from AUTOMA.md

# §2.2: card -> (printed actions, VP ("DL", a number or None), pass icon, direction, count,
#                science selection, round bonus slot 0 left / 1 middle / 2 right)
CARDS = {
    1: (("upgrade", "vp"), "DL", False, "RD", 2, "SCORE", 0),
    2: (("block", "vp"), "DL", True, "LU", 1, "CATCH", 1),
    3: (("scholar",), None, False, "RD", 3, "SCORE", 2),
    4: (("tb",), None, True, "LU", 3, "CATCH", 0),
    5: (("faction",), None, False, "LU", 2, "CATCH", 1),
    6: (("innovation", "advance"), None, False, "RD", 1, "CATCH", 2),
    7: (("faction",), None, True, "RD", 4, "CATCH", 0),
    8: (("scholar", "vp"), 3, True, "RD", 1, "CATCH", 1),
    9: (("scholar", "vp"), 3, True, "RD", 2, "CATCH", 2),
    10: (("upgrade", "vp"), 2, True, "LU", 4, "CATCH", 0),
    11: (("upgrade", "vp"), "DL", True, "LU", 2, "CATCH", 1),
    12: (("block", "vp"), "DL", True, "LU", 3, "CATCH", 2),
    13: (("tb", "vp"), 3, True, "LU", 1, "CATCH", 0),
    14: (("block", "vp"), "DL", True, "RD", 3, "CATCH", 1),
}
STARTERS = {1, 2, 3, 4, 5, 6}
ADVANCED = set(range(7, 15))
# §2.3: ship level and DL-VP by level, rounds 1..6; deck / reserve sizes at the start
SHIP = {1: (0, 0, 1, 1, 2, 2), 2: (0, 0, 1, 1, 2, 2), 3: (1, 1, 2, 2, 2, 2), 4: (1, 1, 2, 2, 2, 2),
        5: (1, 1, 2, 2, 3, 3)}  # fmt: skip
DL_VP = {1: (0, 0, 1, 1, 1, 1), 2: (1, 1, 2, 2, 3, 3), 3: (2, 2, 2, 2, 3, 3), 4: (2, 2, 3, 3, 3, 3),
         5: (3, 3, 4, 4, 4, 4)}  # fmt: skip
DECK_SIZE = {1: 5, 2: 6, 3: 7, 4: 8, 5: 8}
B, LW, E, M = range(4)
# §2.5 / §7: starting science steps, what the Faction action becomes, VP modifier of its VP step
FACTIONS = {
    "simpletons": ((1, 1, 1, 1), ("tb", "vp"), 0),
    "kuddlers": ((1, 1, 0, 0), ("tb", "vp"), 1),
    "druids": ((0, 0, 0, 2), ("tb", "advance2"), None),
    "racelings": ((0, 1, 0, 1), ("tb",), None),
    "wanderers": ((1, 0, 1, 0), ("tb_anywhere", "vp"), -1),
    "mimics": ((0, 1, 1, 0), ("tb", "vp"), 1),
    "powermongers": ((0, 0, 1, 1), ("tb", "vp"), 0),
}
FACTION_NAMES = tuple(FACTIONS)
# §2.4: app tile -> (Automa icon discipline, VP rounds 1-3, VP rounds 4-6); final tiles app 1-4
APP_ROUND_TILES = {
    1: (B, 3, 7), 2: (B, 4, 4), 3: (B, 3, 5), 4: (LW, 4, 4), 5: (LW, 2, 5), 6: (LW, 3, 5),
    7: (E, 3, 5), 8: (E, 2, 5), 9: (E, 0, 4), 10: (M, 4, 4), 11: (M, 3, 5), 12: (M, 2, 5),
}  # fmt: skip
APP_FINAL_TILES = {1: (M, 8), 2: (LW, 6), 3: (E, 7), 4: (B, 7)}
# docs/automa.md "Round score tiles" (an [INT] of the engine: app tiles matched to RULES.md ids
# within a discipline in increasing order; only app 7 = T2, the spade tile, is given by AUTOMA.md)
T_TO_APP = {"T3": 1, "T9": 2, "T12": 3, "T1": 4, "T5": 5, "T10": 6, "T2": 7, "T6": 8, "T8": 9,
            "T4": 10, "T7": 11, "T11": 12}  # fmt: skip
F_TO_APP = {"F4": 1, "F2": 2, "F3": 3, "F1": 4}  # DATA.md's audit (workshop, guild, school, edge)
# §10 #18: the spell row as printed, left to right (RULES.md ids)
SPELL_ROW = ("S1", "S2", "S4", "S5", "S3", "S6")
SCHOLAR_VALUES = (3, 2, 2, 2)  # §5.5 / RB: one "3" space and three "2" spaces per discipline
# R41 power values (Workshop 1, Guild 2, School 2, University 3, Palace 3, Tower 2, Monument 4)
MAX_LEVEL, KEY_LEVEL = 12, 8  # R47, R50
PLAYER_PIECES = (Building.WORKSHOP, Building.GUILD, Building.SCHOOL, Building.UNIVERSITY, Building.PALACE)

STEP_NAME = {
    "tb": "terraform & build",
    "tb_anywhere": "terraform & build anywhere",
    "upgrade": "upgrade",
    "block": "block",
    "scholar": "scholar",
    "advance": "advance",
    "innovation": "innovation",
    "vp": "victory points",
    "pm_advance": "advance (Powermongers)",
}
MAP_STEPS = ("tb", "tb_anywhere", "upgrade")

# the global fields an Automa step may touch or must leave alone (compared after every step)
GLOB_FIELDS = {
    "spells used": G_SPELLS_USED,
    "books used": G_BOOKS_USED,
    "scholar spaces": G_SCHOLAR_SPACES,
    "innovation spaces": G_INNOV_SPACES,
    "innovation owners": G_INNOV_OWNER,
    "bonus state": G_BONUS_STATE,
    "bonus coins": G_BONUS_COINS,
    "bonus row": G_BONUS_ROW,
    "next order": G_NEXT_ORDER,
    "next count": slice(G_NEXT_COUNT, G_NEXT_COUNT + 1),
    "round": slice(G_ROUND, G_ROUND + 1),
    "neutral science": G_NEUTRAL_SCIENCE,
    "city tiles": G_CITY_LEFT,
    "palace tiles": G_PALACE_STATE,
    "competencies": G_COMP_LEFT,
}


def _pick(k: int, direction: str, count: int) -> int:
    """§5.1 directional selection over k options listed left to right / in reading order:
    RD the n-th from the front, LU the n-th from the back, counting on from the start again."""
    i = (count - 1) % k
    return i if direction == "RD" else k - 1 - i


# ------------------------------------------------------------------------------------------------
# the oracle


class Record:
    """The Automa record of one seat, read through the layout constants only."""

    def __init__(self, glob: np.ndarray, seat: int) -> None:
        block = glob[G_AUTOMA].reshape(-1, AUTOMA_FIELDS)
        rows = [r for r in block if r[A_SEAT] == seat and r[A_LEVEL] > 0]
        assert len(rows) == 1, f"no Automa record for seat {seat}"
        r = rows[0]
        self.level = int(r[A_LEVEL])
        self.faction = int(r[A_FACTION])
        self.deck = [int(x) for x in r[A_DECK][: r[A_DECK_LEN]]]
        self.reserve = [int(x) for x in r[A_RESERVE][: r[A_RESERVE_LEN]]]
        self.discard = [int(x) for x in r[A_DISCARD][: r[A_DISCARD_LEN]]]
        self.support = int(r[A_SUPPORT])
        # padding beyond the lengths is zero
        assert not r[A_DECK][r[A_DECK_LEN] :].any() and not r[A_DISCARD][r[A_DISCARD_LEN] :].any()
        assert not r[A_RESERVE][r[A_RESERVE_LEN] :].any()

    def piles(self) -> tuple:
        return self.deck, self.reserve, self.discard, self.support


class Oracle:
    def __init__(self, g: Game, specs: dict[int, tuple[str, int]], label: str) -> None:
        self.g = g
        self.specs = specs
        self.label = label
        self.humans = list(range(g.config.players))
        self.stats: collections.Counter = collections.Counter()
        self.data = g.data
        assert tuple(g.data.spell_ids) == SPELL_ROW  # G_SPELLS_USED is in the printed order
        assert tuple(g.data.raw["science"]["scholar_spaces"]) == SCHOLAR_VALUES
        # §2.4: the spade tile (app 7 = T2) is not used in round 5 or 6
        tiles = [g.data.round_tile_ids[int(t)] for t in g.state.glob[G_ROUND_TILES]]
        assert "T2" not in tiles[4:], tiles
        self.nbrs = [[int(q) for q in np.flatnonzero(g.geo.adj[p])] for p in range(NUM_POSITIONS)]
        printed = np.asarray(g.geo.terrain)
        self.land = printed < Terrain.RIVER
        self.river = printed == Terrain.RIVER
        # per seat: what the oracle last saw of her
        self.last_row: dict[int, np.ndarray] = {}
        self.last_round: dict[int, int] = {}
        self.last_piles: dict[int, tuple] = {}
        self.pass_index: dict[int, int] = {}
        self.first_turn_done: set[int] = set()
        self.r6_row: dict[int, np.ndarray] = {}
        # the turn in progress
        self.turn: dict | None = None

    # -- small readers ---------------------------------------------------------------------------

    def where(self, state) -> str:  # noqa: ANN001
        return f"{self.label} round {int(state.glob[G_ROUND])}"

    def adjacent(self, state, pos: int) -> set[int]:  # noqa: ANN001
        """R38: a shared edge, or a built bridge."""
        return adjacent(self.nbrs, built_bridges(state), pos)

    def can_advance(self, state, seat: int, d: int) -> bool:  # noqa: ANN001
        """§10 #14: not at 12, not at 11 with 12 taken by another marker (R52), not at 7 (no key)."""
        levels = state.players[:, P_SCIENCE.start + d]
        lv = int(levels[seat])
        taken = any(int(levels[s]) >= MAX_LEVEL for s in range(len(levels)) if s != seat)
        return lv < MAX_LEVEL and not (lv == MAX_LEVEL - 1 and taken) and lv != KEY_LEVEL - 1

    def advanced(self, state, seat: int, d: int, n: int) -> int:  # noqa: ANN001
        """Her level after n steps in d: stops at 7 (no key, R50) and at 12 / 11 with 12 taken (R52)."""
        levels = state.players[:, P_SCIENCE.start + d]
        lv = int(levels[seat])
        taken = any(int(levels[s]) >= MAX_LEVEL for s in range(len(levels)) if s != seat)
        for _ in range(n):
            if lv >= MAX_LEVEL or (lv == MAX_LEVEL - 1 and taken) or lv == KEY_LEVEL - 1:
                self.stats["science: steps lost"] += 1
                break
            lv += 1
        return lv

    def catch_up(self, state, seat: int, support: int) -> int | None:  # noqa: ANN001
        """§5.1 catch-up: drop what she cannot advance; a. at 0; b. closest to the highest human
        marker; c. directional over Banking, Law, Engineering, Medicine."""
        opts = [d for d in range(4) if self.can_advance(state, seat, d)]
        if not opts:
            self.stats["catch-up: nothing"] += 1
            return None
        mine = state.players[seat, P_SCIENCE]
        zero = [d for d in opts if mine[d] == 0]
        if zero:
            opts = zero
        if len(opts) > 1:
            top = state.players[self.humans][:, P_SCIENCE].max(axis=0)
            gap = {d: abs(int(mine[d]) - int(top[d])) for d in opts}
            best = min(gap.values())
            opts = [d for d in opts if gap[d] == best]
        if len(opts) > 1:
            self.stats["catch-up: directional"] += 1
        direction, count = CARDS[support][3], CARDS[support][4]
        return opts[_pick(len(opts), direction, count)]

    def tile_icon(self, state) -> tuple[int, int]:  # noqa: ANN001
        """§2.4: (discipline, Automa VP) of this round's tile; round 6 the final tile."""
        rnd = int(state.glob[G_ROUND])
        if rnd == 6:
            return APP_FINAL_TILES[F_TO_APP[self.data.final_tile_ids[int(state.glob[G_FINAL_TILE])]]]
        disc, early, late = APP_ROUND_TILES[T_TO_APP[self.data.round_tile_ids[int(state.glob[G_ROUND_TILES][rnd - 1])]]]
        return disc, early if rnd <= 3 else late

    def offered(self, state, seat: int, pos: int) -> tuple[int, int]:  # noqa: ANN001
        """Most power one human is offered for her building on pos (R42.2: the sum of the power
        values of their adjacent buildings), and most one human could gain of it (R42.5:
        min(v, 2 |I| + |II|, VP + 1))."""
        h = state.hexes
        best_v = best_gain = 0
        adj = self.adjacent(state, pos)
        for s in self.humans:
            v = sum(POWER_VALUE[int(h[q, H_BUILDING])] + int(h[q, H_PAVILION])
                    for q in adj if h[q, H_BUILDING] > 0 and h[q, H_OWNER] == s)  # fmt: skip
            bowls = state.players[s, P_BOWLS]
            gain = min(v, 2 * int(bowls[0]) + int(bowls[1]), int(state.players[s, P_VP]) + 1)
            best_v, best_gain = max(best_v, v), max(best_gain, gain)
        return best_v, best_gain

    # -- §4.4 the step list ----------------------------------------------------------------------

    def steps(self, action: int, rnd: int, seat: int) -> list[tuple[str, int]]:
        faction, level = self.specs[seat]
        start, faction_action, modifier = FACTIONS[faction]
        dl = DL_VP[level][rnd - 1]
        out: list[tuple[str, int]] = []
        printed_actions, vp = CARDS[action][0], CARDS[action][1]
        for printed in printed_actions:
            part: list[tuple[str, int]] = []
            if printed == "faction":
                for sub in faction_action:
                    if sub == "vp":
                        part.append(("vp", max(dl + modifier, 0)))
                    elif sub == "advance2":
                        part.append(("advance", 2))
                    else:
                        part.append((sub, 0))
            elif printed == "vp":
                part.append(("vp", dl if vp == "DL" else vp))
            elif printed == "innovation":
                if rnd >= 3:  # §4.4.5
                    part.append(("innovation", 0))
                else:
                    self.stats["innovation left out (round 1-2)"] += 1
            elif printed == "advance":
                part.append(("advance", 1))
            else:
                part.append((printed, 0))
            if faction == "powermongers":  # §4.4.2
                for i, (kind, _) in enumerate(part):
                    if kind in MAP_STEPS:
                        part.insert(i + 1, ("pm_advance", 1))
                        break
            out.extend(part)
        dropped = [s for s in out if s[0] == "vp" and s[1] <= 0]
        if dropped:
            self.stats["vp step dropped"] += 1
        return [s for s in out if not (s[0] == "vp" and s[1] <= 0)]

    # -- hooks -----------------------------------------------------------------------------------

    def before_turn(self, g: Game) -> None:
        self.finish_turn()
        state = g.state.clone()
        seat = turn_seat(state)
        assert seat in self.specs, seat
        faction, level = self.specs[seat]
        rnd = int(state.glob[G_ROUND])
        where = self.where(state)
        rec = Record(state.glob, seat)
        assert rec.level == level and FACTION_NAMES[rec.faction] == faction
        row = state.players[seat]
        # §1 / §10 #26: never a city, so never a key; §2.3 ship level of the round
        assert row[P_CITIES] == 0, where
        assert row[P_SAILING] == SHIP[level][rnd - 1], (where, int(row[P_SAILING]))
        assert state.glob[G_AREA_TOKEN] == 0 and not state.glob[G_NEUTRAL_SCIENCE].any(), where  # §3.1
        if seat not in self.first_turn_done:
            self.first_turn(state, seat, rec, where)
        else:
            self.between_turns(state, seat, rec, where)
        self.last_round[seat] = rnd
        deck = rec.deck
        assert deck, f"{where}: seat {seat} has an empty deck on her turn"
        support, rest = deck[0], deck[1:]
        passes = not rest or (len(rest) <= 2 and CARDS[rest[0]][2])
        exp_piles = (rest, rec.reserve, [support, *rec.discard], support)
        self.turn = dict(seat=seat, before=state, where=where, support=support, passes=passes,
                         piles=exp_piles, got=[], pre=None, last_offer=None)  # fmt: skip
        if passes:
            self.stats["pass: no action card" if not rest else "pass: icon"] += 1
            self.turn["expected"] = []
        else:
            self.turn["expected"] = self.steps(rest[0], rnd, seat)
            self.stats["turns"] += 1
            if len(rest) <= 2:
                self.stats["no pass: <= 2 cards, no icon"] += 1

    def first_turn(self, state, seat: int, rec: Record, where: str) -> None:  # noqa: ANN001
        """§3.4, §3.5, §2.3: her components and deck at her first turn of round 1."""
        faction, level = self.specs[seat]
        row = state.players[seat]
        assert int(state.glob[G_ROUND]) == 1, where
        assert list(row[P_SCIENCE]) == list(FACTIONS[faction][0]), (where, list(row[P_SCIENCE]))
        assert row[P_VP] == 20 and row[P_SCHOLAR_SUPPLY] == 7, where
        assert not row[P_COINS] and not row[P_TOOLS] and not row[P_BOOKS].any() and not row[P_SCHOLARS], where
        # §3.7: round 1 turn order: the humans first, then the Automas
        order = [int(x) for x in state.glob[G_ORDER][: self.g.seats]]
        assert set(order[: len(self.humans)]) == set(self.humans), (where, order)
        assert order[len(self.humans) :] == sorted(self.specs), (where, order)
        deck, reserve = rec.deck, rec.reserve
        assert not rec.discard, where
        assert len(deck) == DECK_SIZE[level] and len(deck) + len(reserve) == 14, (where, deck, reserve)
        assert sorted(deck + reserve) == list(range(1, 15)), (where, deck, reserve)
        if level == 1:
            assert set(deck) == STARTERS - {3} and reserve[0] == 3, (where, deck, reserve)
        else:
            assert set(deck) >= STARTERS, (where, deck)
            if level == 5:
                assert 13 in deck, (where, deck)
            extra = sorted(set(deck) - STARTERS - ({13} if level == 5 else set()))
            self.stats[f"L{level} extra {extra}"] += 1
        self.stats["first turns"] += 1
        self.first_turn_done.add(seat)

    def between_turns(self, state, seat: int, rec: Record, where: str) -> None:  # noqa: ANN001
        """§4.1, §4.6: nothing of hers changes between her turns (no income, no science bonus,
        no power, no VP), except the pass flag and ship level at a new round; a new round brings
        the deck of §4.6 and puts her in the turn order where she passed."""
        rnd = int(state.glob[G_ROUND])
        last = self.last_row[seat]
        row = state.players[seat]
        same = np.ones(len(row), dtype=bool)
        same[P_PASSED] = same[P_SAILING] = False
        diff = np.flatnonzero((row != last) & same)
        assert not len(diff), f"{where}: her row changed between turns at {diff.tolist()}"
        deck0, reserve0, discard0, _ = self.last_piles[seat]
        if rnd == self.last_round[seat]:
            assert row[P_PASSED] == 0
            assert rec.piles() == self.last_piles[seat], where
            return
        assert rnd == self.last_round[seat] + 1, where
        # §4.6: deck rest + discard + the reserve's top card, shuffled; the discard is empty
        pool = deck0 + discard0 + reserve0[:1]
        assert sorted(rec.deck) == sorted(pool), (where, rec.deck, pool)
        assert rec.reserve == reserve0[1:] and rec.discard == [], (where, rec.reserve, rec.discard)
        level = self.specs[seat][1]
        assert len(rec.deck) == min(DECK_SIZE[level] + rnd - 1, 14), (where, rec.deck)
        self.stats["new round decks"] += 1
        if rec.deck != pool:
            self.stats["new round deck reordered"] += 1
        # §4.2: her place in this round's order is where she passed last round
        order = [int(x) for x in state.glob[G_ORDER][: self.g.seats]]
        assert order.index(seat) == self.pass_index[seat], (where, order, self.pass_index[seat])

    def before_step(self, g: Game) -> None:
        t = self.turn
        assert t is not None and not t["passes"]
        state = g.state.clone()
        seat = t["seat"]
        if t["pre"] is None:  # the draw (§4.3) happened just before the first step
            assert Record(state.glob, seat).piles() == t["piles"], (t["where"], Record(state.glob, seat).piles())
            diff = np.flatnonzero((state.players != t["before"].players).any(axis=1))
            assert not len(diff), f"{t['where']}: the draw changed players {diff.tolist()}"
        t["pre"] = state

    def after_step(self, g: Game, seat: int, what: str) -> None:
        t = self.turn
        assert t is not None and seat == t["seat"], (seat, t)
        t["got"].append(what)
        if what == "passes":
            assert t["passes"], f"{t['where']}: seat {seat} passed, the oracle expects {t['expected']}"
            self.check_pass(g, t)
            return
        k = len(t["got"]) - 1
        assert k < len(t["expected"]), f"{t['where']}: extra step {what!r}, expected {t['expected']}"
        kind, value = t["expected"][k]
        assert what == STEP_NAME[kind], f"{t['where']}: step {k} is {what!r}, expected {kind} ({t['expected']})"
        self.check_step(g, t, kind, value)

    def finish_turn(self) -> None:
        t = self.turn
        if t is None:
            return
        names = [STEP_NAME[k] for k, _ in t["expected"]] if not t["passes"] else ["passes"]
        assert t["got"] == names, f"{t['where']}: steps {t['got']}, expected {names}"
        self.stats["checked turns"] += 1
        self.turn = None

    # -- expected effects ------------------------------------------------------------------------

    def compare(self, pre, post, exp_players, exp_glob: dict, where: str, map_step: bool = False) -> None:  # noqa: ANN001
        seat = self.turn["seat"]
        mask = np.ones(exp_players.shape, dtype=bool)
        mask[seat, P_BOWLS] = False  # she has no resources (§1); the engine moves tokens she never uses
        if map_step:
            mask[seat, P_BUILT] = False  # checked against the map below
        bad = np.argwhere((post.players != exp_players) & mask)
        assert not len(bad), f"{where}: players differ at {bad.tolist()} (got {post.players[tuple(bad[0])]}, " \
            f"expected {exp_players[tuple(bad[0])]})"  # fmt: skip
        for name, field in GLOB_FIELDS.items():
            got, exp = post.glob[field].tolist(), exp_glob.get(name, pre.glob[field]).tolist()
            assert got == exp, f"{where}: {name} {got}, expected {exp}"
        if not map_step:
            assert (post.hexes == pre.hexes).all(), f"{where}: the map changed"
        for s in self.specs:  # her piles move only in the draw (checked there); the other's never
            if s != seat or self.turn["pre"] is not None:
                assert Record(post.glob, s).piles() == Record(pre.glob, s).piles(), where

    def check_step(self, g: Game, t: dict, kind: str, value: int) -> None:
        pre, post, seat, support = t["pre"], g.state, t["seat"], t["support"]
        where = f"{t['where']} step {kind}"
        exp = pre.players.copy()
        glob: dict = {}
        direction, count = CARDS[support][3], CARDS[support][4]
        if kind in MAP_STEPS:
            changed = [int(p) for p in np.flatnonzero((pre.hexes != post.hexes).any(axis=1))]
            assert len(changed) <= 1, (where, changed)
            if changed:
                pos = changed[0]
                assert post.hexes[pos, H_OWNER] == seat and post.hexes[pos, H_BUILDING] > 0, where
                t["last_offer"] = self.offered(pre, seat, pos)
                t["last_map"] = "upgrade" if pre.hexes[pos, H_BUILDING] > 0 else "build"
                self.stats["map step"] += 1
            else:
                t["last_offer"], t["last_map"] = (0, 0), None
                self.stats["map step: nothing"] += 1
            h = post.hexes
            for b in PLAYER_PIECES:  # her pieces on the map = her planning-board counter
                n = int(np.count_nonzero((h[:, H_OWNER] == seat) & (h[:, H_BUILDING] == b)))
                assert post.players[seat, P_BUILT.start + b] == n, where
            self.compare(pre, post, exp, glob, where, map_step=True)
            return
        if kind == "vp":  # §5.8
            exp[seat, P_VP] += value
            self.stats["vp"] += 1
        elif kind == "block":  # §5.4
            for name, field, n in (("spells used", G_SPELLS_USED, 6), ("books used", G_BOOKS_USED, 3)):
                used = pre.glob[field].copy()
                free = [i for i in range(n) if not used[i]]
                if free:
                    used[free[_pick(len(free), direction, count)]] = 1
                    self.stats[f"block {name}"] += 1
                else:
                    self.stats[f"block {name}: row full"] += 1
                glob[name] = used
        elif kind in ("advance", "pm_advance"):  # §5.6, §7 Powermongers
            go = True
            if kind == "pm_advance":
                v, gain = t["last_offer"]
                # §10 #13 "count the amount offered (>= 2)": R42.2 offers v, but R42.5 makes no
                # offer when the human can gain nothing; the engine counts what the human could
                # gain (min(v, capacity, VP + 1)), closer to the app's "you gain >= 2" -- the two
                # readings differ only when that is exactly 1 while v >= 2
                if gain == 0 and v >= 2:
                    self.stats["powermongers: no offer (R42.5), v >= 2"] += 1
                if gain == 1 and v >= 2:
                    self.stats["powermongers: offer v >= 2, gain 1 (readings differ)"] += 1
                go = gain >= 2
                self.stats[f"powermongers advance {go}"] += 1
                self.stats[f"powermongers advance {go} after {t.get('last_map')}"] += 1
            if go:
                d = self.catch_up(pre, seat, support)
                if d is not None:
                    exp[seat, P_SCIENCE.start + d] = self.advanced(pre, seat, d, value)
                    self.stats[f"advance {value}"] += 1
        elif kind == "scholar":  # §5.5
            d = None
            if CARDS[support][5] == "SCORE":
                d = self.tile_icon(pre)[0]
                if not self.can_advance(pre, seat, d):
                    d = None
                    self.stats["scholar: scoring discipline blocked"] += 1
                else:
                    self.stats["scholar: scoring discipline"] += 1
            if d is None:
                d = self.catch_up(pre, seat, support)
            if d is not None:
                spaces = pre.glob[G_SCHOLAR_SPACES].copy()
                free = [d * 4 + i for i in range(4) if spaces[d * 4 + i] == -1]
                if pre.players[seat, P_SCHOLAR_SUPPLY] > 0 and free:
                    space = max(free, key=lambda s: (SCHOLAR_VALUES[s % 4], -s))
                    spaces[space] = seat
                    exp[seat, P_SCHOLAR_SUPPLY] -= 1
                    steps = SCHOLAR_VALUES[space % 4]
                    self.stats[f"scholar on a {steps}"] += 1
                else:
                    steps = 1
                    self.stats["scholar: 1 level, no space or scholar"] += 1
                glob["scholar spaces"] = spaces
                exp[seat, P_SCIENCE.start + d] = self.advanced(pre, seat, d, steps)
        elif kind == "innovation":  # §5.7, §10 #19
            held = [int(x) for x in pre.players[seat, P_INNOVATIONS] if x >= 0]
            if len(held) >= 3:
                self.stats["innovation: has 3"] += 1
            else:
                tiles = pre.glob[G_INNOV_SPACES]
                owners = pre.glob[G_INNOV_OWNER].copy()
                n_spaces = int(np.count_nonzero(tiles >= 0))
                assert n_spaces == 2 * self.g.seats + 2  # R20: 2P + 2 spaces
                # reading order: 2 factions: the two wide top spaces (after the 4 columns in the
                # state), then the row of 4; 3 factions: two rows of 4
                order = [4, 5, 0, 1, 2, 3] if n_spaces == 6 else list(range(8))
                free = [i for i in order if owners[tiles[i]] == -1]
                if free:
                    tile = int(tiles[free[_pick(len(free), direction, count)]])
                    owners[tile] = seat
                    exp[seat, P_INNOVATIONS.start + len(held)] = tile
                    glob["innovation owners"] = owners
                    self.stats["innovation taken"] += 1
                else:
                    self.stats["innovation: display empty"] += 1
        else:
            raise AssertionError(kind)
        self.compare(pre, post, exp, glob, where)
        self.last_row[seat] = post.players[seat].copy()

    def check_pass(self, g: Game, t: dict) -> None:
        """§4.5 and the draw of §4.3."""
        pre, post, seat, support = t["before"], g.state, t["seat"], t["support"]
        where = f"{t['where']} pass"
        faction = self.specs[seat][0]
        rnd = int(pre.glob[G_ROUND])
        exp = pre.players.copy()
        glob: dict = {}
        vp = self.tile_icon(pre)[1]
        first = not pre.players[:, P_PASSED].any()  # §10 #22: no seat has passed yet this round
        if faction == "racelings" and first:
            vp *= 2
            self.stats["racelings double pass vp"] += 1
        exp[seat, P_VP] += vp
        exp[seat, P_PASSED] = 1
        n = int(pre.glob[G_NEXT_COUNT])
        order = pre.glob[G_NEXT_ORDER].copy()
        order[n] = seat
        glob["next order"], glob["next count"] = order, np.array([n + 1])
        if rnd < 6:  # §4.5.3 (no tile in round 6, §10 #30)
            row = [int(x) for x in pre.glob[G_BONUS_ROW] if x >= 0]
            assert len(row) == 3, (where, row)
            slot = CARDS[support][6]
            new, old = row[slot], int(pre.players[seat, P_BONUS])
            state = pre.glob[G_BONUS_STATE].copy()
            coins = pre.glob[G_BONUS_COINS].copy()
            state[new], coins[new] = seat, 0
            if old >= 0:
                state[old] = -1
            row[slot] = old
            glob["bonus row"] = np.array(row + [-1] * (len(pre.glob[G_BONUS_ROW]) - len(row)))
            glob["bonus state"], glob["bonus coins"] = state, coins
            exp[seat, P_BONUS] = new
            self.stats[f"pass bonus slot {slot}"] += 1
            if pre.glob[G_BONUS_COINS][new]:
                self.stats["pass: coins on her new tile"] += 1
        self.stats[f"pass round {rnd}"] += 1
        self.compare(pre, post, exp, glob, where)
        rec = Record(post.glob, seat)
        assert rec.piles() == t["piles"], (where, rec.piles(), t["piles"])
        self.pass_index[seat] = n
        self.last_row[seat] = post.players[seat].copy()
        self.last_piles[seat] = rec.piles()
        if rnd == 6:
            self.r6_row[seat] = post.players[seat].copy()

    # -- §8 final scoring -----------------------------------------------------------------------

    def reach_groups(self, state, seat: int, ship: int) -> int:  # noqa: ANN001
        """Largest group of her buildings linked by Reach (adjacent, or through 1..ship river
        hexes; no bridges, §10 #3)."""
        h = state.hexes
        mine = {p for p in range(NUM_POSITIONS) if h[p, H_OWNER] == seat and h[p, H_BUILDING] > 0}
        near = {p: reach_from(self.nbrs, self.land, self.river, [p], ship) & mine for p in mine}
        return max((len(grp) for grp in groups(mine, near)), default=0)

    def final(self, g: Game) -> None:
        """§8: her final VP = VP after her round-6 pass + area + science (+ Wanderers)."""
        self.finish_turn()
        state = g.state
        assert int(state.glob[G_ROUND]) == 7
        areas = {}
        for s in range(g.seats):
            if s in self.specs:
                areas[s] = self.reach_groups(state, s, SHIP[self.specs[s][1]][5])
            else:
                areas[s] = scoring.largest_area(g, s)  # a human's area: not under test here
        area_vp = ranked_payouts(areas, AREA_VP)
        sci_vp = collections.Counter()
        for d in range(4):
            levels = {s: int(state.players[s, P_SCIENCE.start + d]) for s in range(g.seats)}
            for s, v in ranked_payouts(levels, SCIENCE_VP).items():
                sci_vp[s] += v
        for seat, (faction, _) in self.specs.items():
            row, before = state.players[seat], self.r6_row[seat]
            buildings = int(np.count_nonzero((state.hexes[:, H_OWNER] == seat) & (state.hexes[:, H_BUILDING] > 0)))
            extra = 2 * buildings if faction == "wanderers" else 0
            expected = int(before[P_VP]) + area_vp[seat] + sci_vp[seat] + extra
            assert int(row[P_VP]) == expected, (
                f"{self.label}: seat {seat} final VP {int(row[P_VP])}, expected {expected} = {int(before[P_VP])} "
                f"+ area {area_vp[seat]} (sizes {areas}) + science {sci_vp[seat]} + faction {extra}"
            )
            same = np.ones(len(row), dtype=bool)
            same[P_VP] = False
            same[P_BOWLS] = False
            assert (row[same] == before[same]).all(), self.label
            assert row[P_PALACE_TILE] == -1  # §10 #27: no palace tile for her
            self.stats["final scorings"] += 1
            if area_vp[seat]:
                self.stats["final: area vp"] += 1
            if extra:
                self.stats["final: wanderers"] += 1


# ------------------------------------------------------------------------------------------------
# playing random games


@contextlib.contextmanager
def step_snapshots(on_pre):  # noqa: ANN001, ANN201
    """Call ``on_pre(game)`` before each Automa step (inside ``automa_frames``)."""
    inner = AUTO[Kind.AUTOMA_STEP]

    def wrapped(g: Game, row) -> None:  # noqa: ANN001
        on_pre(g)
        inner(g, row)

    AUTO[Kind.AUTOMA_STEP] = wrapped
    try:
        yield
    finally:
        AUTO[Kind.AUTOMA_STEP] = inner


def play(game: str, seed: int, specs: dict[int, tuple[str, int]], biased: bool, stats: collections.Counter) -> None:
    g = Game(game, seed=seed)
    oracle = Oracle(g, specs, f"{game} seed {seed}")
    rng = np.random.default_rng(seed)

    def on_step(game_: Game, seat: int, what: str) -> None:
        oracle.after_step(game_, seat, what)
        t = oracle.turn
        if what != "passes" and len(t["got"]) == len(t["expected"]):
            oracle.last_row[seat] = game_.state.players[seat].copy()
            oracle.last_piles[seat] = Record(game_.state.glob, seat).piles()

    with automa_frames(oracle.before_turn, on_step), step_snapshots(oracle.before_step):
        while not g.is_over():
            g.apply_action(biased_random_action(g, rng) if biased else random_action(g, rng))
    oracle.final(g)
    stats.update(oracle.stats)


# ------------------------------------------------------------------------------------------------
# the tests


def _solo_configs(seeds: range) -> list:
    configs = []
    for faction, level, seed in itertools.product(FACTION_NAMES, range(1, 6), seeds):
        ruleset = ",ruleset=v1.0" if seed % 2 else ""
        game = f"aoi(players=1,automa={faction}:{level}{ruleset})"
        seed_ = 31 * level + seed + 1000 * FACTION_NAMES.index(faction)
        configs.append((game, seed_, {1: (faction, level)}, seed % 3 != 2))
    return configs


def test_solo_automa_turns_match_the_printed_procedure() -> None:
    """AUTOMA.md §4.3 (draw, pass check), §4.4 (step list, DL VP §2.3, faction actions §2.5,
    Powermongers §4.4.2, no innovation in rounds 1-2), §4.5 (pass VP §2.4, Racelings §7, bonus
    tile by the support card, §10 #20 #30), §5.4-§5.8 (BLOCK §10 #18, scholar §10 #17, advance
    §10 #14 #15 #16, innovation §10 #19, VP), §3.4 / §3.5 / §4.6 (components, starting deck per
    level, next-round decks), §4.1 (no income), §8 (final scoring, R83 / R84): 1 human + 1 Automa,
    all 7 supported factions x levels 1-5, both rulesets, biased and uniform random play."""
    stats: collections.Counter = collections.Counter()
    for game, seed, specs, biased in _solo_configs(range(6)):
        play(game, seed, specs, biased, stats)
    assert stats["checked turns"] >= 9000, stats
    assert stats["turns"] >= 7500 and stats["final scorings"] == 210, stats
    for key in ("pass: no action card", "pass: icon", "no pass: <= 2 cards, no icon", "vp", "block spells used",
                "block books used", "advance 1", "advance 2", "scholar on a 3", "scholar on a 2",
                "scholar: scoring discipline", "innovation taken", "innovation left out (round 1-2)",
                "vp step dropped", "racelings double pass vp", "pass bonus slot 0", "pass bonus slot 1",
                "pass bonus slot 2", "pass round 6", "new round decks", "new round deck reordered",
                "powermongers advance True", "powermongers advance False", "catch-up: directional",
                "final: wanderers", "map step"):  # fmt: skip
        assert stats[key] > 0, (key, stats)
    # §3.5: levels 3-5 draw random advanced cards
    for level in (3, 4, 5):
        assert sum(1 for k in stats if k.startswith(f"L{level} extra")) >= 3, stats


def test_automa_turns_with_two_humans_and_with_two_automas() -> None:
    """The same checks with 2 humans + 1 Automa (catch-up against the highest human marker,
    §5.1 b, §10 #24; 3 factions: two rows of 4 innovation spaces, R20) and 1 human + 2 Automas
    (§3.1; each has her own deck, pass and place in the order; the other Automa's record and
    scholars are not hers), all 7 factions, both rulesets."""
    stats: collections.Counter = collections.Counter()
    for k, (rep, faction) in enumerate(itertools.product(range(3), FACTION_NAMES)):
        level = 1 + k % 5
        ruleset = ",ruleset=v1.0" if k % 2 else ""
        play(f"aoi(players=2,automa={faction}:{level}{ruleset})", 700 + k, {2: (faction, level)}, k % 4 != 3, stats)
        other = FACTION_NAMES[(FACTION_NAMES.index(faction) + 1 + rep) % 7]
        level2 = 1 + (k + 2) % 5
        play(f"aoi(players=1,automa={faction}:{level}+{other}:{level2}{ruleset})", 800 + k,
             {1: (faction, level), 2: (other, level2)}, k % 3 != 0, stats)  # fmt: skip
    assert stats["checked turns"] >= 1000, stats
    assert stats["final scorings"] == 21 + 42, stats
    for key in ("innovation taken", "scholar on a 3", "block spells used", "pass round 6", "new round decks"):
        assert stats[key] > 0, (key, stats)


def test_round_tile_icons_follow_the_documented_mapping() -> None:
    """AUTOMA.md §2.4 / docs/automa.md "Round score tiles": the re-typed app tiles are matched to
    RULES.md ids whose science-bonus discipline is the Automa icon's discipline (app 7 = T2, the
    spade tile); every id occurs once; the final tiles F1-F4 are app 4, 2, 3, 1."""
    g = Game("aoi(players=1,automa=simpletons:2)", seed=0)
    assert sorted(T_TO_APP) == sorted(g.data.round_tile_ids) and sorted(T_TO_APP.values()) == list(range(1, 13))
    assert sorted(F_TO_APP) == sorted(g.data.final_tile_ids)
    assert T_TO_APP["T2"] == 7
    for i, key in enumerate(g.data.round_tile_ids):
        disc = DISC.index(g.tab.round_science[i]["discipline"])
        assert APP_ROUND_TILES[T_TO_APP[key]][0] == disc, key
