"""GameConfig: defaults, the game string round trip, and errors that name the problem (STYLE §5.3, STYLE §5.15)."""

from __future__ import annotations

import re

import pytest

from aoi_env.core.config import DEFAULT_PARAMS, GameConfig


def test_defaults():
    """DEFAULT_PARAMS is the spec: 4 players, rules v1.2, board side from the player count (R5)."""
    c = GameConfig()
    assert c.players == 4
    assert c.ruleset == "v1.2"
    assert c.map == "auto" and c.map_side == "3-5"
    assert c.distribution == "standard"
    assert c.factions == () and c.boards == ()
    assert c.setup_choices == "players"
    assert c.skip_forced is True
    assert c.area_tokens == (12, 13, 14, 15)  # OP-11 placeholder
    assert str(c) == "aoi(players=4)"  # players is always written; other defaults are left out
    assert set(c.to_params()) == set(DEFAULT_PARAMS)
    assert GameConfig.parse("aoi()") == c


@pytest.mark.parametrize(
    "text",
    [
        "aoi(players=3,ruleset=v1.0,factions=moles+felines+omar)",
        "aoi(players=2)",
        "aoi(players=3,map=1-3)",
        "aoi(players=5,distribution=draft)",
        "aoi(players=3,boards=lake+desert+swamp,setup_choices=random,skip_forced=false)",
        "aoi(players=2,area_tokens=13)",
        "aoi(players=4,ruleset=v1.0,map=3-5,factions=monks+omar+inventors+lizards,boards=plains+forest+mountain+wasteland)",
    ],
)
def test_game_string_round_trip(text: str):
    """STYLE §5.3: ``str(config)`` gives the game string, which ``GameConfig.parse`` reads back."""
    c = GameConfig.parse(text)
    assert str(c) == text
    assert GameConfig.parse(str(c)) == c
    assert GameConfig.from_params(c.to_params()) == c


def test_parse_normalises_spacing_and_names():
    c = GameConfig.parse(" aoi( players = 3 , factions = Moles+FELINES+omar ) ")
    assert c.players == 3
    assert c.factions == ("moles", "felines", "omar")
    assert str(c) == "aoi(players=3,factions=moles+felines+omar)"
    assert c == GameConfig(players=3, factions=("moles", "felines", "omar"))
    assert c == GameConfig.from_params({"players": 3}, factions=["moles", "felines", "omar"])


def test_config_is_frozen():
    c = GameConfig()
    with pytest.raises(AttributeError):
        c.players = 3  # type: ignore[misc]


def test_r5_map_side_follows_the_player_count():
    """R5: 2 players the 1-3 side; 3 players the 3-5 side (1-3 optional); 4-5 players the 3-5 side."""
    assert GameConfig(players=2).map_side == "1-3"
    assert GameConfig(players=3).map_side == "3-5"
    assert GameConfig(players=3, map="1-3").map_side == "1-3"
    assert GameConfig(players=4).map_side == "3-5"
    assert GameConfig(players=5).map_side == "3-5"


# ------------------------------------------------------------------------------------------------
# errors


def _raises(text: str, pattern: str) -> None:
    with pytest.raises(ValueError, match=pattern):
        GameConfig.parse(text)


@pytest.mark.parametrize("players", [1, 6])
def test_r5_player_count_outside_2_to_5_is_rejected(players: int):
    """R5: the game is for 2-5 players."""
    _raises(f"aoi(players={players})", rf"players must be 2\.\.5, got {players}")
    with pytest.raises(ValueError, match=r"players must be 2\.\.5"):
        GameConfig(players=players)


def test_non_integer_player_count_is_rejected():
    _raises("aoi(players=three)", "players must be an integer, got 'three'")
    with pytest.raises(ValueError, match="players must be an integer"):
        GameConfig(players="3")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="players must be an integer"):
        GameConfig(players=True)


def test_unknown_parameter_lists_the_valid_names():
    """STYLE §5.15: ``unknown parameter 'player'; valid: players, ruleset, ...``."""
    valid = ", ".join(DEFAULT_PARAMS)
    _raises("aoi(player=3)", re.escape(f"unknown parameter 'player'; valid: {valid}"))
    with pytest.raises(ValueError, match="unknown parameter 'seats'; valid: players, ruleset"):
        GameConfig.from_params({"seats": 3})


def test_unknown_faction_is_rejected():
    _raises("aoi(players=3,factions=moles+cats+omar)", "unknown faction 'cats'; valid: blessed, felines, goblins")


def test_unknown_terrain_is_rejected():
    _raises("aoi(players=3,boards=lake+sea+desert)", "unknown board 'sea'; valid: desert, plains, swamp, lake")


def test_duplicate_faction_is_rejected():
    _raises("aoi(players=3,factions=moles+moles+omar)", "duplicate factions: moles")


def test_duplicate_terrain_is_rejected():
    _raises("aoi(players=3,boards=lake+lake+desert)", "duplicate boards: lake")


def test_automa_factions_and_terrains_must_be_distinct():
    """AUTOMA.md §2.5 / §3.3: each Automa faction card exists once, and every faction in the game
    has its own native terrain, so a clash the config already shows is an error, not a silent
    replacement by a random terrain."""
    _raises("aoi(players=1,automa=simpletons:3+simpletons:4)", "duplicate Automa factions: simpletons")
    _raises("aoi(players=1,automa=druids:2:lake+mimics:3:lake)", "duplicate Automa terrains: lake")
    _raises("aoi(players=1,boards=lake,automa=druids:2:lake)", "Automa terrain lake is also a player's board")
    assert GameConfig.parse("aoi(players=1,boards=lake,automa=druids:2:swamp)").automa == ("druids:2:swamp",)


def test_wrong_number_of_factions_or_boards_is_rejected():
    _raises("aoi(players=3,factions=moles+omar)", "factions must name one per player: got 2 for 3 players")
    _raises("aoi(players=2,boards=lake+desert+swamp)", "boards must name one per player: got 3 for 2 players")


def test_r145_unknown_ruleset_is_rejected():
    """R145: the rule versions are v1.2 (default) and v1.0."""
    _raises("aoi(ruleset=v2)", "ruleset must be one of v1.2, v1.0; got 'v2'")


def test_other_unknown_choices_are_rejected():
    _raises("aoi(map=2-4)", "map must be one of auto, 3-5, 1-3; got '2-4'")
    _raises("aoi(distribution=auction)", "distribution must be one of standard, draft; got 'auction'")
    _raises("aoi(setup_choices=ai)", "setup_choices must be one of players, random; got 'ai'")
    _raises("aoi(skip_forced=maybe)", "skip_forced must be true or false, got 'maybe'")


def test_r5_map_3_5_with_2_players_is_rejected():
    """R5 / R24: a 2-player game uses the 1-3 side."""
    _raises("aoi(players=2,map=3-5)", r"a 2-player game uses the 1-3 board side \(R5, R24\)")


@pytest.mark.parametrize("players", [4, 5])
def test_r5_map_1_3_with_4_or_5_players_is_rejected(players: int):
    """R5: the 1-3 side is for 1-3 players."""
    _raises(f"aoi(players={players},map=1-3)", f"the 1-3 board side is for 1-3 players, not {players}")


def test_op11_area_tokens_must_be_non_negative_integers():
    """OP-11: the 2-player area token values are a parameter of non-negative integers."""
    _raises("aoi(players=2,area_tokens=-1)", "area_tokens must be non-negative integers, got '-1'")
    _raises("aoi(players=2,area_tokens=a+b)", "area_tokens must be non-negative integers, got 'a\\+b'")
    assert GameConfig.parse("aoi(players=2,area_tokens=10+20)").area_tokens == (10, 20)


@pytest.mark.parametrize(
    "text, pattern",
    [
        ("aoi(players=3", r"bad game string 'aoi\(players=3': expected aoi\(name=value,...\)"),
        ("foo(players=3)", r"bad game string 'foo\(players=3\)': expected aoi"),
        ("players=3", r"bad game string 'players=3': expected aoi"),
        ("aoi(players)", r"bad game string 'aoi\(players\)': 'players' is not name=value"),
        ("aoi(players=3,players=4)", r"parameter 'players' is given twice"),
        ("", r"bad game string '': expected aoi"),
    ],
)
def test_malformed_game_strings_are_rejected(text: str, pattern: str):
    _raises(text, pattern)
