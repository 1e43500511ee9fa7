"""Statistics of ``aoi tournament``, ``aoi balance`` and ``aoi eval``: intervals, p-values, Holm.

Pure Python and numpy (no scipy): Wilson intervals for rates, Student-t intervals and two-sided
p-values for means (the regularized incomplete beta function, exact far into the tail), a
bootstrap interval, Holm's step-down correction, and the per-game win shares and margins.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

Z95 = 1.959963984540054  # two-sided 95% normal quantile


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion ``successes / n`` (``(nan, nan)`` for n = 0)."""
    if n <= 0:
        return (math.nan, math.nan)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # the exact interval contains p; rounding would put 0 / n or n / n a hair outside it
    return (min(max(0.0, centre - half), p), max(min(1.0, centre + half), p))


def normal_quantile(p: float) -> float:
    """The standard normal ``x`` with P(X < x) = ``p`` (bisection on ``math.erfc``)."""
    lo, hi = -40.0, 40.0
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if 0.5 * math.erfc(-mid / math.sqrt(2)) < p else (lo, mid)
    return (lo + hi) / 2


def student_t_coverage(t: float, df: int) -> float:
    """P(|T| < t) for Student's t with ``df`` degrees of freedom (integer ``df``: the closed form
    of Abramowitz & Stegun 26.7.3-4, so no scipy)."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be >= 1, got {df}")
    if math.isnan(t):
        return math.nan
    theta = math.atan(abs(t) / math.sqrt(df))
    c2 = math.cos(theta) ** 2
    if df % 2:  # odd: 2/pi (theta + sin cos (1 + 2/3 cos^2 + 2*4/(3*5) cos^4 + ...))
        term, total = 1.0, 1.0 if df > 1 else 0.0
        for k in range(1, (df - 1) // 2):
            term *= c2 * (2 * k) / (2 * k + 1)
            total += term
        return min(1.0, 2 / math.pi * (theta + math.sin(theta) * math.cos(theta) * total))
    term, total = 1.0, 1.0  # even: sin (1 + 1/2 cos^2 + 1*3/(2*4) cos^4 + ...)
    for k in range(1, df // 2):
        term *= c2 * (2 * k - 1) / (2 * k)
        total += term
    return min(1.0, math.sin(theta) * total)


def regularized_beta(x: float, a: float, b: float, y: float | None = None) -> float:
    """I_x(a, b), the regularized incomplete beta function, by its continued fraction (modified
    Lentz, Numerical Recipes 6.4): accurate in relative terms far into the tails, where
    ``1 - coverage`` loses every digit.  ``y``: 1 - x when the caller has it more precisely."""
    if not 0.0 <= x <= 1.0:
        raise ValueError(f"x must lie in [0, 1], got {x}")
    y = 1.0 - x if y is None else y
    if x == 0.0 or y == 0.0:
        return 0.0 if x == 0.0 else 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log(y))
    if x > (a + 1) / (a + b + 2):  # the fraction converges fast on this side only
        return 1.0 - front * _beta_fraction(y, b, a) / b
    return front * _beta_fraction(x, a, b) / a


def _beta_fraction(x: float, a: float, b: float) -> float:
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    total = d
    for m in range(1, 10_000):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):  # fmt: skip
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            total *= c * d
        if abs(c * d - 1.0) < 1e-15:
            return total
    raise ArithmeticError(f"the incomplete beta fraction did not converge (x {x}, a {a}, b {b})")


def student_t_two_sided_p(t: float, df: int) -> float:
    """Two-sided p-value of a t statistic (``normal_two_sided_p`` for small samples; NaN for NaN):
    I_x(df / 2, 1 / 2) with x = df / (df + t^2), far into the tail (p = 1e-48 to 10 digits).
    Against mpmath: relative error below 1e-12 for df up to 100, up to about 1e-9 for df up to 10^5
    at any t; float rounding in the log-gamma terms costs digits beyond that (about 1e-8 at df 10^6)."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be >= 1, got {df}")
    if math.isnan(t):
        return math.nan
    if math.isinf(t):
        return 0.0
    ratio = abs(t) / math.sqrt(df)
    if ratio > 1e100:  # t^2 would overflow: the leading term x^a / (a B(a, 1/2)), x = 1 / ratio^2
        a = df / 2
        log_beta = math.lgamma(a) + math.lgamma(0.5) - math.lgamma(a + 0.5)
        return math.exp(-2 * a * math.log(ratio) - math.log(a) - log_beta)
    x, y = 1.0 / (1.0 + ratio * ratio), ratio * ratio / (1.0 + ratio * ratio)
    return min(1.0, regularized_beta(x, df / 2, 0.5, y))


def student_t_quantile(df: int, level: float = 0.95) -> float:
    """The ``t`` with P(|T| < t) = ``level`` (12.706 for df 1, 2.776 for df 4, -> 1.960)."""
    if not 0 < level < 1:
        raise ValueError(f"level must lie strictly between 0 and 1, got {level}")
    if df > 100:  # the Cornish-Fisher series in 1/df (A&S 26.7.5), within 1e-7 here; bisection is O(df)
        z = normal_quantile(0.5 + level / 2)
        return (
            z
            + (z**3 + z) / (4 * df)
            + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
            + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3)
            + (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / (92160 * df**4)
        )
    lo, hi = 0.0, 1.0
    while student_t_coverage(hi, df) < level:
        hi *= 2
    for _ in range(100):  # bisection to float precision
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if student_t_coverage(mid, df) < level else (lo, mid)
    return (lo + hi) / 2


def mean_ci(values: Sequence[float], z: float | None = None) -> tuple[float, float, float]:
    """Mean and 95% interval ``half = t * sd / sqrt(n)``; ``t`` is Student's quantile with n - 1
    degrees of freedom (a normal 1.96 would be 13% too narrow at 10 games), or ``z`` if given."""
    x = np.asarray(values, dtype=float)
    if x.size == 0:
        return (math.nan, math.nan, math.nan)
    m = float(x.mean())
    if x.size == 1:
        return (m, math.nan, math.nan)
    q = student_t_quantile(x.size - 1) if z is None else z
    half = q * float(x.std(ddof=1)) / math.sqrt(x.size)
    return (m, m - half, m + half)


def bootstrap_ci(values: Sequence[float], resamples: int = 2000, seed: int = 0) -> tuple[float, float]:
    """Percentile bootstrap 95% interval of the mean (deterministic for a seed)."""
    x = np.asarray(values, dtype=float)
    if x.size < 2:
        return (math.nan, math.nan)
    rng = np.random.default_rng(seed)
    means = x[rng.integers(0, x.size, size=(resamples, x.size))].mean(axis=1)
    lo, hi = np.quantile(means, [0.025, 0.975])
    return (float(lo), float(hi))


def normal_two_sided_p(z: float) -> float:
    return math.erfc(abs(z) / math.sqrt(2))


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm-Bonferroni adjusted p-values (same order as given; NaN stays NaN)."""
    idx = [i for i, p in enumerate(pvalues) if not math.isnan(p)]
    order = sorted(idx, key=lambda i: pvalues[i])
    m = len(order)
    out = [math.nan] * len(pvalues)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        out[i] = running
    return out


def win_shares(scores: Sequence[int]) -> list[float]:
    """1/k for each of the k seats with the highest VP, 0 for the others."""
    best = max(scores)
    k = sum(1 for s in scores if s == best)
    return [1.0 / k if s == best else 0.0 for s in scores]


def margins(scores: Sequence[int]) -> list[int]:
    """Each seat's VP minus the best VP among the other seats (positive = won by that much)."""
    return [s - max(o for j, o in enumerate(scores) if j != i) for i, s in enumerate(scores)]
