"""``train/stats.py`` against independently computed values (audit of the statistics: each test
kills a mutant of stats.py that the tournament and balance tests let through)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from train.stats import bootstrap_ci, holm, normal_two_sided_p, student_t_quantile

# two-sided 95% quantiles t(0.975, df), scipy.stats.t.ppf(0.975, df) (a printed table gives
# 12.706, 2.776, 2.228, 2.042, 2.000, 1.984, 1.962: three decimals hide a bisection stopped early
# or a missing Cornish-Fisher term)
T975 = {
    1: 12.706204736174694,
    4: 2.7764451051977934,
    10: 2.228138851986274,
    30: 2.0422724563012378,
    60: 2.0002978220142604,
    101: 1.983731002955606,
    1000: 1.9623390808264083,
}


def test_student_t_quantile_to_nine_digits():
    """Bisection (df <= 100) and the Cornish-Fisher series (df > 100) both hold 1e-9."""
    for df, t in T975.items():
        assert student_t_quantile(df) == pytest.approx(t, rel=1e-9, abs=0), df


def test_normal_p_value_is_two_sided_for_either_sign():
    """P(|Z| > 1.96) = 2 * (1 - Phi(1.96)) = 2 * 0.0249979 = 0.0499958, whichever the sign of z
    (a z below the fair rate must give the same p as one above it, or ``win-`` is never flagged)."""
    assert normal_two_sided_p(1.96) == pytest.approx(0.04999579029644087, rel=1e-12)
    assert normal_two_sided_p(-1.96) == normal_two_sided_p(1.96)
    assert normal_two_sided_p(0.0) == 1.0


def test_holm_caps_at_one_and_leaves_nan_out_of_the_family():
    # [0.6, 0.7]: 2 * 0.6 = 1.2 -> 1; max(1, 1 * 0.7) = 1 (statsmodels multipletests: [1, 1])
    assert holm([0.6, 0.7]) == [1.0, 1.0]
    # a NaN (an untestable group) is not a test: the family is {0.01, 0.02}, m = 2:
    # 2 * 0.01 = 0.02; max(0.02, 1 * 0.02) = 0.02 (statsmodels on [0.01, 0.02]: [0.02, 0.02])
    adjusted = holm([math.nan, 0.01, 0.02])
    assert math.isnan(adjusted[0]) and adjusted[1:] == pytest.approx([0.02, 0.02], abs=1e-15)


def test_bootstrap_interval_is_95_percent_and_needs_two_values():
    """One value has no interval (as ``mean_ci``).  For 400 normal values the percentile bootstrap
    of the mean is close to the normal interval 2 * 1.96 * sd / sqrt(n); a 90% interval would be
    1.645 / 1.96 = 0.84 of it."""
    assert all(math.isnan(x) for x in bootstrap_ci([3.0]))
    x = np.random.default_rng(0).normal(0.0, 10.0, 400)
    lo, hi = bootstrap_ci(x, seed=0)
    normal_width = 2 * 1.959964 * x.std(ddof=1) / math.sqrt(x.size)
    assert 0.93 < (hi - lo) / normal_width < 1.07
