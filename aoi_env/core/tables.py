"""Component rows with every ruleset / player-count choice resolved, built once per (ruleset, players).

The engine reads gains from here (``tables(ruleset, players).faction_events[faction]["spade"]``)
so no effect code ever branches on the ruleset.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from aoi_env.core import pending
from aoi_env.data import (
    EVENTS,
    FACTION_FLAGS,
    FACTION_VALUES,
    PALACE_FLAGS,
    PALACE_VALUES,
    DataError,
    load,
    resolve,
    resolve_gain,
)
from aoi_env.data.enums import Building

Gain = dict[str, Any]
Events = dict[str, Gain]


def _events(row: dict[str, Any], ruleset: str, players: int) -> Events:
    return {ev: resolve_gain(g, ruleset, players) for ev, g in row.get("events", {}).items()}


def _part(row: dict[str, Any], key: str, ruleset: str, players: int) -> Gain:
    return resolve_gain(row.get(key, {}), ruleset, players)


@dataclass(frozen=True)
class Tables:
    ruleset: str
    players: int
    faction_events: tuple[Events, ...]
    faction_income: tuple[Gain, ...]
    faction_special: tuple[Gain, ...]
    faction_start: tuple[Gain, ...]
    faction_flags: tuple[dict[str, Any], ...]  # scalar fields (tunnel, spell_discount, ...)
    palace_events: tuple[Events, ...]
    palace_income: tuple[Gain, ...]
    palace_once: tuple[Gain, ...]
    palace_special: tuple[Gain, ...]
    palace_pass: tuple[Gain, ...]
    palace_flags: tuple[dict[str, Any], ...]
    innovation_once: tuple[Gain, ...]
    innovation_income: tuple[Gain, ...]
    innovation_special: tuple[Gain, ...]
    innovation_pass: tuple[Gain, ...]
    competency_events: tuple[Events, ...]
    competency_income: tuple[Gain, ...]
    competency_once: tuple[Gain, ...]
    competency_special: tuple[Gain, ...]
    competency_pass: tuple[Gain, ...]
    bonus_events: tuple[Events, ...]
    bonus_income: tuple[Gain, ...]
    bonus_special: tuple[Gain, ...]
    bonus_pass: tuple[Gain, ...]
    bonus_reach: tuple[int, ...]
    round_events: tuple[Events, ...]
    round_science: tuple[dict[str, Any], ...]
    final_events: tuple[Events, ...]
    final_building: tuple[Building, ...]
    spell_cost: tuple[int, ...]
    spell_effect: tuple[Gain, ...]
    book_cost: tuple[int, ...]
    book_effect: tuple[Gain, ...]
    city_vp: tuple[int, ...]
    city_reward: tuple[Gain, ...]

    @functools.cached_property  # built once per Tables (a frozen dataclass still has a __dict__)
    def gains_by_source(self) -> dict[tuple[int, int], tuple[Gain, ...]]:
        """(source, part) -> the gain of each component of that source: what a ``Kind.GAIN`` row
        names (the engine applies it; the invariants check a row's source, part and id against it)."""
        return {
            (pending.SRC_BOOK, pending.PART_EFFECT): self.book_effect,
            (pending.SRC_SPELL, pending.PART_EFFECT): self.spell_effect,
            (pending.SRC_CITY, pending.PART_REWARD): self.city_reward,
            (pending.SRC_INNOVATION, pending.PART_ONCE): self.innovation_once,
            (pending.SRC_PALACE, pending.PART_ONCE): self.palace_once,
            (pending.SRC_COMPETENCY, pending.PART_ONCE): self.competency_once,
            (pending.SRC_BONUS, pending.PART_PASS): self.bonus_pass,
            (pending.SRC_INNOVATION, pending.PART_PASS): self.innovation_pass,
            (pending.SRC_PALACE, pending.PART_PASS): self.palace_pass,
            (pending.SRC_COMPETENCY, pending.PART_PASS): self.competency_pass,
        }


@functools.cache
def tables(ruleset: str, players: int) -> Tables:
    """The component data with every ruleset- and player-count choice resolved (R145), once per
    (ruleset, seats): the engine reads these tuples instead of the YAML dicts."""
    d = load()

    def rows(seq: tuple[dict[str, Any], ...], key: str) -> tuple[Gain, ...]:
        return tuple(_part(r, key, ruleset, players) for r in seq)

    def events(seq: tuple[dict[str, Any], ...]) -> tuple[Events, ...]:
        return tuple(_events(r, ruleset, players) for r in seq)

    flag_keys = FACTION_FLAGS + FACTION_VALUES
    # one more, empty row after the 12 factions: a seat without a faction (an Automa, P_FACTION = -1)
    # reads it through index -1 instead of the last faction's abilities
    factions = (*d.factions, {})
    faction_flags = tuple({k: resolve(f.get(k, 0), ruleset, players) for k in flag_keys} for f in factions)
    palace_flag_keys = PALACE_FLAGS + PALACE_VALUES
    palace_flags = tuple({k: resolve(p.get(k, 0), ruleset, players) for k in palace_flag_keys} for p in d.palace_tiles)
    building_keys = {b.name.lower(): b for b in Building}
    t = Tables(
        ruleset=ruleset,
        players=players,
        faction_events=events(factions),
        faction_income=rows(factions, "income"),
        faction_special=rows(factions, "special"),
        faction_start=rows(factions, "start"),
        faction_flags=faction_flags,
        palace_events=events(d.palace_tiles),
        palace_income=rows(d.palace_tiles, "income"),
        palace_once=rows(d.palace_tiles, "once"),
        palace_special=rows(d.palace_tiles, "special"),
        palace_pass=rows(d.palace_tiles, "pass"),
        palace_flags=palace_flags,
        innovation_once=rows(d.innovations, "once"),
        innovation_income=rows(d.innovations, "income"),
        innovation_special=rows(d.innovations, "special"),
        innovation_pass=rows(d.innovations, "pass"),
        competency_events=events(d.competencies),
        competency_income=rows(d.competencies, "income"),
        competency_once=rows(d.competencies, "once"),
        competency_special=rows(d.competencies, "special"),
        competency_pass=rows(d.competencies, "pass"),
        bonus_events=events(d.bonus_tiles),
        bonus_income=rows(d.bonus_tiles, "income"),
        bonus_special=rows(d.bonus_tiles, "special"),
        bonus_pass=rows(d.bonus_tiles, "pass"),
        bonus_reach=tuple(int(b.get("reach_bonus", 0)) for b in d.bonus_tiles),
        round_events=events(d.round_tiles),
        round_science=tuple(r["science"] for r in d.round_tiles),
        final_events=events(d.final_tiles),
        final_building=tuple(building_keys[f["building"]] for f in d.final_tiles),
        spell_cost=tuple(int(s["power"]) for s in d.spells),
        spell_effect=rows(d.spells, "effect"),
        book_cost=tuple(int(b["books"]) for b in d.book_actions),
        book_effect=rows(d.book_actions, "effect"),
        city_vp=tuple(int(c["vp"]) for c in d.city_tiles),
        city_reward=rows(d.city_tiles, "reward"),
    )
    for ev_table in (t.faction_events, t.palace_events, t.competency_events, t.bonus_events, t.round_events):
        for evs in ev_table:
            if not set(evs) <= set(EVENTS):
                raise DataError(f"unknown event(s) {sorted(set(evs) - set(EVENTS))}; valid: {', '.join(EVENTS)}")
    return t
