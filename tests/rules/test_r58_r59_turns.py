"""RULES.md §4.2: the turn sequence (R58), the available actions (R59) and actions without effect
(OP-58), the Psychics' double action (OP-42) and when conversions happen (OP-59)."""

from __future__ import annotations

from aoi_env.core.pending import Kind
from aoi_env.core.state import G_BOOK_ACTIONS, G_PHASE, G_ROUND, P_BOWLS, P_COINS, P_PASSED, P_SAILING, Phase
from aoi_env.testing import Scenario, play

FACTIONS = ["felines", "blessed", "navigators"]


def scenario(factions: list[str] | None = None) -> Scenario:
    s = Scenario("aoi(players=3)", factions=factions or FACTIONS, boards=["desert", "lake", "forest"])
    for seat, tile in enumerate(("B10", "B9", "B8")):
        s.bonus(seat, tile)
        s.set(seat, bowls=(0, 0, 12))
    return s


def verbs(moves: list[str]) -> set[str]:
    """The action words of a move list ('spell S5' -> 'spell', 'upgrade guild' -> 'upgrade guild')."""
    out = set()
    for m in moves:
        w = m.split()
        out.add(" ".join(w[:2]) if w[0] in ("upgrade", "special") else w[0])
    return out


# --------------------------------------------------------------------------------------------
# R58 turn sequence


def test_r58_turns_follow_the_order_and_wrap_around() -> None:
    """R58: players act in turn order, top to bottom, then again from the top."""
    s = scenario()
    for seat in range(3):
        s.set(seat, scholars=2)
    g = s.turn(1)  # order 1, 2, 0
    seen = []
    for _ in range(4):
        seen.append(g.current_seat())
        play(g, "scholar law return", "done")
    assert seen == [1, 2, 0, 1]


def test_r58_exactly_one_action_then_only_conversions_or_done() -> None:
    """R58: a turn is exactly one action; afterwards only free conversions and 'done' remain."""
    g = scenario().turn(0)
    play(g, "spell S5")  # 4 P -> 7 coins
    assert g.pending_kind() == Kind.POST and g.current_seat() == 0
    moves = g.legal_moves()
    assert moves[-1] == "done"
    assert all(m.startswith("convert") for m in moves[:-1])  # no second action
    play(g, "done")
    assert g.current_seat() == 1 and g.pending_kind() == Kind.MAIN


def test_r58_conversions_before_and_after_the_action() -> None:
    """R58 / R79 / OP-59: free conversions are allowed immediately before and after the action."""
    g = scenario().turn(0)
    play(g, "convert 1pw coin")  # before: the main action is still pending
    assert g.pending_kind() == Kind.MAIN
    play(g, "spell S5", "convert 1pw coin", "convert 1pw coin", "done")
    p = g.state.players[0]
    assert p[P_COINS] == 15 + 1 + 7 + 2  # 1 before, 7 from S5, 2 after
    assert tuple(p[P_BOWLS]) == (1 + 4 + 2, 0, 12 - 1 - 4 - 2)


def test_r58_passed_player_is_skipped() -> None:
    """R58: a player who has passed is skipped for the rest of the phase."""
    s = scenario()
    s.set(1, passed=1)
    g = s.turn(0)
    play(g, "spell S5", "done")
    assert g.current_seat() == 2
    play(g, "spell S4", "done")
    assert g.current_seat() == 0


def test_r58_phase_ends_when_all_players_passed() -> None:
    """R58: when all players have passed, Phase II ends (round 6: the game ends, R82)."""
    s = scenario().round(6)
    s.set(1, passed=1).set(2, passed=1)
    g = s.turn(0)
    play(g, "spell S5", "done")
    assert g.current_seat() == 0  # the only player left acts again
    play(g, "pass")
    assert g.is_over() and int(g.state.glob[G_PHASE]) == Phase.OVER


def test_r58_actions_repeat_across_turns_but_pass_once_per_round() -> None:
    """R58: actions other than Pass may be repeated on later turns; after passing the player does
    not act again this round."""
    s = scenario()
    s.set(0, scholars=3).round(1, tile="T10")  # T10 science bonus (power) needs no decision
    s.display_bonus("B1", "B5", "B7")
    g = s.turn(0)
    play(g, "scholar law return", "done")
    play(g, "pass", "bonus B1")  # seat 1
    play(g, "pass", "bonus B5")  # seat 2
    assert g.current_seat() == 0
    play(g, "scholar law return", "done")  # the same action again on a later turn
    assert g.current_seat() == 0 and g.state.players[0, P_PASSED] == 0
    play(g, "pass", "bonus B7")
    assert int(g.state.glob[G_ROUND]) == 2  # all passed: the round is over, nobody passes twice


# --------------------------------------------------------------------------------------------
# R59 available actions


def test_r59_all_action_kinds_are_offered() -> None:
    """R59: TB, upgrade, sailing, terraforming, innovation, send scholar, spell / book action,
    special action and pass; plus the component actions (Pavilion C6, Moles' bridge)."""
    s = scenario()
    s.build(0, "r7c6", "workshop").build(0, "r8c6", "guild").build(0, "r7c1", "school")
    s.set(0, tools=20, coins=30, scholars=2, books=(3, 3, 3, 3), bowls=(0, 0, 12), pavilions=1)
    s.bonus(0, "B7").innovation(0, "professors").competency(0, "C6")
    g = s.turn(0)
    found = verbs(g.legal_moves())
    for v in ("build", "upgrade guild", "upgrade school", "upgrade palace", "upgrade university", "sail", "dig",
              "innovate", "scholar", "spell", "book", "special bonus", "special professors", "pavilion", "pass",
              "convert"):  # fmt: skip
        assert v in found, v


def test_r59_moles_bridge_is_a_component_action() -> None:
    """R59 / R77: the Moles' bridge (1 tool) is an action of their own."""
    s = scenario(factions=["moles", "blessed", "navigators"])
    s.build(0, "r7c6", "workshop")
    g = s.turn(0)
    assert "molebridge" in g.legal_moves()
    assert "molebridge" not in scenario().build(0, "r7c6", "workshop").turn(0).legal_moves()


def test_op58_actions_need_their_main_effect() -> None:
    """OP-58: an action is offered only if its cost can be paid and its main effect performed:
    no sailing at the top of the track, no bridge spell without a bridge location, no power
    action when no power can be gained; Pass is always legal."""
    s = scenario()
    s.build(0, "r7c6", "workshop")  # no printed bridge location touches r7c6
    s.set(0, sailing=3, coins=20, scholars=1, bowls=(0, 0, 12))
    s.competency(0, "C7")  # special: gain 4 power, but the capacity is 0
    g = s.turn(0)
    moves = g.legal_moves()
    assert g.state.players[0, P_SAILING] == 3 and "sail" not in moves
    assert "spell S1" not in moves
    assert "special competency" not in moves
    assert "pass" in moves


def _science_only_actions(science: tuple[int, int, int, int], cities: int = 0) -> list[str]:
    """Seat 0 with BA4 (2 steps in one discipline) on display, palace 6 (special: 2 steps in one
    discipline) and B7 (special: 1 step), books and power to pay: its offered actions."""
    s = Scenario("aoi(players=3)", factions=["felines", "blessed", "monks"], boards=["desert", "lake", "forest"])
    for seat, tile in enumerate(("B7", "B9", "B8")):
        s.bonus(seat, tile)
    s.round(1, tile="T10").build(0, "r7c6", "workshop").build(0, "r8c6", "palace").palace_tile(0, 6)
    s.state().glob[G_BOOK_ACTIONS] = [3, 0, 1]  # BA4 in the first book-action slot
    s.set(0, books=(2, 0, 0, 0), science=science, cities=cities, bowls=(0, 0, 12))
    return s.turn(0).legal_moves()


def test_op58_steps_only_actions_need_a_step_that_can_be_gained() -> None:
    """OP-58, R50: BA4, palace 6's and B7's specials only advance science; with every discipline
    at 7 and no key, no step can be gained, so none of them is offered."""
    moves = _science_only_actions((7, 7, 7, 7))
    assert not {"book BA4", "special palace", "special bonus"} & set(moves)
    assert "book BA2" in moves  # another book action stays legal


def test_op58_steps_only_actions_with_one_open_discipline_or_a_key() -> None:
    """OP-58, R50, R52, OP-31: one discipline below 7, or a key for a discipline at 7, is
    enough; a discipline at 12 never is.  Keys = city tiles - unlocked tracks: with three tracks
    at 12, one city tile leaves no key and four leave one."""
    for science, cities in (((7, 7, 12, 6), 1), ((7, 12, 12, 12), 4)):  # 1: the key used for 12
        moves = _science_only_actions(science, cities)
        assert {"book BA4", "special palace", "special bonus"} <= set(moves), science
    assert "book BA4" not in _science_only_actions((7, 12, 12, 12), 3)


def test_op58_pass_is_legal_with_nothing_else() -> None:
    """OP-58: with no resources and no buildings, Pass is the only action."""
    s = scenario()
    s.set(0, coins=0, tools=0, bowls=(12, 0, 0))
    g = s.turn(0)
    assert g.legal_moves() == ["pass"]


# --------------------------------------------------------------------------------------------
# OP-42 / OP-59 Psychics' double action


def test_op42_psychics_second_action_with_conversions_between() -> None:
    """R100 / OP-42 / OP-59: the Psychics first gain 5 power, then take a second action (any legal
    one); conversions are allowed between the two."""
    s = scenario(factions=["psychics", "blessed", "navigators"])
    s.set(0, bowls=(5, 7, 0))
    g = s.turn(0)
    play(g, "special faction")  # 5 power: I 5 -> 0, II 7 -> 12
    assert tuple(g.state.players[0, P_BOWLS]) == (0, 12, 0)
    assert g.pending_kind() == Kind.MAIN and g.current_seat() == 0
    play(g, "convert burn", "convert burn", "convert burn", "convert burn")  # II 12 -> 4, III 4
    play(g, "spell S5")  # the second action: 4 P -> 7 coins
    assert g.pending_kind() == Kind.POST
    assert g.state.players[0, P_COINS] == 15 + 7
    assert "special faction" not in g.legal_moves()


def test_op42_psychics_second_action_may_be_pass() -> None:
    """OP-42: the second action may be Pass."""
    s = scenario(factions=["psychics", "blessed", "navigators"])
    g = s.turn(0)
    play(g, "special faction", "pass")
    assert g.state.players[0, P_PASSED] == 1
