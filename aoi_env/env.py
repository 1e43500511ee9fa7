# ruff: noqa: E501  (the environment card below has long Markdown table rows)
"""# Age of Innovation

| | |
|---|---|
| Import | `from aoi_env import age_of_innovation_v0` (or `aoi_env.env(...)`, or `pettingzoo.make("aec", "aoi/age_of_innovation-v0")` after `import aoi_env`) |
| Actions | Discrete |
| Parallel API | No |
| Manual Control | No |
| Agents | `agents = ['player_0', 'player_1', ...]` (2-5 players, `num_players`) |
| Action Shape | Discrete(276) |
| Action Values | Discrete(276) |
| Observation Shape | dict: `observation` (7437,), `action_mask` (276,) |
| Observation Values | `observation` float32 [0, 1], `action_mask` int8 {0, 1} |
| State Shape | (7437,) |

*Age of Innovation* (Feuerland 2023, the successor of Terra Mystica) for 2-5 players: terraform
the hex map to your home terrain, build and upgrade, found cities, climb the science tracks and
take innovations over six rounds.  The rules engine is `aoi_env.core` (every rule R1-R146 of the
project's rules reference); this module is the PettingZoo AEC wrapper around it.

A turn is a **sequence of decisions** of the same agent (choose "build", then the hex, then how
many spades, ...), each one step of the AEC loop with an exact action mask.  `agent_selection`
is always the seat whose decision is pending: it stays the same agent through a multi-step
move and jumps to a neighbour when that neighbour is offered power from a build (R42), so
agents do not strictly alternate.  Setup decisions (sets or draft picks, initial Workshops) are
decisions too unless `setup_choices="random"`.  With `skip_forced=True` (default) a decision
with exactly one legal id is applied automatically, so every step is a real choice.

## Observation Space

The observation is a dict: `observation`, a flat float32 vector of 7437 values in [0, 1], and
`action_mask` (below).  It is **egocentric**: the observing agent is relative seat 0, the next
seat clockwise (seat numbers run clockwise) is relative seat 1, and so on; player blocks always have 5 rows (absent seats are
zero), so the size does not depend on the number of players.  Everything on the table is public
and observed; hidden are only what no player sees: the 2-player area token until round 6 (R25),
the order of the Automa's face-down deck and reserve (but for level 1's *3, which lies on top of her
reserve in round 1, AUTOMA.md §3.5, and her action card on top of her deck once she has drawn this
round, §4.3), which advanced cards went from her reserve into her deck, face down (at levels
3-5 at the start, §3.5 step 2, and one each new round, §4.6; the pile sizes and face-up discards
are observed), and the seed of later chance (random setup choices, reshuffles).  An agent that searches by playing
clones of `env.unwrapped.game` forward would read them through the engine (her turns are played
inside a move): `aoi_env.core.hidden.resample(game, rng)` gives a clone with them redrawn from
what a seat knows (information-set sampling, as the heuristic player does).  Hex planes run over the 117 grid positions
`pos = row * 13 + col` of the 9 x 13 frame (odd rows shifted half a hex to the right;
off-board cells have terrain "off").  Counts are
divided by the scale shown and clipped to 1.  `aoi_env.observation.views(obs)` gives the named
views below; `layout()` their slices.

| slice | name | shape | contents |
|---|---|---|---|
| 0:1053 | `hex_terrain` | 9 x 117 | terrain one-hot: desert plains swamp lake forest mountain wasteland river off |
| 1053:1872 | `hex_building` | 7 x 117 | building one-hot: workshop guild school university palace tower monument |
| 1872:2457 | `hex_owner` | 5 x 117 | owner of the building, relative seat (0 = observer) |
| 2457:2574 | `hex_neutral` | 1 x 117 | the building is a neutral piece (R46) |
| 2574:2691 | `hex_pavilion` | 1 x 117 | a pavilion is attached (C6) |
| 2691:2808 | `hex_city` | 1 x 117 | the building belongs to a city (R43) |
| 2808:2925 | `hex_river_city` | 1 x 117 | river hex counted for a city by palace 14 (R134) |
| 2925:3042 | `hex_mark` | 1 x 117 | an Automa's marked building (AUTOMA.md 5.1) |
| 3042:4797 | `hex_bridge_dirs` | 5 x 3 x 117 | a built bridge of that relative seat leaves this hex, its upper end, to the next row far right / the next row far left / two rows straight down (R40; board.BRIDGE_DIRECTIONS) |
| 4797:4914 | `hex_bridge_spots` | 1 x 117 | free printed bridge spots (built by nobody) with an end on the hex / 3 |
| 4914:5031 | `hex_border` | 1 x 117 | land hex on the map border (C11, F1) |
| 5031:5148 | `hex_spades` | 1 x 117 | spades to turn the hex into the observer's native terrain / 3 (R35); 0 off land and until the observer has a planning board |
| 5148:5265 | `hex_reach` | 1 x 117 | land hex in the observer's reach now, built or not (R39; B1's +1 while it applies, OP-41; no tunnel or flight) |
| 5265:5382 | `hex_pending` | 1 x 117 | hex named by the pending decision (first TB hex, first bridge end, the Lizards' terraformed hex) |
| 5382:5386 | `game_players` | 4 | number of seats (players and Automas) one-hot: 2 3 4 5 |
| 5386:5387 | `game_ruleset` | 1 | 1 = ruleset v1.0, 0 = v1.2 (R145) |
| 5387:5388 | `game_map` | 1 | 1 = board side 1-3, 0 = side 3-5 (R5) |
| 5388:5393 | `player_present` | 5 | the relative seat is taken in this game (a player or an Automa) |
| 5393:5433 | `player_automa` | 5 x 8 | Automa seat: level / 5, then her faction one-hot (docs/automa.md order) |
| 5433:5513 | `player_automa_cards` | 5 x 16 | Automa seat: cards in her deck / 14, in the reserve / 14, then which cards 1..14 lie face up on her discard pile (AUTOMA.md 4.3) |
| 5513:5653 | `player_automa_open` | 5 x 2 x 14 | Automa seat: her support card 1..14 (the top of her discard pile: the card drawn for her current or last turn this round), then her action card on top of her deck once she has drawn this round (AUTOMA.md 4.3: looked at, so her next support card is known; 4.6: reshuffled each round) |
| 5653:5713 | `automa_bonus_row` | 6 x 10 | games with an Automa (else 0): bonus tile B1..B10 in each slot of her row (AUTOMA.md 3.7) |
| 5713:5773 | `player_faction` | 5 x 12 | faction one-hot (data order); 0 on an Automa seat (see player_automa) |
| 5773:5808 | `player_board` | 5 x 7 | planning board = native terrain one-hot (an Automa: her terrain) |
| 5808:5868 | `player_resources` | 5 x 12 | vp/200 coins/100 tools/20 scholars/7 scholar_supply/7 books(banking law engineering medicine)/10 bowls(I II III)/14 |
| 5868:5888 | `player_science` | 5 x 4 | science level per discipline / 12 (R47) |
| 5888:5898 | `player_tracks` | 5 x 2 | sailing track/4 (without bonus B1's +1, which hex_reach counts), terraforming upgrades/2 |
| 5898:5923 | `player_buildings` | 5 x 5 | own pieces built / pieces (9 4 3 1 1): workshop guild school university palace |
| 5923:5958 | `player_neutral` | 5 x 7 | neutral pieces owned / 5: workshop .. monument (R46) |
| 5958:5983 | `player_counts` | 5 x 5 | cities/8, bridges/3, pavilions in hand/8, setup spades/3, palace 15 deferral (1 + city tiles waiting)/4 (OP-19) |
| 5983:6043 | `player_competencies` | 5 x 12 | competency tiles C1..C12 owned |
| 6043:6133 | `player_innovations` | 5 x 18 | innovations owned (data order) |
| 6133:6218 | `player_palace` | 5 x 17 | palace tile of the built Palace, 1..17 (R68) |
| 6218:6303 | `player_draft_palace` | 5 x 17 | palace tile drafted but not built (R16, OP-54) |
| 6303:6353 | `player_bonus` | 5 x 10 | round bonus tile held, B1..B10 |
| 6353:6398 | `player_flags` | 5 x 9 | passed, owns the neutral Palace, city rewards deferred (palace 15), special actions used this round: palace deus_ex_machina professors competency bonus faction |
| 6398:6423 | `player_order` | 5 x 5 | position in this round's turn order, one-hot |
| 6423:6448 | `player_next_order` | 5 x 5 | position in next round's order (passing order), one-hot; 0 if not passed |
| 6448:6458 | `bonus_display` | 10 | round bonus tile B1..B10 is on the display |
| 6458:6468 | `bonus_coins` | 10 | coins on display tiles / 6 (R80.3) |
| 6468:6684 | `innovation_display` | 12 x 18 | innovation on each display space, one-hot; 0 once taken (R12, R20) |
| 6684:6828 | `competency_display` | 12 x 12 | competency type on each display space (column * 3 + row), one-hot, also with no copy left (R11) |
| 6828:6840 | `competency_left` | 12 | copies left per competency / 4 |
| 6840:6857 | `palace_display` | 17 | palace tile 1..17 is available (R14) |
| 6857:6864 | `city_left` | 7 | city tiles left per type K1..K7 / 3 (R13) |
| 6864:6870 | `spells_used` | 6 | X token on each spell, printed order S1 S2 S4 S5 S3 S6 (R75) |
| 6870:6876 | `book_actions` | 6 | book action BA1..BA6 is in play (R8) |
| 6876:6882 | `book_actions_used` | 6 | X token on book action BA1..BA6 |
| 6882:6978 | `scholar_spaces` | 16 x 6 | occupant of science space discipline * 4 + space (space 0: the 3 space, 1-3: the 2 spaces): rel. seat, neutral |
| 6978:6985 | `neutral_left` | 7 | neutral pieces left / supply (1 each, 5 towers): workshop .. monument (R1) |
| 6985:6986 | `pavilions_left` | 1 | pavilions left / 8 |
| 6986:6991 | `neutral_faction` | 5 | 2 players, no Automa: area token / 15 (0 while face down: setup and rounds 1-5, R25), neutral science levels / 12 (R24) |
| 6991:6999 | `round` | 8 | round one-hot: setup, 1..6, over |
| 6999:7004 | `phase` | 5 | phase one-hot: setup income actions science over |
| 7004:7076 | `round_tiles` | 6 x 12 | round scoring tile of rounds 1..6, one-hot T1..T12 (R6) |
| 7076:7080 | `final_tile` | 4 | final round tile F1..F4 (R7) |
| 7080:7085 | `start_player` | 5 | start player, relative seat |
| 7085:7169 | `setup_bundle_faction` | 7 x 12 | setup only (else 0), standard distribution: faction of the set of each terrain (R15) |
| 7169:7239 | `setup_bundle_bonus` | 7 x 10 | setup only (else 0), standard distribution: bonus tile of each untaken set |
| 7239:7275 | `setup_draft` | 36 | setup only (else 0): draft pools (R16) or the solo offer: planning cards 7, factions 12, palace tiles 17 |
| 7275:7359 | `setup_solo_pairs` | 12 x 7 | setup only (else 0), solo pick (AUTOMA.md 3.3): faction offered with planning card, one-hot |
| 7359:7394 | `pending_kind` | 35 | pending decision kind one-hot (observation.DECISION_KINDS, in Kind order) |
| 7394:7399 | `pending_seat` | 5 | seat to decide, relative (0 = the observer decides) |
| 7399:7400 | `pending_count` | 1 | spades (free spades of a TB) / books / steps (above 7 at a key) / new city rewards still to go / 8; power offered / 16 |
| 7400:7404 | `pending_flags` | 4 | Terraform & Build flags: buy spades, Workshop allowed, Lizards, no jump |
| 7404:7411 | `pending_building` | 7 | building of a pending initial or neutral placement or upgrade, workshop .. monument (palace 16's Guild: 0, its kind says it) |
| 7411:7414 | `pending_source` | 3 | upgrade source: paid action, free (palace 4, BA5), palace 3 swap |
| 7414:7417 | `pending_bridge` | 3 | bridge mode: spell/printed, Moles; bridges left / 3 |
| 7417:7421 | `pending_discipline` | 4 | discipline of a key decision (R50) |
| 7421:7422 | `pending_option` | 1 | second action (MAIN) / during setup / from palace 11 |
| 7422:7425 | `pending_parts` | 3 | palace 15 parts left: spades, bridges, books (R135) |
| 7425:7430 | `pending_builder` | 5 | power offer: the builder, relative seat (R42) |
| 7430:7435 | `pending_turn` | 5 | Phase II: the seat whose turn it is, relative (decisions also come in others' turns) |
| 7435:7437 | `pending_acquisition` | 2 | reward order (R55.4): the upgrade's competency / palace tile |

`state()` returns the observation of `player_0` (seat 0's egocentric view is the absolute
layout: relative seat r = seat r), with `state_space` equal to that Box.

## Legal Actions Mask

`action_mask` is an int8 vector of 276: 1 for each legal id of the pending decision if the
agent decides now, all zeros for every other agent and for a terminated or truncated one (after
the game, or after an illegal move ends it in `env()`).  The deciding agent
always has at least one legal id (the engine guarantees "no dead ends": every offered id can be
completed).

## Action Space

One `Discrete(276)` shared by every decision.  Ids come in contiguous blocks
(`aoi_env.core.moves`); what an id means depends on the pending decision (hex id 40 is
"target r3c1" when choosing where to terraform, "upgrade r3c1" when choosing what to upgrade).
`env.unwrapped.game.move_str(id)` gives the notation of a legal id and
`env.unwrapped.game.parse_move(text)` the id of a notation string (docs/notation.md).

| block | ids | size | meaning |
|---|---|---|---|
| `HEX` | 0-116 | 117 | a map position `row * 13 + col` |
| `DISC` | 117-120 | 4 | a discipline / book colour: banking, law, engineering, medicine |
| `COUNT` | 121-123 | 3 | a number 1-3 (spades on the first hex, ...) |
| `BUILDING` | 124-130 | 7 | workshop, guild, school, university, palace, tower, monument |
| `ACTION` | 131-137 | 7 | main action: build, sail, dig, innovate, molebridge, pavilion, pass |
| `SCHOLAR` | 138-149 | 12 | send scholar: discipline * 3 + (space 3, space 2, return) |
| `SPELL` | 150-155 | 6 | spells S1 S2 S4 S5 S3 S6 (printed order) |
| `BOOK` | 156-161 | 6 | book actions BA1-BA6 |
| `SPECIAL` | 162-167 | 6 | special action of: palace, deus ex machina, professors, competency C7, bonus tile, faction |
| `CONVERT` | 168-181 | 14 | conversions: burn, 5pw->scholar, 5pw->book x4, 3pw->tool, 1pw->coin, scholar->tool, tool->coin, book->coin x4 |
| `DONE` | 182-182 | 1 | end / decline / skip / no key |
| `YES` | 183-183 | 1 | accept (a power offer), use a key |
| `TUNNEL` | 184-184 | 1 | choose a tunnel target next (Moles) |
| `FLY` | 185-185 | 1 | choose a flight target next (palace 9) |
| `BONUS` | 186-195 | 10 | round bonus tiles B1-B10 |
| `PALACE` | 196-212 | 17 | palace tiles 1-17 |
| `COMPETENCY` | 213-224 | 12 | competency tiles C1-C12 |
| `CITY` | 225-231 | 7 | city tiles K1-K7 |
| `INNOVATION` | 232-249 | 18 | innovation tiles (data order) |
| `BUNDLE` | 250-256 | 7 | standard-distribution set of each terrain (R15) |
| `TERRAIN` | 257-263 | 7 | planning cards (draft, R16) |
| `FACTION` | 264-275 | 12 | faction tiles (draft R16; the solo pick of a faction and terrain) |

Decode an id: take the block with the largest first id <= id; the offset inside the block is
the component index (`aoi_env.core.moves.block_of`).  Example: 193 = BONUS 186 + 7 -> round
bonus tile B8 (`bonus B8` when taking a tile while passing); 42 = HEX 0 + 42 -> position 42 = row 3, column 3
= `r3c3`.

## Rewards

Rewards are 0 until the game ends (after round 6, R82), then every agent gets its final reward
at once (read it with `last()` on its dead step):

| `reward=` | final reward |
|---|---|
| `"rank"` (default) | by final VP rank: 1st +1, last -1, linear in between (1 - 2 r / (n - 1) for place r = 0..n-1); tied players share (average) the values of the places they occupy (R86: ties are shared); zero-sum |
| `"win"` | the winner(s) share +1 (each of k tied winners gets 1 / k), everyone else -1 |
| `"score_diff"` | (own VP - mean VP of the others) / 100 |

At the end `infos[agent]` holds `{"vp": final VP, "rank": 1-based shared rank}` (not when an
illegal move in `env()` ended the game: the engine's game did not end, and the infos stay empty).

## Illegal actions

`raw_env.step` with an id that is out of range or not an integer raises `ValueError` naming the
agent and the id, and with an in-range id that is not legal also the pending decision and the
legal moves; so does a step
when `agent_selection` was changed to an agent whose decision is not pending, and a step after
every agent has taken its final (dead) step; the game is unchanged.  Before `reset()`, `step`
and `observe` raise `RuntimeError`.  `env()` (the classic wrapper
chain `TerminateIllegalWrapper(illegal_reward=-1)` -> `AssertOutOfBoundsWrapper` ->
`OrderEnforcingWrapper`) instead ends the game as PettingZoo classic does: the offender gets -1,
everyone else 0, and every agent is terminated (a step by an agent whose mask is all zeros is
such an illegal move).  An id outside the action space or not an integer fails the
`AssertOutOfBoundsWrapper` assertion (`AssertionError`), a step before `reset()` fails
`OrderEnforcingWrapper`'s, and a step after the end only warns.

## Parameters

`aoi_env.env(num_players=4, **options)` and `aoi_env.raw_env(...)`; a bad value raises
`ValueError` naming the parameter and the valid values.

| parameter | default | values |
|---|---|---|
| `num_players` | 4 | 2-5 (R5); 1-2 with an Automa |
| `map` | `"auto"` | board side `"3-5"` or `"1-3"`; `"auto"`: 1-3 for 2 seats (players + Automas), else 3-5 |
| `ruleset` | `"v1.2"` | `"v1.2"` or `"v1.0"` (first-edition faction numbers, R145) |
| `distribution` | `"standard"` | `"standard"` sets (R15) or `"draft"` (R16) |
| `factions` | `()` | one faction name per seat, e.g. `("moles", "omar", "felines")` |
| `boards` | `()` | one planning board (terrain) per seat, e.g. `("lake", "desert", "forest")` |
| `setup_choices` | `"players"` | `"players"`: agents take the setup decisions; `"random"`: the engine does |
| `skip_forced` | `True` | apply decisions with a single legal id automatically |
| `area_tokens` | `(12, 13, 14, 15)` | 2-player neutral area token values (OP-11) |
| `automa` | `()` | solo Automa seats after the players, `faction:level[:terrain]` such as `simpletons:3` (docs/automa.md); their turns happen inside the environment, only the players are agents |
| `reward` | `"rank"` | `"rank"`, `"win"`, `"score_diff"` (see Rewards) |
| `render_mode` | `None` | `"human"` (prints text), `"ansi"` (returns text), `"svg"` (returns an SVG string) |
| `check_invariants` | `False` | debug: run `aoi_env.core.invariants.check` after `reset` and every `step`; a broken invariant raises `AssertionError` listing every violation (docs/reliability.md) |

`reset(seed=s)` plays the engine game `aoi_env.Game(config, seed=s)`, so a recorded game is
replayed by the same seed and move list; `reset()` without a seed draws the game seed from
`env.np_random`.  `reset(options={"game": g})` starts from a copy of the engine game `g` (same
number of players, ruleset, Automas and board side; e.g. a position built with
`aoi_env.testing.Scenario`); the copy goes on by its own `g.config`, so its `skip_forced`,
`setup_choices` and `area_tokens` apply, not the env's; other option keys are ignored.
`env.unwrapped.game` is the engine `Game` (scores, notation, text rendering, clone).

## Usage

```python
import aoi_env

env = aoi_env.env(num_players=3)
env.reset(seed=42)
for agent in env.agent_iter():
    observation, reward, termination, truncation, info = env.last()
    mask = observation["action_mask"]
    action = None if termination or truncation else env.action_space(agent).sample(mask)
    env.step(action)
print(env.unwrapped.game.scores())
env.close()
```

For speed, drive `aoi_env.raw_env(...)` where PettingZoo's checking wrappers are not needed (they
cost about 20 µs a step; docs/performance.md).  Many games at once, without PettingZoo, for data
generation and evaluation:

```python
import numpy as np
from aoi_env.vector import VectorGame

vec = VectorGame("aoi(players=3)", n=16, seed=0)  # auto-reset: every game always has a decision
rng = np.random.default_rng(0)
for _ in range(1000):
    obs = vec.observations()  # float32[16, 7437], each game seen by its deciding seat
    masks = vec.legal_masks()  # int8[16, 276]
    step = vec.step(vec.random_actions(rng))  # or a policy's actions, one legal id per game
    for i in np.flatnonzero(step.done):  # finished games: final scores, rewards and seeds
        print(step.seeds[i], step.scores[i], step.rewards[i])
```

`ObservationEncoder().encode(game, seat)` gives one observation of an engine `Game` as a new
array; `encode_into(out, game, seat)` writes it into a float32 vector you own (a row of a batch),
which is what `VectorGame.observations` does.

## Version History

* v0: first release: all rules R1-R146, action schema 1 (aoi-env 0.1.0).  Observation schema 5
  (7,437 floats); before the release it was 1 (5,891 floats), then 2 (5,987: whose turn it is in
  Phase II, the Lizards' hex, the reward-order and palace 15 context, offers above 8, the solo
  pick), then 3 (6,127: the Automa's public cards and bonus row), then 4 (7,297: which hexes each
  bridge joins, `hex_bridge_dirs` instead of the hexes it touches; coins / 100), then 5 (the
  Automa's support card and her face-up action card, `player_automa_open`).  A model records the schema it was
  trained on, and loading one trained on another layout is a `ValueError`.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle, seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from aoi_env.core.config import DEFAULT_PARAMS, GameConfig, check_choice, check_seed, is_integer
from aoi_env.core.engine import Game
from aoi_env.core.moves import BLOCKS, NUM_ACTIONS
from aoi_env.observation import OBS_SIZE, ObservationEncoder, encode

ENV_NAME = "age_of_innovation_v0"
REGISTRY_ID = "aoi/age_of_innovation-v0"
REWARD_KINDS = ("rank", "win", "score_diff")
SCORE_DIFF_SCALE = 100.0
GAME_OPTIONS = tuple(k for k in DEFAULT_PARAMS if k != "players")
"""Game parameters accepted as keyword options (``num_players`` stands for ``players``)."""

ACTION_BLOCK_DOCS = {
    "HEX": "a map position `row * 13 + col`",
    "DISC": "a discipline / book colour: banking, law, engineering, medicine",
    "COUNT": "a number 1-3 (spades on the first hex, ...)",
    "BUILDING": "workshop, guild, school, university, palace, tower, monument",
    "ACTION": "main action: build, sail, dig, innovate, molebridge, pavilion, pass",
    "SCHOLAR": "send scholar: discipline * 3 + (space 3, space 2, return)",
    "SPELL": "spells S1 S2 S4 S5 S3 S6 (printed order)",
    "BOOK": "book actions BA1-BA6",
    "SPECIAL": "special action of: palace, deus ex machina, professors, competency C7, bonus tile, faction",
    "CONVERT": "conversions: burn, 5pw->scholar, 5pw->book x4, 3pw->tool, 1pw->coin, scholar->tool, "
    "tool->coin, book->coin x4",
    "DONE": "end / decline / skip / no key",
    "YES": "accept (a power offer), use a key",
    "TUNNEL": "choose a tunnel target next (Moles)",
    "FLY": "choose a flight target next (palace 9)",
    "BONUS": "round bonus tiles B1-B10",
    "PALACE": "palace tiles 1-17",
    "COMPETENCY": "competency tiles C1-C12",
    "CITY": "city tiles K1-K7",
    "INNOVATION": "innovation tiles (data order)",
    "BUNDLE": "standard-distribution set of each terrain (R15)",
    "TERRAIN": "planning cards (draft, R16)",
    "FACTION": "faction tiles (draft R16; the solo pick of a faction and terrain)",
}


CARD_HEADER = (
    "<!-- generated from the docstring of aoi_env/env.py by write_card() in aoi_env/env.py; do not edit -->\n\n"
)


def card() -> str:
    """The environment card (this module's docstring) as the Markdown of docs/environment.md."""
    return CARD_HEADER + (__doc__ or "")


def write_card(path: str = "docs/environment.md") -> None:
    """Regenerate docs/environment.md: ``python -c "from aoi_env.env import write_card; write_card()"``."""
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(card())


def action_table() -> str:
    """The action-block rows of the environment card, generated from ``aoi_env.core.moves``."""
    rows = []
    for name, (base, size) in BLOCKS.items():
        rows.append(f"| `{name}` | {base}-{base + size - 1} | {size} | {ACTION_BLOCK_DOCS[name]} |")
    return "\n".join(rows)


def observation_table() -> str:
    """The observation-layout rows of the environment card, generated from ``aoi_env.observation``."""
    from aoi_env.observation import layout_table

    return "\n".join(layout_table().splitlines()[2:])


def final_rewards(scores: np.ndarray, kind: str = "rank") -> np.ndarray:
    """Final rewards per seat from final VP (see the card's Rewards section)."""
    scores = np.asarray(scores, dtype=np.float64)
    n = len(scores)
    if kind == "rank":
        # place r (0 = first) is worth 1 - 2 r / (n - 1); players tied on places i..j-1 share their
        # mean, (n - 1 - (i + j - 1)) / (n - 1), computed from integers so ties give exact zeros
        order = np.argsort(-scores, kind="stable")
        out = np.empty(n)
        i = 0
        while i < n:
            j = i
            while j < n and scores[order[j]] == scores[order[i]]:
                j += 1
            out[order[i:j]] = (n - 1 - (i + j - 1)) / (n - 1)  # R86: tied players share
            i = j
        return out
    if kind == "win":
        winners = scores == scores.max()
        return np.where(winners, 1.0 / winners.sum(), -1.0)
    if kind == "score_diff":
        others = (scores.sum() - scores) / (n - 1)
        return (scores - others) / SCORE_DIFF_SCALE
    raise ValueError(f"reward must be one of {', '.join(REWARD_KINDS)}; got {kind!r}")


def vp_ranks(scores: np.ndarray) -> list[int]:
    """1-based ranks with ties shared: VP 30, 25, 25, 10 -> 1, 2, 2, 4."""
    return [1 + int(np.count_nonzero(scores > s)) for s in scores]


class raw_env(AECEnv[str, dict[str, np.ndarray], int], EzPickle):  # noqa: N801 - PettingZoo naming
    """The AEC environment without wrappers (illegal actions raise ``ValueError``); see the card."""

    metadata = {
        "name": ENV_NAME,
        "render_modes": ["human", "ansi", "svg"],
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        num_players: int = 4,
        render_mode: str | None = None,
        reward: str = "rank",
        check_invariants: bool = False,
        **options: Any,
    ) -> None:
        EzPickle.__init__(
            self,
            num_players=num_players,
            render_mode=render_mode,
            reward=reward,
            check_invariants=check_invariants,
            **options,
        )
        super().__init__()
        unknown = sorted(set(options) - set(GAME_OPTIONS))
        if unknown:
            valid = ", ".join(("num_players", *GAME_OPTIONS, "reward", "render_mode", "check_invariants"))
            raise ValueError(f"unknown parameter {unknown[0]!r}; valid: {valid}")
        if not is_integer(num_players):
            raise ValueError(f"num_players must be an integer 2..5, got {num_players!r}")
        if not options.get("automa") and not 2 <= int(num_players) <= 5:
            raise ValueError(f"num_players must be 2..5 (or 1-2 with automa=...), got {num_players}")
        check_choice("reward", reward, REWARD_KINDS)
        if render_mode is not None and (
            not isinstance(render_mode, str) or render_mode not in self.metadata["render_modes"]
        ):
            raise ValueError(f"render_mode must be None or one of {', '.join(self.metadata['render_modes'])}")
        if not isinstance(check_invariants, bool):
            raise ValueError(f"check_invariants must be True or False, got {check_invariants!r}")
        self.config = GameConfig.from_params(options, players=int(num_players))
        self.reward_kind = reward
        self.render_mode = render_mode
        self.check_invariants = check_invariants

        self.possible_agents = [f"player_{i}" for i in range(self.config.players)]
        self.agents: list[str] = []
        obs_box = {a: spaces.Box(0.0, 1.0, (OBS_SIZE,), np.float32) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict({"observation": obs_box[a], "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8)})
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self.state_space = spaces.Box(0.0, 1.0, (OBS_SIZE,), np.float32)
        self._encoder = ObservationEncoder()
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self.game: Game | None = None
        self.np_random: np.random.Generator | None = None  # type: ignore[assignment]

    # -- spaces ----------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space:
        """Dict of ``observation`` (float32[OBS_SIZE]) and ``action_mask`` (int8[NUM_ACTIONS])."""
        return self.observation_spaces[self._known(agent)]

    def action_space(self, agent: str) -> spaces.Space:
        """Discrete(NUM_ACTIONS): one id per action of docs/environment.md's table."""
        return self.action_spaces[self._known(agent)]

    def _known(self, agent: str) -> str:
        """``agent`` if it is one of ``possible_agents`` (an Automa seat is not an agent)."""
        if not isinstance(agent, str) or agent not in self._seat:
            raise ValueError(f"unknown agent {agent!r}; the agents are {', '.join(self.possible_agents)}")
        return agent

    # -- episode ---------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game: ``Game(config, seed)``; without a seed, one drawn from ``np_random``."""
        if seed is not None:
            seed = check_seed(seed)
        if options is not None and not isinstance(options, dict):  # other keys are ignored (PettingZoo's api_test)
            raise ValueError(f"options must be a dict (key 'game': a start position) or None, got {options!r}")
        start = (options or {}).get("game")
        start_game = None if start is None else self._start_position(start)  # checked before re-seeding
        if seed is not None or self.np_random is None:
            self.np_random, _ = seeding.np_random(seed)
        if start_game is not None:
            self.game = start_game
        else:
            game_seed = int(seed) if seed is not None else int(self.np_random.integers(2**31 - 1))
            self.game = Game(self.config, seed=game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = self.possible_agents[self.game.current_seat()]
        self._check(self.game)

    def _start_position(self, start: Game) -> Game:
        """A copy of an engine game to start from (``reset(options={"game": g})``)."""
        if not isinstance(start, Game):
            raise ValueError(f"options['game'] must be an aoi_env.Game, got {type(start).__name__}")
        if start.config.players != len(self.possible_agents) or start.seats != self.config.seats:
            raise ValueError(f"options['game'] has {start.seats} players, this env {self.config.seats}")
        ours = (self.config.ruleset, self.config.automa, self.config.map_side)
        theirs = (start.config.ruleset, start.config.automa, start.geo.name)
        if theirs != ours:
            raise ValueError(f"options['game'] is a game of (ruleset, automa, board side) {theirs}, this env {ours}")
        if start.is_over():
            raise ValueError("options['game'] is already over")
        return start.clone()

    def step(self, action: int | None) -> None:
        """Apply ``agent_selection``'s action (None for a finished agent's last step, A7); the
        Automa's turns run inside.  An illegal id is a ValueError and changes nothing."""
        game = self.game
        if game is None:  # (no method calls on the per-step path unless needed: issue 10)
            game = self._require_game()  # raises the RuntimeError
        if not self.agents:
            raise ValueError("the game is over and every agent has taken its final step: call reset()")
        agent = self.agent_selection
        if agent not in self.terminations:  # agent_selection set by hand to no live agent
            raise ValueError(f"agent_selection {agent!r} is none of the live agents {', '.join(self.agents)}")
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)  # A7: one vacuous step(None) per finished agent
            return
        if action is None:
            raise ValueError(f"{agent} must act (pending: {self._pending_name(game)}); got None")
        acting = self.possible_agents[game._seat]  # current_seat() without its call (~330 instructions; issue 10)
        if agent != acting:  # agent_selection was changed by hand: never act for the wrong seat
            raise ValueError(f"{agent} cannot act now: the pending decision ({self._pending_name(game)}) is {acting}'s")
        if isinstance(action, np.ndarray) and action.shape == ():
            action = action[()]  # a 0-d array from a policy; the engine checks the type
        try:
            game.apply_action(action)
        except ValueError as err:
            raise ValueError(f"{agent}: {err}") from None
        if self.check_invariants:
            self._check(game)
        self._cumulative_rewards[agent] = 0.0
        seat = game._seat  # current_seat(): -1 once the game is over (is_over()), no seat decides
        if seat < 0:
            self._clear_rewards()
            self._finish(game)
            self._accumulate_rewards()
        else:  # rewards are all zero until the end (final rewards only): nothing to clear or add
            self.agent_selection = self.possible_agents[seat]
        if self.render_mode == "human":
            self.render()

    @staticmethod
    def _pending_name(game: Game) -> str:
        kind = game.pending_kind()
        return "none" if kind is None else kind.name.lower()

    def _check(self, game: Game) -> None:
        """``check_invariants=True``: every broken invariant, listed in one ``AssertionError``."""
        if self.check_invariants:
            from aoi_env.core.invariants import check

            check(game)

    def _finish(self, game: Game) -> None:
        """Final rewards for everyone; every agent is terminated and then takes its dead step."""
        scores = game.scores()
        rewards = final_rewards(scores, self.reward_kind)
        ranks = vp_ranks(scores)
        for seat, a in enumerate(self.possible_agents):
            self.rewards[a] = float(rewards[seat])
            self.terminations[a] = True
            self.infos[a] = {"vp": int(scores[seat]), "rank": ranks[seat]}
        self._deads_step_first()

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """``AECEnv.last``, with the documented ``RuntimeError`` before ``reset()`` (there is no
        ``agent_selection`` to read yet)."""
        if self.game is None:
            self._require_game()
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's egocentric observation and its action mask (zeros unless it decides now)."""
        game = self.game
        if game is None:  # (not a _require_game() call per observation: ~500 instructions; issue 10)
            game = self._require_game()  # raises the RuntimeError
        try:
            seat = self._seat.get(agent)
        except TypeError:  # unhashable: a list, an array
            seat = None
        if seat is None:
            self._known(agent)  # raises the ValueError naming the agents
        deciding = game._seat == seat and not (self.terminations.get(agent) or self.truncations.get(agent))
        mask = game.action_mask() if deciding else np.zeros(NUM_ACTIONS, dtype=np.int8)
        return {"observation": self._encoder.encode(game, seat), "action_mask": mask}

    def state(self) -> np.ndarray:
        """The global state: seat 0's observation (relative seat r = seat r)."""
        return encode(self._require_game(), 0)

    # -- rendering -------------------------------------------------------------------------

    def render(self) -> str | None:
        """The position as ANSI text or SVG (``render_mode``); None, with a warning, without a mode."""
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        game = self._require_game()
        if self.render_mode == "svg":
            from aoi_env.render.svg import render_svg

            return render_svg(game)
        from aoi_env.render.text import render_text

        text = render_text(game)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        """Nothing to release (no window); defined because ``render`` is (api_test)."""

    def _require_game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game


def env(num_players: int = 4, **options: Any) -> AECEnv:
    """The wrapped environment (PettingZoo classic chain); illegal actions end the game with -1."""
    e: AECEnv = raw_env(num_players=num_players, **options)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e
