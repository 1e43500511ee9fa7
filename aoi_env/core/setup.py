"""Setup (R5-R25): the random draws, the distribution, player setup and initial placement.

``new_state`` performs every random draw from ``numpy.random.default_rng(seed)``; everything a
player chooses during setup (sets, draft picks, bonus tiles, initial buildings, Lizards' steps,
Wasteland's book, the Monks' and Inventors' competencies, setup spades) is a decision pushed by
``setup_step``, run in the order of R15-R23.  With ``setup_choices="random"`` the engine takes
those decisions itself, uniformly among the legal moves.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import numpy as np

from aoi_env.core import effects, pending
from aoi_env.core.board import geometry, hex_name
from aoi_env.core.engine import applies, automatic, decision
from aoi_env.core.moves import BONUS_BASE, BUILDING_BASE, BUNDLE_BASE, FACTION_BASE, HEX_BASE, PALACE_BASE, TERRAIN_BASE
from aoi_env.core.pending import Kind, Row
from aoi_env.core.rules import buildings, terrain
from aoi_env.core.state import (
    G_AREA_TOKEN,
    G_AUTOMA,
    G_BONUS_COINS,
    G_BONUS_ROW,
    G_BONUS_STATE,
    G_BOOK_ACTIONS,
    G_BUNDLE_BONUS,
    G_BUNDLE_FACTION,
    G_CITY_LEFT,
    G_COMP_LEFT,
    G_COMP_SPACES,
    G_DRAFT_BOARDS,
    G_DRAFT_FACTIONS,
    G_DRAFT_PALACES,
    G_FINAL_TILE,
    G_INNOV_OWNER,
    G_INNOV_SPACES,
    G_NEUTRAL_LEFT,
    G_NEUTRAL_SCIENCE,
    G_NEXT_ORDER,
    G_ORDER,
    G_PALACE_STATE,
    G_PAVILIONS_LEFT,
    G_ROUND_TILES,
    G_SCHOLAR_SPACES,
    G_SEED,
    G_SETUP_STEP,
    G_START_PLAYER,
    H_BUILDING,
    H_MARK,
    H_OWNER,
    H_TERRAIN,
    NEUTRAL_SEAT,
    P_BOARD,
    P_BONUS,
    P_BOWLS,
    P_BUILT,
    P_DRAFT_PALACE,
    P_FACTION,
    P_INNOVATIONS,
    P_NEUTRAL_BUILT,
    P_PALACE_TILE,
    P_SAILING,
    P_SCHOLAR_SUPPLY,
    P_SETUP_SPADES,
    P_VP,
    State,
    set_bonus_row,
)
from aoi_env.data import load
from aoi_env.data.enums import (
    NUM_BONUS_TILES,
    NUM_BOOK_ACTIONS,
    NUM_COMPETENCIES,
    NUM_FACTIONS,
    NUM_INNOVATIONS,
    NUM_TERRAINS,
    Building,
    Faction,
    Terrain,
)

if TYPE_CHECKING:
    from aoi_env.core.engine import Game

DISC_KEYS = ("banking", "law", "engineering", "medicine")


# --------------------------------------------------------------------------------------------
# random draws


def round_tile_building(g: Game, tile: int) -> str | None:
    """Building type a round tile scores (for the final-tile conflict R7, OP-27)."""
    for kind in ("workshop", "guild", "school"):
        if f"build_{kind}" in g.tab.round_events[tile]:
            return kind
    return None


def draw_round_tiles(g: Game, rng: np.random.Generator) -> list[int]:
    """R6: reveal tiles and fill rounds 6 -> 1 with the spade-tile and discipline rules (OP-28).

    A tile drawn for a round its ``not_in_rounds`` forbids (T2 in rounds 5 and 6) is set aside and
    shuffled back into the pile as soon as the round being filled allows it (R6(a))."""
    ids = g.data.round_tile_ids
    banned = [frozenset(row.get("not_in_rounds", ())) for row in g.data.round_tiles]
    disc = [DISC_KEYS.index(g.tab.round_science[t]["discipline"]) for t in range(len(ids))]
    pile = [int(t) for t in rng.permutation(len(ids))]
    placed: dict[int, int] = {}
    aside: list[int] = []
    rnd = 6
    while rnd >= 1:
        tile = pile.pop()
        if rnd in banned[tile]:
            aside.append(tile)  # R6(a): set aside, shuffled back once the round allows it
            continue
        same = [t for t in placed.values() if disc[t] == disc[tile]]
        if len(same) == 2 and disc[placed[6]] != disc[tile]:
            continue  # R6(b): the third tile of a discipline without round 6: out of the game
        placed[rnd] = tile
        rnd -= 1
        back = [t for t in aside if rnd not in banned[t]]
        if back:
            pile.extend(back)
            pile = [pile[int(i)] for i in rng.permutation(len(pile))]
            aside = [t for t in aside if t not in back]
    return [placed[r] for r in range(1, 7)]


def draw_final_tile(g: Game, rng: np.random.Generator, round6: int) -> int:
    """R7 / OP-27: redraw while the final tile shows the round-6 tile's building type."""
    kind = round_tile_building(g, round6)
    options = [f for f in range(len(g.data.final_tile_ids)) if g.tab.final_building[f].name.lower() != kind]
    return int(options[int(rng.integers(len(options)))])


def innovation_spaces(players: int, raw: dict) -> list[tuple[np.ndarray, int]]:
    """(specific books per discipline, any books) of every display space for a player count (R20)."""
    disp = raw["innovation_display"]
    spaces = []
    for _ in range(disp["rows_per_column"][players]):
        for d in range(4):
            spec = np.zeros(4, dtype=np.int32)
            spec[d] = disp["column_cost"]["own"]
            spaces.append((spec, disp["column_cost"]["any"]))
    if disp["mixed"][players]:
        for cost in disp["mixed_spaces"]:
            spec = np.array([cost.get(k, 0) for k in DISC_KEYS], dtype=np.int32)
            spaces.append((spec, cost["any"]))
    return spaces


def new_state(g: Game, seed: int) -> State:
    """A fresh game after every random setup draw, before any player decision.  The draws come
    in a fixed order from one generator (same seed, same game): the tiles of the boards, then the
    components the players choose from, then the Automas, then the 2-player neutral faction."""
    rng = np.random.default_rng(seed)
    s = _blank_state(g, seed)
    tiles = _draw_tiles(g, s, rng)
    _distribute(g, s, rng)
    if g.config.automa:
        _new_automas(g, s, rng)
    elif g.seats == 2:  # R24: the neutral faction (not with an Automa, AUTOMA.md §3.1)
        _neutral_faction(g, s, rng, tiles)
    s.glob[G_SETUP_STEP] = 0
    s.glob[pending.G_DEPTH] = 0
    return s


def _blank_state(g: Game, seed: int) -> State:
    """The map, the supplies and the player rows before any draw (-1: none yet, -2: not in play)."""
    s = _blank_template(g.config.seats, g.geo.name).clone()  # issue 10: a copy, not ~30 writes
    s.glob[G_SEED] = seed % (2**31)
    return s


@functools.cache
def _blank_template(seats: int, side: str) -> State:
    """``_blank_state`` without the seed, made once per seat count and board side (the data is
    loaded once per process)."""
    raw = load().raw
    s = State.empty(seats)
    glob, p = s.glob, s.players
    s.hexes[:, H_TERRAIN] = geometry(side).terrain
    s.hexes[:, H_OWNER] = -1
    p[:, P_FACTION] = p[:, P_BOARD] = p[:, P_BONUS] = -1
    p[:, P_PALACE_TILE] = p[:, P_DRAFT_PALACE] = -1
    p[:, P_INNOVATIONS] = -1
    p[:, P_SCHOLAR_SUPPLY] = raw["scholars_per_player"]
    p[:, P_VP] = raw["start_vp"]
    glob[G_ORDER] = -1
    glob[G_NEXT_ORDER] = -1
    glob[G_COMP_LEFT] = raw["competency_display"]["copies"]
    glob[G_INNOV_SPACES] = -1
    glob[G_INNOV_OWNER] = -2
    glob[G_CITY_LEFT] = raw["city_copies"]
    for key, count in raw["neutral_pieces"].items():
        glob[G_NEUTRAL_LEFT.start + Building[key.upper()]] = count
    glob[G_PAVILIONS_LEFT] = raw["pavilion_pieces"]
    glob[G_SCHOLAR_SPACES] = -1
    glob[G_BONUS_STATE] = -2
    glob[G_PALACE_STATE] = -2
    glob[G_BUNDLE_FACTION] = -1
    glob[G_BUNDLE_BONUS] = -1
    glob[G_DRAFT_FACTIONS] = -1
    glob[G_DRAFT_PALACES] = -1
    glob[G_DRAFT_BOARDS] = -1
    glob[G_BONUS_ROW] = -1
    return s


def _draw_tiles(g: Game, s: State, rng: np.random.Generator) -> list[int]:
    """Round and final tiles, book actions, the competency and innovation displays (R6-R8, R11,
    R12); returns the round tiles 1-6."""
    glob = s.glob
    tiles = draw_round_tiles(g, rng)  # R6
    glob[G_ROUND_TILES] = tiles
    glob[G_FINAL_TILE] = draw_final_tile(g, rng, tiles[5])  # R7
    glob[G_BOOK_ACTIONS] = np.sort(rng.choice(NUM_BOOK_ACTIONS, size=3, replace=False))  # R8
    glob[G_COMP_SPACES] = rng.permutation(NUM_COMPETENCIES)  # R11
    spaces = len(g.innovation_space_cost)  # R12
    order = rng.permutation(NUM_INNOVATIONS)
    glob[G_INNOV_SPACES.start : G_INNOV_SPACES.start + spaces] = order[:spaces]
    glob[G_INNOV_OWNER.start + order[:spaces]] = -1
    return tiles


def _distribute(g: Game, s: State, rng: np.random.Generator) -> None:
    """What the humans choose from: fixed factions and boards, the solo planning cards, the
    standard sets or the draft pools; palace and bonus tiles on offer; the start player."""
    cfg, glob, p = g.config, s.glob, s.players
    n = cfg.seats
    bonuses = [int(b) for b in rng.permutation(NUM_BONUS_TILES)]
    factions = [int(f) for f in rng.permutation(NUM_FACTIONS)]
    others = _random_palace_tiles(g, rng)
    humans = cfg.players
    automa = len(cfg.automa)
    reserved = _requested_automa_terrains(cfg.automa)  # AUTOMA.md §3.3: not offered to the humans
    if cfg.distribution == "standard" or cfg.fixed_setup:  # R14; with an Automa P tiles + #17 (AUTOMA.md §3.2)
        _offer_palaces(g, glob, others, n if automa else n + g.data.raw["palace_tiles_offered"]["extra"])
    if cfg.fixed_setup:
        fixed_f = [Faction[f.upper()] for f in cfg.factions]
        fixed_b = [Terrain[b.upper()] for b in cfg.boards]
        free_f = [f for f in factions if f not in fixed_f]
        free_b = [int(t) for t in rng.permutation(NUM_TERRAINS) if t not in fixed_b and t not in reserved]
        for seat in range(humans):
            p[seat, P_FACTION] = fixed_f[seat] if fixed_f else free_f[seat]
            p[seat, P_BOARD] = fixed_b[seat] if fixed_b else free_b[seat]
        if not automa:
            glob[G_BONUS_STATE.start + np.array(bonuses[: n + 3])] = -1  # picked as in R16.8
    elif automa and humans == 1:  # AUTOMA.md §3.3: 3 planning cards with 2 factions each
        cards = [int(t) for t in rng.permutation(NUM_TERRAINS) if t not in reserved][:3]
        glob[G_DRAFT_BOARDS] = [cards[i // 2] for i in range(6)]
        glob[G_DRAFT_FACTIONS] = factions[:6]
    elif cfg.distribution == "standard":  # R15 (also two players against an Automa, §3.3)
        glob[G_BUNDLE_FACTION] = factions[:7]
        glob[G_BUNDLE_BONUS] = bonuses[:7]
        for t in reserved:  # the set of an Automa's requested terrain is out, as if taken
            glob[G_BUNDLE_FACTION.start + t] = -1
        if not automa:
            for b in bonuses[7:]:
                glob[G_BONUS_STATE.start + b] = -1
                glob[G_BONUS_COINS.start + b] = 1
    else:  # R16 draft: 6 planning cards, P + 1 factions and palace tiles, P + 3 bonus tiles
        glob[G_DRAFT_BOARDS] = np.sort(rng.permutation(NUM_TERRAINS)[:6])
        glob[G_DRAFT_FACTIONS.start : G_DRAFT_FACTIONS.start + n + 1] = sorted(factions[: n + 1])
        glob[G_DRAFT_PALACES.start : G_DRAFT_PALACES.start + n + 1] = sorted(others[: n + 1])
        glob[G_BONUS_STATE.start + np.array(bonuses[: n + 3])] = -1
    # R15.3 / R16.6; against the Automa the humans go first (AUTOMA.md §3.7)
    glob[G_START_PLAYER] = 0 if automa else int(rng.integers(n))


def _neutral_faction(g: Game, s: State, rng: np.random.Generator, tiles: list[int]) -> None:
    """R24: the 2-player neutral faction's area token, scholar spaces and science markers."""
    glob = s.glob
    glob[G_AREA_TOKEN] = g.config.area_tokens[int(rng.integers(len(g.config.area_tokens)))]
    for d in range(4):
        glob[G_SCHOLAR_SPACES.start + d * 4 + 1] = NEUTRAL_SEAT
    level = np.full(4, g.data.raw["two_player"]["neutral_start_level"], dtype=np.int32)
    for rnd in range(5):
        sci = g.tab.round_science[tiles[rnd]]
        level[DISC_KEYS.index(sci["discipline"])] += sci["per"]
    glob[G_NEUTRAL_SCIENCE] = level


def _requested_automa_terrains(specs: tuple[str, ...]) -> set[int]:
    """The terrains the Automa specs ask for (``faction:level:terrain``).  AUTOMA.md §3.3 has
    the player give her a terrain no human has; asked for in advance, it is kept from the humans'
    choices (sets, planning cards, random boards) so that she always gets it."""
    from aoi_env.core import automa as am

    return {TERRAIN_NAMES.index(wanted) for _, _, wanted in map(am.parse_spec, specs) if wanted is not None}


def _always_offered_palaces(g: Game) -> list[int]:
    """The palace tiles the data marks ``always_offered`` (no. 17, R14)."""
    return [t for t, row in enumerate(g.data.palace_tiles) if row.get("always_offered")]


def _random_palace_tiles(g: Game, rng: np.random.Generator) -> list[int]:
    """The other palace tiles in a random order: the standard offer's and the draft's (R14, R16)."""
    always = _always_offered_palaces(g)
    rest = [t for t in range(len(g.data.palace_tiles)) if t not in always]
    return [rest[int(i)] for i in rng.permutation(len(rest))]


def _offer_palaces(g: Game, glob: np.ndarray, others: list[int], count: int) -> None:
    """R14: palace 17 plus ``count`` random tiles are available (P + 1; with an Automa P)."""
    for t in _always_offered_palaces(g) + others[:count]:
        glob[G_PALACE_STATE.start + t] = -1


def _new_automas(g: Game, s: State, rng: np.random.Generator) -> None:
    """Automa records: level, faction, deck and reserve (§3.5), the setup card (§3.6)."""
    from aoi_env.core import automa as am

    data = am.automa_data()
    pairs_used: set[tuple[str, str]] = set()
    for i, spec in enumerate(g.config.automa):
        seat = g.config.players + i
        faction, level, _ = am.parse_spec(spec)
        base = G_AUTOMA.start + i * am.AUTOMA_FIELDS
        rec = s.glob[base : base + am.AUTOMA_FIELDS]
        rec[am.A_SEAT] = seat
        rec[am.A_LEVEL] = level
        rec[am.A_FACTION] = data.faction_names.index(faction)
        deck, reserve = am.new_deck(level, rng)
        am._store(rec, am.A_DECK, am.A_DECK_LEN, deck)
        am._store(rec, am.A_RESERVE, am.A_RESERVE_LEN, reserve)
        rec[am.A_UNSEEN] = am.card_bits(am.unseen_at_start(level, deck))
        cards = [c for c in range(1, am.NUM_CARDS + 1) if data.cards[c].setup not in pairs_used]
        card = cards[int(rng.integers(len(cards)))]  # a second Automa gets another pair (§3.6)
        pairs_used.add(data.cards[card].setup)
        rec[am.A_SETUP_CARD] = card
        s.players[seat, P_FACTION] = -1  # not one of the 12 faction tiles


# --------------------------------------------------------------------------------------------
# the setup sequence (R15-R23)

TERRAIN_NAMES = tuple(t.name.lower() for t in Terrain)[:7]
FACTION_NAMES = tuple(f.name.lower() for f in Faction)


def _counter_clockwise_from_right(start: int, n: int) -> list[int]:
    """R15.4 / R16.8: the player right of the start player first, counter-clockwise, start last."""
    return [(start - k) % n for k in range(1, n + 1)]


def _flags(g: Game, seat: int) -> dict:
    return g.tab.faction_flags[int(g.state.players[seat, P_FACTION])]


def setup_step(g: Game) -> None:
    """Push the decisions of the next setup stage (called when the stack is empty); after the
    last stage the first round starts."""
    s = g.state
    step = int(s.glob[G_SETUP_STEP])
    s.glob[G_SETUP_STEP] = step + 1
    if step >= len(SETUP_STAGES):
        from aoi_env.core import flow

        flow.start_round(g, 1)
        return
    start, n = int(s.glob[G_START_PLAYER]), g.seats
    order = [(start + k) % n for k in range(n)]  # R17.9 (Automas after the humans, AUTOMA.md §3.7)
    SETUP_STAGES[step](g, order, [seat for seat in order if seat < g.config.players])


def _stage_distribution(g: Game, order: list[int], people: list[int]) -> None:
    """The humans' components: solo cards, draft picks, bonus tiles or sets (R15, R16, AUTOMA.md §3.3)."""
    cfg, start, n = g.config, int(g.state.glob[G_START_PLAYER]), g.seats
    picks: list[tuple[Kind, int]] = []
    if cfg.automa and cfg.players == 1 and not cfg.fixed_setup:
        picks.append((Kind.SOLO_PICK, 0))  # AUTOMA.md §3.3
    elif cfg.fixed_setup or cfg.distribution == "draft":
        if cfg.distribution == "draft" and not cfg.fixed_setup:
            picks += [(Kind.DRAFT_PICK, seat) for _ in range(3) for seat in order]  # R16.7
        if not cfg.automa:
            picks += [(Kind.PICK_BONUS, seat) for seat in _counter_clockwise_from_right(start, n)]
    else:
        picks += [(Kind.PICK_BUNDLE, seat) for seat in _counter_clockwise_from_right(start, cfg.players)]
    for kind, seat in reversed(picks):
        pending.push(g.state, kind, seat)


def _stage_automas(g: Game, order: list[int], people: list[int]) -> None:
    """The Automas' terrains and round bonus tiles (AUTOMA.md §3.3, §3.7)."""
    if g.config.automa:
        _automa_terrains_and_bonuses(g, people)


def _stage_player_setup(g: Game, order: list[int], people: list[int]) -> None:
    """Coins on the display, the turn order, each seat's player setup (R15.2, R16.8, R17)."""
    s = g.state
    display = s.glob[G_BONUS_STATE] == -1
    s.glob[G_BONUS_COINS][display] = 1
    if not g.config.automa:
        set_bonus_row(s.glob, np.flatnonzero(display).tolist())
    s.glob[G_ORDER.start : G_ORDER.start + g.seats] = order
    for seat in reversed(order):
        pending.push(s, Kind.PLAYER_SETUP, seat)


def _stage_initial_workshops(g: Game, order: list[int], people: list[int]) -> None:
    """Initial Workshops in snake order (R21; AUTOMA.md §3.6); the Monks skip them (R22)."""
    firsts = [seat for seat in people if not _flags(g, seat)["setup_university"]]
    seq: list[tuple[Kind, int]] = [(Kind.INITIAL_PLACE, seat) for seat in firsts]
    seq += [(Kind.AUTOMA_SETUP, seat) for seat in order if seat >= g.config.players]
    seq += [(Kind.INITIAL_PLACE, seat) for seat in firsts[::-1]]
    for kind, seat in reversed(seq):
        if kind == Kind.AUTOMA_SETUP:
            pending.push(g.state, kind, seat)
        else:
            _push_initial(g, seat)


def _stage_faction_setup(g: Game, order: list[int], people: list[int]) -> None:
    """Omar's third building, the Monks' University, the Inventors' competency (R22, R23)."""
    for seat in reversed(people):
        if _flags(g, seat)["setup_competency"]:
            pending.push(g.state, Kind.CHOOSE_COMPETENCY, seat, 1)
    for seat in reversed(people):
        if _flags(g, seat)["setup_university"]:
            pending.push(g.state, Kind.INITIAL_PLACE, seat, Building.UNIVERSITY)
    for seat in reversed(people):
        if _flags(g, seat)["setup_tower"]:
            _push_initial(g, seat)


def _stage_setup_spades(g: Game, order: list[int], people: list[int]) -> None:
    """Setup spades in turn order, no Workshop (R23, OP-37)."""
    players = g.state.players
    for seat in reversed(people):
        spades = int(players[seat, P_SETUP_SPADES])
        players[seat, P_SETUP_SPADES] = 0
        if spades:
            pending.push(g.state, Kind.SPADES, seat, spades)


SETUP_STAGES = (
    _stage_distribution,
    _stage_automas,
    _stage_player_setup,
    _stage_initial_workshops,
    _stage_faction_setup,
    _stage_setup_spades,
)
"""The setup in the order of R15-R23: stage k runs when the step counter is k."""


def _automa_terrains_and_bonuses(g: Game, people: list[int]) -> None:
    """Terrains distinct from the humans' (random unless given); bonus tiles from a face-up row."""
    from aoi_env.core import automa as am
    from aoi_env.core.decisions import take_bonus

    s = g.state
    humans = g.config.players
    taken = {int(s.players[h, P_BOARD]) for h in range(humans)}
    rng = g.rng()
    for i, spec in enumerate(g.config.automa):
        seat = humans + i
        _, _, wanted = am.parse_spec(spec)
        free = [t for t in range(NUM_TERRAINS) if t not in taken]
        terrain = TERRAIN_NAMES.index(wanted) if wanted is not None and TERRAIN_NAMES.index(wanted) in free else None
        if terrain is None:
            terrain = free[int(rng.integers(len(free)))]
        taken.add(terrain)
        s.players[seat, P_BOARD] = terrain
        s.players[seat, P_SAILING] = am.automa_data().levels[am.level_of(g, seat)]["ship"][0]
    held = {int(s.players[h, P_BONUS]) for h in range(humans)} - {-1}
    pool = [int(b) for b in rng.permutation(NUM_BONUS_TILES) if int(b) not in held]
    size = g.seats + 3 if not held else len(g.config.automa) + 3  # §3.7: one human / two humans
    row = pool[:size]
    for b in range(NUM_BONUS_TILES):
        if b not in held:
            s.glob[G_BONUS_STATE.start + b] = -1 if b in row else -2
    set_bonus_row(s.glob, row)
    for i in range(len(g.config.automa)):
        take_bonus(g, humans + i, int(s.glob[G_BONUS_ROW.start]), keep_coins=False)  # the leftmost tile
    for seat in reversed(people):
        if s.players[seat, P_BONUS] < 0:
            pending.push(s, Kind.PICK_BONUS, seat)


def _push_initial(g: Game, seat: int) -> None:
    if _flags(g, seat)["setup_tower"]:
        pending.push(g.state, Kind.INITIAL_KIND, seat)
    else:
        pending.push(g.state, Kind.INITIAL_PLACE, seat, Building.WORKSHOP)


def player_setup(g: Game, seat: int) -> None:
    """R17: bowls, starting resources and science steps of board + faction (thresholds pay)."""
    from aoi_env.core.rules import science

    p = g.state.players[seat]
    if g.is_automa(seat):  # AUTOMA.md §3.4: no resources; science steps of her faction
        from aoi_env.core import automa as am

        for key, v in am.automa_data().factions[am.faction_of(g, seat)]["steps"].items():
            science.advance(g, seat, DISC_KEYS.index(key), int(v))
        return
    board = g.data.boards[int(p[P_BOARD])]
    faction = int(p[P_FACTION])
    p[P_BOWLS] = board.bowls
    p[P_SAILING] = board.sailing_start  # Lake: 1 (R17.3)
    start = dict(board.start)
    for k, v in g.tab.faction_start[faction].items():
        start[k] = start.get(k, 0) + v
    p[P_SETUP_SPADES] += board.setup_spades  # Desert (R23)
    effects.gain(g, seat, start)
    if _flags(g, seat)["setup_steps_any"]:
        pending.push(g.state, Kind.STEPS_ANY, seat, _flags(g, seat)["setup_steps_any"])  # Lizards (R94)
    steps = dict(board.start_steps)
    for d, v in g.data.factions[faction]["start_steps"].items():
        steps[d] = steps.get(d, 0) + v
    for d, v in sorted(steps.items()):
        science.advance(g, seat, int(d), v)


# --------------------------------------------------------------------------------------------
# setup decisions


def _bundle_text(g: Game, row: Row, a: int) -> str:
    return f"set {TERRAIN_NAMES[a - BUNDLE_BASE]}"


@decision(Kind.PICK_BUNDLE, _bundle_text)
def _bundle_legal(g: Game, row: Row) -> list[int]:
    return [BUNDLE_BASE + t for t in range(NUM_TERRAINS) if g.state.glob[G_BUNDLE_FACTION.start + t] >= 0]


@applies(Kind.PICK_BUNDLE)
def _bundle_apply(g: Game, row: Row, a: int) -> None:
    """R15.4-R15.5: the set's faction, the matching planning board, the round bonus tile."""
    from aoi_env.core.decisions import take_bonus

    seat, t = row[1], a - BUNDLE_BASE
    s = g.state
    s.players[seat, P_FACTION] = s.glob[G_BUNDLE_FACTION.start + t]
    s.players[seat, P_BOARD] = t
    s.glob[G_BUNDLE_FACTION.start + t] = -1
    take_bonus(g, seat, int(s.glob[G_BUNDLE_BONUS.start + t]))


def _draft_text(g: Game, row: Row, a: int) -> str:
    if TERRAIN_BASE <= a < TERRAIN_BASE + 7:
        return f"draft {TERRAIN_NAMES[a - TERRAIN_BASE]}"
    if FACTION_BASE <= a < FACTION_BASE + 12:
        return f"draft {FACTION_NAMES[a - FACTION_BASE]}"
    return f"draft palace {a - PALACE_BASE + 1}"


@decision(Kind.DRAFT_PICK, _draft_text)
def _draft_legal(g: Game, row: Row) -> list[int]:
    """R16.7: one component per turn, of a type the player does not have yet."""
    s = g.state
    p = s.players[row[1]]
    out = []
    if p[P_BOARD] < 0:
        out += [TERRAIN_BASE + int(t) for t in s.glob[G_DRAFT_BOARDS] if t >= 0]
    if p[P_FACTION] < 0:
        out += [FACTION_BASE + int(f) for f in s.glob[G_DRAFT_FACTIONS] if f >= 0]
    if p[P_DRAFT_PALACE] < 0:
        out += [PALACE_BASE + int(t) for t in s.glob[G_DRAFT_PALACES] if t >= 0]
    return out


@applies(Kind.DRAFT_PICK)
def _draft_apply(g: Game, row: Row, a: int) -> None:
    seat = row[1]
    s = g.state
    p = s.players[seat]
    if TERRAIN_BASE <= a < TERRAIN_BASE + 7:
        value, pool, field = a - TERRAIN_BASE, G_DRAFT_BOARDS, P_BOARD
    elif FACTION_BASE <= a < FACTION_BASE + 12:
        value, pool, field = a - FACTION_BASE, G_DRAFT_FACTIONS, P_FACTION
    else:
        value, pool, field = a - PALACE_BASE, G_DRAFT_PALACES, P_DRAFT_PALACE
        s.glob[G_PALACE_STATE.start + value] = seat
    p[field] = value
    slots = s.glob[pool]
    slots[np.flatnonzero(slots == value)[0]] = -1


def _solo_text(g: Game, row: Row, a: int) -> str:
    f = a - FACTION_BASE
    slots = [int(x) for x in g.state.glob[G_DRAFT_FACTIONS]]
    return f"take {FACTION_NAMES[f]} {TERRAIN_NAMES[int(g.state.glob[G_DRAFT_BOARDS.start + slots.index(f)])]}"


@decision(Kind.SOLO_PICK, _solo_text)
def _solo_legal(g: Game, row: Row) -> list[int]:
    return [FACTION_BASE + int(f) for f in g.state.glob[G_DRAFT_FACTIONS] if f >= 0]


@applies(Kind.SOLO_PICK)
def _solo_apply(g: Game, row: Row, a: int) -> None:
    """AUTOMA.md §3.3: a set (planning card + 2 factions); take the card's board and one faction."""
    s = g.state
    f = a - FACTION_BASE
    slot = [int(x) for x in s.glob[G_DRAFT_FACTIONS]].index(f)
    s.players[row[1], P_FACTION] = f
    s.players[row[1], P_BOARD] = s.glob[G_DRAFT_BOARDS.start + slot]
    s.glob[G_DRAFT_FACTIONS] = -1
    s.glob[G_DRAFT_BOARDS] = -1


@automatic(Kind.AUTOMA_SETUP)
def _automa_setup(g: Game, row: Row) -> None:
    """AUTOMA.md §3.6: her marked then unmarked Workshop on the lettered hexes of her terrain."""
    from aoi_env.core import automa as am

    seat = row[1]
    data = am.automa_data()
    card = data.cards[int(am.record(g, seat)[am.A_SETUP_CARD])]
    terrain = TERRAIN_NAMES[int(g.state.players[seat, P_BOARD])]
    lookup = data.initial_workshops[g.geo.name]
    for letter, marked in zip(card.setup, (1, 0), strict=True):
        r, c = lookup[letter][terrain]
        pos = r * 13 + c
        if g.state.hexes[pos, H_BUILDING]:  # taken (cannot happen with distinct terrains): first free hex
            pos = int(np.flatnonzero(initial_targets(g, seat))[0])
        buildings.place(g, seat, pos, Building.WORKSHOP)
        g.state.hexes[pos, H_MARK] = marked


@decision(Kind.PICK_BONUS, lambda g, row, a: f"bonus {g.data.bonus_ids[a - BONUS_BASE]}")
def _setup_bonus_legal(g: Game, row: Row) -> list[int]:
    state = g.state.glob[G_BONUS_STATE]
    return [BONUS_BASE + b for b in range(NUM_BONUS_TILES) if state[b] == -1]


@applies(Kind.PICK_BONUS)
def _setup_bonus_apply(g: Game, row: Row, a: int) -> None:
    from aoi_env.core.decisions import take_bonus

    take_bonus(g, row[1], a - BONUS_BASE)


@decision(Kind.INITIAL_KIND, lambda g, row, a: f"start {Building(a - BUILDING_BASE + 1).name.lower()}")
def _kind_legal(g: Game, row: Row) -> list[int]:
    """OP-43: Omar chooses Workshop or Tower at each of its three placements."""
    p = g.state.players[row[1]]
    out = []
    if p[P_BUILT.start + Building.WORKSHOP] < 2:
        out.append(BUILDING_BASE + Building.WORKSHOP - 1)
    if p[P_NEUTRAL_BUILT.start + Building.TOWER] < 1:
        out.append(BUILDING_BASE + Building.TOWER - 1)
    return out


@applies(Kind.INITIAL_KIND)
def _kind_apply(g: Game, row: Row, a: int) -> None:
    pending.push(g.state, Kind.INITIAL_PLACE, row[1], a - BUILDING_BASE + 1)


def initial_targets(g: Game, seat: int) -> np.ndarray:
    """R21, R22: any empty hex of the native terrain; no reach needed."""
    return terrain.empty_land(g) & (terrain.distances_to_native(g, seat) == 0)


@decision(Kind.INITIAL_PLACE, lambda g, row, a: f"place {hex_name(a - HEX_BASE)}")
def _initial_legal(g: Game, row: Row) -> list[int]:
    return [HEX_BASE + int(p) for p in np.flatnonzero(initial_targets(g, row[1]))]


@applies(Kind.INITIAL_PLACE)
def _initial_apply(g: Game, row: Row, a: int) -> None:
    """Initial placement is not a build: no offers, no scoring (R21, OP-56)."""
    seat, btype, pos = row[1], row[2], a - HEX_BASE
    buildings.place(g, seat, pos, btype, neutral=btype == Building.TOWER)
    if btype == Building.UNIVERSITY:
        pending.push(g.state, Kind.CHOOSE_COMPETENCY, seat, 1)  # Monks (R96)
