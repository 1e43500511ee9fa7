"""The text view (aoi_env.render.text) and the terminal player (agents.human): what a person needs
to see to decide (audit of the render module)."""

from __future__ import annotations

import io
from collections import Counter

import numpy as np
import pytest

from agents.human import HumanAgent, HumanQuit
from aoi_env import Game
from aoi_env.core import automa
from aoi_env.core.board import hex_name, parse_hex
from aoi_env.core.pending import TB_BUILD, TB_BUY, Kind
from aoi_env.core.state import (
    G_BONUS_ROW,
    G_BUNDLE_BONUS,
    G_BUNDLE_FACTION,
    H_MARK,
    H_OWNER,
    H_TERRAIN,
    P_DRAFT_PALACE,
    P_PALACE_TILE,
    P_VP,
)
from aoi_env.data import NUM_COLS, NUM_ROWS
from aoi_env.data.enums import TERRAIN_LETTERS, Building, Faction, Terrain
from aoi_env.render.text import (
    CELL,
    LEGEND,
    PENDING_TEXT,
    TERRAIN_NAMES,
    board_text,
    cell_start,
    describe_pending,
    header_text,
    players_text,
    render_text,
)
from aoi_env.testing import Scenario, play_random


def marked_position() -> Game:
    """Seat 0 (Lake): Palace r4c8 in a city with a pavilion, Workshop r4c9; seat 1 (Swamp): Guild
    r3c5, a neutral Workshop r2c5 with a pavilion, a neutral Tower r2c4 in a city; seat 2
    (Desert): School r6c3 and the bridge r6c3-r7c4."""
    return (
        Scenario("aoi(players=3)", factions=["blessed", "felines", "goblins"], boards=["lake", "swamp", "desert"])
        .build(0, "r4c9", "workshop")
        .build(0, "r4c8", "palace")
        .city("r4c8", "r4c9")
        .pavilion("r4c8")
        .build(1, "r3c5", "guild")
        .build(1, "r2c5", "workshop", neutral=True)
        .pavilion("r2c5")
        .build(1, "r2c4", "tower", neutral=True)
        .city("r2c4")
        .build(2, "r6c3", "school")
        .bridge(2, "r6c3", "r7c4")
        .turn(1)
    )


def cell(g: Game, name: str) -> str:
    """The ``CELL`` characters of one hex in ``board_text`` (grid lines follow the column header)."""
    pos = parse_hex(name)
    row, col = divmod(pos, NUM_COLS)
    line = board_text(g).split("\n")[1 + row].ljust(cell_start(row, NUM_COLS))
    return line[cell_start(row, col) : cell_start(row, col) + CELL]


# ------------------------------------------------------------------------------------------------
# the board


def test_c6_pavilion_shows_and_every_hex_keeps_its_column() -> None:
    """C6 pavilion: the hex with a pavilion ends in '+' (it was cut off at 3 characters), and every
    hex of every row starts at ``cell_start``: the terrain letter of each land hex, '~' for a
    river, blanks off the map."""
    g = marked_position()
    assert cell(g, "r4c8") == "LP0+"  # palace (upper case: in a city) of seat 0, pavilion
    assert cell(g, "r4c9") == "LW0 "
    kinds = Counter()
    for game in (g, Game("aoi(players=2)", seed=0)):  # the 3-5 side, then the 1-3 side (off-map corners)
        for pos in range(NUM_ROWS * NUM_COLS):
            t = int(game.state.hexes[pos, H_TERRAIN])
            text = cell(game, hex_name(pos))
            if t == Terrain.OFF:
                assert text.strip() == "", hex_name(pos)
            elif t == Terrain.RIVER:
                assert text.strip() == "~", hex_name(pos)
            else:
                assert text[0].upper() == TERRAIN_LETTERS[t], hex_name(pos)
            kinds["off" if t == Terrain.OFF else "river" if t == Terrain.RIVER else "land"] += 1
    assert min(kinds.values()) > 0, kinds  # each branch ran
    assert "+ pavilion" in LEGEND and LEGEND in board_text(g)


def test_r46_neutral_pieces_are_marked_and_city_towers_upper_case() -> None:
    """R46: neutral pieces end in 'n' ('#' with a pavilion), own pieces do not; a Tower in a city
    is upper case like every building in a city."""
    g = marked_position()
    assert cell(g, "r2c5") == "Sw1#"  # neutral Workshop with a pavilion
    assert cell(g, "r2c4") == "ST1n"  # neutral Tower in a city
    assert cell(g, "r3c5") == "Sg1 "  # own Guild
    assert "n neutral" in LEGEND and "UPPER = in a city" in LEGEND


def test_r38_bridges_are_listed_with_ends_and_owner() -> None:
    """R38 bridges: the text view lists each built bridge with both ends and its owner."""
    text = render_text(marked_position())
    assert "bridges: r6c3-r7c4 (seat 2)" in text
    assert "bridges: -" in render_text(Game("aoi(players=3)", seed=0))


def test_board_lines_keep_their_width_with_colour() -> None:
    """ANSI colours wrap each cell: without the escape codes the coloured board is the plain one."""
    import re

    g = marked_position()
    plain = re.sub(r"\033\[[0-9;]*m", "", board_text(g, color=True))
    assert [line.rstrip() for line in plain.split("\n")] == board_text(g).split("\n")


# ------------------------------------------------------------------------------------------------
# setup


def test_r15_standard_sets_show_faction_and_bonus_tile_while_picked() -> None:
    """R15 standard sets: while a set is to be taken, the header names each set's faction and
    round bonus tile (the moves only say 'set desert'); the line goes once the picks are over."""
    g = Game("aoi(players=2)", seed=5)
    glob = g.state.glob
    want = [
        f"{TERRAIN_NAMES[t]}={Faction(int(f)).name.lower()}+{g.data.bonus_ids[int(glob[G_BUNDLE_BONUS.start + t])]}"
        for t, f in enumerate(glob[G_BUNDLE_FACTION])
    ]
    assert "sets: " + " ".join(want) in header_text(g)
    g.apply_move("set desert")
    assert want[0] not in header_text(g) and want[1] in header_text(g)  # a taken set leaves the line
    while g.pending_kind() == Kind.PICK_BUNDLE:
        g.apply_action(g.legal_actions()[0])
    assert "sets:" not in header_text(g)


def test_r16_drafted_palace_tile_shows_in_brackets_until_placed() -> None:
    """R16 draft: a drafted palace tile shows as '(n)' in the palace column; once the Palace is
    built it becomes the placed tile 'n' (R68)."""
    g = Game("aoi(players=3,distribution=draft)", seed=5)
    while g.state.players[0, P_DRAFT_PALACE] < 0:
        moves = g.legal_moves()
        palace = [i for i, m in enumerate(moves) if m.startswith("draft palace")]
        g.apply_action(g.legal_actions()[palace[0] if palace else 0])
    tile = int(g.state.players[0, P_DRAFT_PALACE]) + 1
    row = players_text(g).split("\n")[1]
    assert f" ({tile}) " in row
    p = g.state.players[0]
    p[P_PALACE_TILE], p[P_DRAFT_PALACE] = tile - 1, -1  # what building the Palace does
    row = players_text(g).split("\n")[1]
    assert f" ({tile}) " not in row and f" {tile} " in row


# ------------------------------------------------------------------------------------------------
# the Automa


def test_automa_faction_is_not_cut_in_the_text_view() -> None:
    """An Automa's faction and level in full (it was cut to 8 letters: 'A:powermon5')."""
    g = Game("aoi(players=1,automa=powermongers:5)", seed=1)
    assert "A:powermongers:5" in players_text(g)


def test_automa_md_4_3_support_and_face_up_action_card_are_shown() -> None:
    """AUTOMA.md §4.3: after her draw everyone sees the support card and the action card left on
    top of her deck (her next support card); a human at the terminal sees them too.  Starter cards
    are written as AUTOMA.md writes them (``*2``).  Before her first draw of a round: neither."""
    from aoi_env.core import automa

    assert "support card" not in players_text(Game("aoi(players=1,automa=druids:3)", seed=4))
    g = play_random(
        Game("aoi(players=1,automa=druids:3)", seed=4),
        np.random.default_rng(4),
        lambda g: automa.open_action_card(automa.record(g, 1)) > 0,
    )
    rec = automa.record(g, 1)
    support, action = int(rec[automa.A_DISCARD.start]), automa.open_action_card(rec)
    label = {c: f"*{c}" if automa.automa_data().cards[c].starter else str(c) for c in (support, action)}
    assert f"support card {label[support]}, action card {label[action]} on top" in players_text(g)


def test_automa_md_4_5_bonus_row_deck_size_and_marked_buildings() -> None:
    """AUTOMA.md §4.5 bonus row: the display is shown left to right (her cards take a tile by
    position); her deck only as a count (the order is hidden); her marked buildings by name."""
    g = play_random(
        Game("aoi(players=1,automa=simpletons:3)", seed=7),
        np.random.default_rng(7),
        lambda g: g.state.hexes[:, H_MARK].any(),
    )
    row = [g.data.bonus_ids[int(b)] for b in g.state.glob[G_BONUS_ROW] if b >= 0]
    shown = next(line for line in header_text(g).split("\n") if line.startswith("bonus row (left to right"))
    assert [x.split("(")[0] for x in shown.split(": ", 1)[1].split()] == row
    deck = int(automa.record(g, 1)[automa.A_DECK_LEN])
    h = g.state.hexes
    marked = [hex_name(p) for p in np.flatnonzero((h[:, H_MARK] > 0) & (h[:, H_OWNER] == 1))]
    assert marked
    text = players_text(g)
    assert f"{deck} cards left in her deck (order hidden)" in text
    assert "marked buildings: " + " ".join(marked) in text
    assert cell(g, marked[0]).endswith("*")


# ------------------------------------------------------------------------------------------------
# the pending decision's parameters


def test_r42_power_offer_shows_amount_vp_cost_and_builder() -> None:
    """R42: at a power offer the header says who built, the power gained and its VP cost
    (gain min(v, capacity, VP + 1), pay gain - 1 VP); the moves are only 'leech accept/decline'."""
    g = Scenario("aoi(players=3)").build(0, "r4c9", "workshop").decide(Kind.OFFER, 1, 3, 0)
    assert "decision: seat 0 built next to you: accept = gain 3 power for 2 VP (offered 3, R42)" in header_text(g)
    g.state.players[1, P_VP] = 1  # R42.5: at most VP + 1 = 2 power
    assert describe_pending(g) == "seat 0 built next to you: accept = gain 2 power for 1 VP (offered 3, R42)"


@pytest.mark.parametrize(
    ("kind", "params", "text"),
    [
        (Kind.SPADES, (2,), "2 spades left to place (no buying, no Workshop)"),
        (
            Kind.TB_TARGET,
            (1, TB_BUY | TB_BUILD),
            "terraform & build: 1 free spade, more bought with tools, then a Workshop",
        ),
        (Kind.PAY_BOOKS, (3,), "3 books still to pay, any colour"),
        (Kind.CHOOSE_BOOKS, (1,), "1 book to gain, colour of choice"),
        (Kind.STEPS_ANY, (2,), "2 science steps to place one at a time (R48)"),
        (Kind.STEPS_ONE, (3,), "3 science steps, all in one discipline"),
        (Kind.NEUTRAL_PLACE, (Building.GUILD,), "place a neutral guild in reach (R46)"),
        (Kind.BRIDGE_END, (0, 2), "2 bridges left to build"),
    ],
)
def test_pending_parameters_are_described(kind: Kind, params: tuple[int, ...], text: str) -> None:
    """Spades, books, steps, a neutral building (R46), bridges: how many are still to place or pay
    (pending.py p0, p1 ...) is in the header and the human's prompt, not only in the engine."""
    g = Scenario("aoi(players=3)").build(0, "r4c9", "workshop").set(0, books=[3, 3, 3, 3]).decide(kind, 0, *params)
    assert g.pending_kind() == kind
    assert text in header_text(g)
    lines: list[str] = []
    HumanAgent(stream=io.StringIO("0\n"), out=lambda *a, **k: lines.append(a[0]), show_board=False).choose(g)
    assert text in lines[0]


def test_tb_finish_header_offers_the_workshop_only_when_legal() -> None:
    """R63: after the spades, the Workshop on the hex is offered only if affordable; the header
    said 'Workshop on <hex> or done' even when it was not a legal move."""
    pos = parse_hex("r0c0")
    g = Scenario("aoi(players=3)").set(0, coins=20, tools=20).decide(Kind.TB_FINISH, 0, 1, TB_BUY | TB_BUILD, pos)
    assert "workshop" in g.legal_moves() and "Workshop on r0c0 or done" in describe_pending(g)
    g = Scenario("aoi(players=3)").set(0, coins=0, tools=0).decide(Kind.TB_FINISH, 0, 1, TB_BUY | TB_BUILD, pos)
    assert "workshop" not in g.legal_moves()
    assert describe_pending(g) == "1 spade left for other hexes; done (no Workshop)"


def test_every_described_kind_has_a_text() -> None:
    """Every entry of the table reads its row (kind, seat, p0 ...) without error."""
    g = Scenario("aoi(players=3)").build(0, "r4c9", "workshop").turn(0)
    for kind, describe in PENDING_TEXT.items():
        assert describe(g, [int(kind), 0, 1, 1, 1, 1, 0, 0]), kind.name


# ------------------------------------------------------------------------------------------------
# the human at the terminal


def human(g: Game, typed: str, **kwargs: object) -> tuple[int | None, str]:
    """The move the human chose (None when the input ran out) and everything shown."""
    lines: list[str] = []
    agent = HumanAgent(stream=io.StringIO(typed), out=lambda *a, **k: lines.append(a[0] if a else ""), **kwargs)
    try:
        action = agent.choose(g)
    except EOFError:
        action = None
    return action, "\n".join(lines)


def test_human_out_of_range_number_names_the_range() -> None:
    """'999' is not a move number: say so with the range (it used to say 'unknown verb')."""
    g = Game("aoi(players=2)", seed=5)
    n = len(g.legal_moves())
    action, shown = human(g, "999\n0\n")
    assert f"no move number 999 (0..{n - 1})" in shown and "unknown verb" not in shown
    assert action == g.legal_actions()[0]


def test_human_negative_number_and_empty_line() -> None:
    """'-1' is a move number out of range and '+1' is move 1, not unknown verbs; an empty line (or one of
    spaces) shows the numbered moves again instead of 'unknown verb'."""
    g = Game("aoi(players=2)", seed=5)
    n = len(g.legal_moves())
    action, shown = human(g, "-1\n+1\n  \n\n0\n", show_board=False)
    assert f"no move number -1 (0..{n - 1})" in shown and "unknown verb" not in shown
    assert action == g.legal_actions()[1]  # '+1' is move 1
    action, shown = human(g, "\n \t\n0\n", show_board=False)
    assert shown.count("[0] ") == 3 and "unknown verb" not in shown  # the list, then twice again
    assert action == g.legal_actions()[0]


def test_human_board_view_lists_the_moves_again() -> None:
    """'?' shows the board and then the numbered moves again (they scrolled away under it)."""
    g = Game("aoi(players=2)", seed=5)
    _, shown = human(g, "?\n", show_board=False)
    board_at = shown.index("round tiles:")
    assert shown.count("[0] ") == 2 and shown.rindex("[0] ") > board_at


def test_human_view_in_colour_and_not_twice_after_the_round_banner() -> None:
    """``color=True`` (``aoi play --color``) colours the human's own views; after ``saw`` (the
    round banner printed this position) the next decision shows only the moves."""
    g = Game("aoi(players=2)", seed=5)
    _, shown = human(g, "0\n", color=True)
    assert "\x1b[" in shown
    _, shown = human(g, "0\n")
    assert "\x1b[" not in shown
    lines: list[str] = []
    agent = HumanAgent(stream=io.StringIO("0\n"), out=lambda *a, **k: lines.append(a[0] if a else ""))
    agent.saw(g)
    agent.choose(g)
    assert not any("round tiles:" in line for line in lines) and any("[0] " in line for line in lines)


def test_aoi_play_round_banner_is_not_repeated_for_the_human(capsys: pytest.CaptureFixture[str], monkeypatch) -> None:  # noqa: ANN001
    """A human deciding first in a round saw the view under the '== round N ==' banner; it is not
    printed a second time before the moves (it was, in every round of a solo game)."""
    from aoi_env.cli import main

    monkeypatch.setattr("sys.stdin", io.StringIO("0\n" * 400))
    main(["play", "--agents", "human,automa:1", "--seed", "0"])
    out = capsys.readouterr().out
    assert "== round 1 ==" in out
    for chunk in out.split("== round ")[1:]:
        before_moves = chunk.split("decides")[0]
        assert before_moves.count("round tiles:") == 1


def test_aoi_play_prompt_is_flushed_before_reading() -> None:
    """With stdout a pipe (``aoi play ... | tee log``) the board, the moves and the '> ' prompt
    reach the reader before the human types (they waited in the 8 KB buffer)."""
    import os
    import subprocess
    import sys
    import threading

    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    cmd = [sys.executable, "-c", "import sys; from aoi_env.cli import main; sys.exit(main(sys.argv[1:]))"]
    proc = subprocess.Popen([*cmd, "play", "--agents", "human,automa:1", "--seed", "0"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)  # fmt: skip
    seen = bytearray()

    def read() -> None:
        while not seen.endswith(b"> "):
            byte = proc.stdout.read(1)
            if not byte:
                return
            seen.extend(byte)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(timeout=120)  # nothing typed yet: the prompt must be out already
    try:
        assert seen.endswith(b"> ") and b"[0] " in seen
    finally:
        proc.communicate(b"quit\n", timeout=60)


def test_human_help_lists_the_commands() -> None:
    action, shown = human(Game("aoi(players=2)", seed=5), "help\n")
    assert action is None
    for command in ("<number>", "<notation>", "?", "help", "quit"):
        assert command in shown


def test_human_quit_raises_an_eof_error() -> None:
    """'quit' leaves the game with HumanQuit, an EOFError: ``aoi play`` stops on it (exit 130)."""
    agent = HumanAgent(stream=io.StringIO("quit\n"), out=lambda *a, **k: None)
    with pytest.raises(HumanQuit, match="quit"):
        agent.choose(Game("aoi(players=2)", seed=5))
    assert issubclass(HumanQuit, EOFError)


def test_aoi_play_stops_when_the_human_quits(capsys: pytest.CaptureFixture[str], monkeypatch) -> None:  # noqa: ANN001
    from aoi_env.cli import main

    monkeypatch.setattr("sys.stdin", io.StringIO("help\nquit\n"))
    assert main(["play", "--agents", "human,automa:1", "--seed", "0", "--watch", "end"]) == 0  # quitting is normal
    assert "the human player quit" in capsys.readouterr().err
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "--agents", "human,automa:1", "--seed", "0", "--watch", "end"]) == 130  # input ended


def test_human_sees_the_board_before_a_decision_when_it_changed() -> None:
    """The text view before the first decision and after a change; not again for an unchanged
    position (a second prompt for the same board shows only the moves)."""
    g = Game("aoi(players=2)", seed=5)
    lines: list[str] = []
    agent = HumanAgent(stream=io.StringIO("0\n0\n"), out=lambda *a, **k: lines.append(a[0] if a else ""))
    agent.choose(g)
    assert sum("round tiles:" in line for line in lines) == 1
    lines.clear()
    agent.choose(g)  # same position: no new view
    assert not any("round tiles:" in line for line in lines)
    g.apply_move("set desert")
    lines.clear()
    agent.stream = io.StringIO("0\n")
    agent.choose(g)
    assert sum("round tiles:" in line for line in lines) == 1


def test_aoi_play_shows_the_other_seats_moves_to_a_human(capsys: pytest.CaptureFixture[str], monkeypatch) -> None:  # noqa: ANN001
    """With a human at the table ``aoi play`` prints every decision by default (``--watch moves``),
    so the human sees what the other seats did; without one it prints each round."""
    from aoi_env.cli import main

    monkeypatch.setattr("sys.stdin", io.StringIO("0\n" * 12 + "quit\n"))
    assert main(["play", "--agents", "human,random", "--seed", "0"]) == 0
    out = capsys.readouterr().out
    assert "seat 1 (random): " in out and "seat 0 (human): " in out
    assert main(["play", "--agents", "random,random", "--seed", "0"]) == 0
    assert "seat 1 (random): " not in capsys.readouterr().out
    # AUTOMA.md §4.3, §5: her steps are printed too (the engine plays them inside a move)
    monkeypatch.setattr("sys.stdin", io.StringIO("0\n" * 40 + "quit\n"))
    assert main(["play", "--agents", "human,automa:1", "--seed", "0"]) == 0
    out = capsys.readouterr().out
    assert "seat 1 (Automa): terraform & build" in out and "seat 1 (Automa): passes" in out


def test_aoi_play_prints_the_automas_turns_of_the_game_only(capsys: pytest.CaptureFixture[str]) -> None:
    """AUTOMA.md §4.5: she passes once a round, so ``--watch moves`` prints six passes.  The
    heuristic's lookahead plays her turns in clones of the game; those were printed too (29
    "passes" in round 1 of this game), and now ``automa_frames(game=...)`` reports the game's own."""
    from aoi_env.cli import main

    assert main(["play", "--agents", "heuristic,automa:2", "--seed", "1", "--watch", "moves"]) == 0
    out = capsys.readouterr().out
    assert out.count("seat 1 (Automa): passes") == 6
    assert "seat 1 (Automa): terraform & build" in out


def test_frames_during_an_automa_turn_show_her_playing() -> None:
    """AUTOMA.md §5: frames drawn inside her turn (``flow.automa_frames``, as ``aoi replay`` and
    ``aoi play`` draw them) name her seat as playing; the engine's own step on top of the stack
    is no decision of the human's, whose seat ``current_seat()`` still holds."""
    from agents import make_agent
    from aoi_env.core.flow import automa_frames
    from aoi_env.render.svg import render_svg
    from aoi_env.render.text import acting, header_text

    g = Game("aoi(players=1,automa=druids:3)", seed=3)
    agent = make_agent("random", seed=1)
    frames: list[tuple[int, tuple[int | None, str], str, str]] = []

    def frame(game: Game, seat: int, what: str) -> None:
        frames.append((seat, acting(game), header_text(game).splitlines()[0], render_svg(game)))

    with automa_frames(lambda game: None, frame):
        while not g.is_over():
            g.apply_action(agent.choose(g))
    assert len(frames) > 50
    for seat, (who, words), header, svg in frames:
        assert seat == 1 and who == 1 and words == "seat 1 (Automa) playing"
        assert header.endswith("seat 1 (Automa) playing") and "to decide" not in header
        assert "&gt; seat 1 " in svg and "&gt; seat 0 " not in svg and "seat 0 to decide" not in svg
    g = Game("aoi(players=1,automa=druids:3)", seed=3)  # between frames: the human decides
    assert acting(g) == (0, f"seat 0 to decide ({g.pending_kind().name.lower()})")
