"""Rendering (issue 5 item 4): human / ansi text and the SVG board."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from functools import partial

import numpy as np
import pytest
from pettingzoo.test import render_test

import aoi_env
from aoi_env import Game
from aoi_env.core.board import geometry, hex_name, parse_hex
from aoi_env.core.state import G_AREA_TOKEN, G_ROUND
from aoi_env.data.enums import Terrain
from aoi_env.env import raw_env
from aoi_env.render.svg import NEUTRAL_FILL, TERRAIN_FILL, center, render_svg
from aoi_env.render.text import render_text
from aoi_env.testing import Scenario, play_random

SVG = "{http://www.w3.org/2000/svg}"


def is_svg(result: object) -> bool:
    return isinstance(result, str) and result.startswith("<svg") and result.rstrip().endswith("</svg>")


def drawn_position() -> Game:
    """Seat 0 (Lake): Workshop r4c9 and a Palace r4c8 in a city with a pavilion; seat 1 (Swamp):
    Guild r3c5 and a neutral Tower r2c5; seat 2 (Desert): School r6c3, bridge r6c3-r7c4."""
    return (
        Scenario("aoi(players=3)", factions=["blessed", "felines", "goblins"], boards=["lake", "swamp", "desert"])
        .build(0, "r4c9", "workshop")
        .build(0, "r4c8", "palace")
        .city("r4c8", "r4c9")
        .pavilion("r4c8")
        .build(1, "r3c5", "guild")
        .build(1, "r2c5", "tower", neutral=True)
        .build(2, "r6c3", "school")
        .bridge(2, "r6c3", "r7c4")
        .turn(1)
    )


def elements(svg: str, tag: str, cls: str | None = None) -> list[ET.Element]:
    root = ET.fromstring(svg)
    found = root.iter(f"{SVG}{tag}")
    return [e for e in found if cls is None or cls in (e.get("class") or "").split()]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a16_pettingzoo_render_test_all_modes(players: int, capsys: pytest.CaptureFixture[str]) -> None:
    """A16 / P10: render_test builds the env with render_mode="human" first, then every mode;
    human returns None, ansi a str, svg an SVG document (custom test)."""
    render_test(partial(aoi_env.env, num_players=players), custom_tests={"svg": is_svg})
    assert "round tiles:" in capsys.readouterr().out  # human mode printed the text view


def test_a16_ansi_is_the_text_view_and_human_prints_it(capsys: pytest.CaptureFixture[str]) -> None:
    """ansi returns render_text(game); human prints the same text and returns None."""
    e = raw_env(num_players=3, render_mode="ansi")
    e.reset(seed=1)
    assert e.render() == render_text(e.game)
    h = raw_env(num_players=3, render_mode="human")
    h.reset(seed=1)
    assert h.render() is None
    assert capsys.readouterr().out == render_text(h.game) + "\n"


def test_r25_text_view_hides_the_area_token_until_round_6() -> None:
    """R24 / R25: the 2-player text view shows the neutral faction with its area token as '?'
    while it lies face down, and its value from round 6 on."""
    g = Game("aoi(players=2)", seed=4)
    assert "neutral: area ?, science" in render_text(g)
    g.state.glob[G_ROUND] = 6
    assert f"neutral: area {int(g.state.glob[G_AREA_TOKEN])}, science" in render_text(g)


def test_a16_render_without_mode_warns_and_returns_none() -> None:
    """Gymnasium convention: render() without a render_mode only warns."""
    e = raw_env(num_players=2)
    e.reset(seed=0)
    with pytest.warns(UserWarning, match="without specifying any render mode"):
        assert e.render() is None


@pytest.mark.parametrize(("game", "side"), [("aoi(players=4)", "3-5"), ("aoi(players=2)", "1-3")])
def test_a16_svg_draws_every_hex_in_its_terrain_colour(game: str, side: str) -> None:
    """The board: one pointy-top hexagon per play-area cell, filled with its terrain colour."""
    g = Game(game, seed=0)
    svg = render_svg(g)
    assert is_svg(svg)
    geo = geometry(side)
    hexes = elements(svg, "polygon", "hex")
    assert len(hexes) == int(geo.land.sum() + geo.river.sum())
    rivers = [h for h in hexes if "river" in h.get("class").split()]
    assert len(rivers) == int(geo.river.sum())
    assert {h.get("fill") for h in rivers} == {TERRAIN_FILL[Terrain.RIVER]}
    # pointy-top: the first corner (angle -30 degrees) is right of and above the centre
    x, y = center(0)
    corners = [tuple(map(float, p.split(","))) for p in hexes[0].get("points").split()]
    assert corners[0][0] > x and corners[0][1] < y and len(corners) == 6
    labels = {t.text for t in elements(svg, "text") if t.get("class") != "panel"}
    assert labels == {hex_name(p) for p in range(117) if geo.land[p] or geo.river[p]}  # notation names


def test_a16_svg_buildings_bridges_cities_in_owner_colours() -> None:
    """Buildings are shapes in the owner's planning-board colour (swamp gets a white outline),
    neutral pieces are dashed, cities starred, bridges drawn in the owner's colour."""
    svg = render_svg(drawn_position())
    lake, swamp, desert = (TERRAIN_FILL[t] for t in (Terrain.LAKE, Terrain.SWAMP, Terrain.DESERT))
    workshop = elements(svg, "polygon", "workshop")
    palace = elements(svg, "polygon", "palace")
    guild = elements(svg, "rect", "guild")
    tower = elements(svg, "rect", "tower")
    school = elements(svg, "circle", "school")
    assert [e.get("fill") for e in workshop + palace] == [lake, lake]
    assert [e.get("fill") for e in guild] == [swamp] and guild[0].get("stroke") == "#ffffff"
    assert [e.get("fill") for e in tower] == [swamp] and tower[0].get("stroke-dasharray")  # neutral piece
    assert [e.get("fill") for e in school] == [desert]
    assert len(elements(svg, "polygon", "city")) == 2  # r4c8 and r4c9 are in a city
    assert len(elements(svg, "polygon", "pavilion")) == 1
    bridges = elements(svg, "line", "bridge")
    assert len(bridges) == 1 and len(elements(svg, "line", "bridge-outline")) == 1
    bar = bridges[0]
    assert bar.get("stroke") == desert
    # the bar lies between r6c3 and r7c4
    (x1, y1), (x2, y2) = center(parse_hex("r6c3")), center(parse_hex("r7c4"))
    assert min(x1, x2) <= float(bar.get("x1")) <= max(x1, x2)
    assert min(y1, y2) <= float(bar.get("y1")) <= max(y1, y2)
    assert NEUTRAL_FILL not in svg  # every building here has an owner


def test_a16_svg_panel_lists_every_player_and_the_pending_decision() -> None:
    """Below the board: the status line (who decides what) and one line per player."""
    svg = render_svg(drawn_position())
    texts = [t.text or "" for t in elements(svg, "text")]
    assert any("seat 1 to decide: main" in t for t in texts)
    for seat, faction in enumerate(("blessed", "felines", "goblins")):
        assert any(f"seat {seat} {faction}" in t for t in texts)
    assert any(t.startswith(">  seat 1") or t.startswith("> seat 1") for t in texts)  # marker on seat 1


def test_a16_svg_render_mode_returns_the_board() -> None:
    """render_mode="svg": render() returns render_svg(game)."""
    e = raw_env(num_players=3, render_mode="svg")
    e.reset(seed=3)
    assert e.render() == render_svg(e.game)


def test_a16_svg_panel_names_an_automa_by_faction_and_level() -> None:
    """An Automa seat has no P_FACTION (-1): the panel shows 'A:<faction>:<level>' as the text view
    does (it showed '-'), in full, and the picture is wide enough for the line."""
    g = Game("aoi(players=1,automa=powermongers:5)", seed=1)
    svg = render_svg(g)
    lines = [t.text or "" for t in elements(svg, "text") if " VP " in (t.text or "")]
    automa_line = next(t for t in lines if "seat 1 " in t)
    assert "seat 1 A:powermongers:5 " in automa_line
    root = ET.fromstring(svg)
    assert float(root.get("width")) >= 12 + 20 + len(automa_line) * 13 * 0.6  # monospace at 13 px


def test_a16_svg_panel_shows_the_displays_and_each_players_holdings() -> None:
    """Under the board, as in the text view: the displays (round tiles, bonus tiles, innovations,
    competencies, palace and city tiles) and per player the tracks, palace tile, cities, bridges,
    competencies and innovations; an Automa's deck size, never its order (AUTOMA.md §4.3)."""
    from aoi_env.render.text import header_text, holdings_text

    g = Game("aoi(players=1,automa=simpletons:3)", seed=2)
    # into the game: tiles taken, components held
    play_random(g, np.random.default_rng(0), lambda g: int(g.state.glob[G_ROUND]) >= 4)
    texts = [t.text or "" for t in elements(render_svg(g), "text", "panel")]
    for line in header_text(g).splitlines()[1:]:
        assert line in texts
    details = [t for t in texts if t.startswith("    sailing")]
    assert len(details) == 2 and all(holdings_text(g, seat) in details[seat] for seat in range(2))
    assert any("cards left in her deck (order hidden)" in t for t in texts)
