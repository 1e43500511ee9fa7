"""Power bowls (R29-R33): gaining, spending, sacrificing, adding tokens."""

from __future__ import annotations

from aoi_env.core.state import P_ADDED_TOKENS, P_BOWLS, P_BURNED, PlayerRow

I, II, III = P_BOWLS.start, P_BOWLS.start + 1, P_BOWLS.start + 2


def capacity(player: PlayerRow | list[int]) -> int:
    """Most power the player can still gain: 2 x |I| + |II| (R30); a player row or its ``tolist()``."""
    return int(2 * player[I] + player[II])


def gain(player: PlayerRow, n: int) -> int:
    """Gain ``n`` power: I -> II first, then II -> III; the rest is lost (R30). Returns power gained."""
    from_one = min(n, int(player[I]))
    player[I] -= from_one
    player[II] += from_one
    rest = n - from_one
    from_two = min(rest, int(player[II]))
    player[II] -= from_two
    player[III] += from_two
    return from_one + from_two


def spend(player: PlayerRow, n: int) -> None:
    """Spend ``n`` power: III -> I (R31); the caller checked that |III| >= n."""
    if player[III] < n:
        raise ValueError(f"not enough power in bowl III: need {n}, have {int(player[III])}")
    player[III] -= n
    player[I] += n


def burn(player: PlayerRow) -> None:
    """Sacrifice: one token from II leaves the game, another moves II -> III (R33)."""
    player[II] -= 2
    player[III] += 1
    player[P_BURNED] += 1


def add_tokens(player: PlayerRow, n: int) -> None:
    """New tokens from the supply straight into bowl III; not a gain (R32).

    They are counted in ``P_ADDED_TOKENS``, not tied to the neutral Palace being on the map: the
    innovation adds them "additionally" even when the Palace cannot be placed (R117, OP-38).
    """
    player[III] += n
    player[P_ADDED_TOKENS] += n


def tokens(player: PlayerRow) -> int:
    return int(player[I] + player[II] + player[III])
