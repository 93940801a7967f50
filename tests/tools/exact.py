"""Seconds, means and percentages as the tables print them, from exact
integers (doc/analysis.md, "Numbers"), for the oracles of the test tools.

Written from the definition, not from ccgfs's code: a value is the exact
fraction (fractions.Fraction), rounded half up to its decimals.  A clock
of `res` ticks per second prints `dec` decimals, the fewest with
10^dec >= res (at most 19); a clock without a resolution (0) prints "-",
as does a share of a zero denominator.
"""
import math
from fractions import Fraction


def decimals(res):
    dec = 0
    while dec < 19 and 10 ** dec < res:
        dec += 1
    return dec


def fixed(x, dec):
    """The fraction x >= 0 rounded half up to `dec` decimals."""
    q = math.floor(x * 10 ** dec + Fraction(1, 2))
    if not dec:
        return str(q)
    whole, part = divmod(q, 10 ** dec)
    return f"{whole}.{part:0{dec}d}"


def duration(ticks, res):
    """A *_seconds duration: ticks / res, no zero padding."""
    return fixed(Fraction(ticks, res), decimals(res)) if res else "-"


def mean_seconds(total, n, res):
    """A mean in seconds: total / (n x res)."""
    return fixed(Fraction(total, n * res), decimals(res)) if res and n \
        else "-"


def mean_ticks(total, n):
    """A mean in ticks: total / n with 3 decimals."""
    return fixed(Fraction(total, n), 3) if n else "-"


def percent(num, den):
    """100 x num / den with 2 decimals."""
    return fixed(Fraction(100 * num, den), 2) if den else "-"


def time_seconds(t, zero, res, last, wide=False):
    """A time (time_seconds, start_seconds, ...): the seconds since the
    zero, no zero padding.  `wide` (events.tsv, metrics.tsv): as many
    more zeros after the decimals as the whole part has digits fewer
    than the trace's last time's (last - zero) // res, and a point and
    a zero at least when there are no decimals."""
    if not res:
        return "-"
    sign, rel = ("-", zero - t) if t < zero else ("", t - zero)
    s = fixed(Fraction(rel, res), decimals(res))
    if not wide:
        return sign + s
    width = len(str((last - zero) // res if last > zero else 0))
    whole, dot, part = s.partition(".")
    return (sign + whole + "." + part + "0" * (0 if part else 1) +
            "0" * max(width - len(whole), 0))


def trace_clock(info):
    """(zero, first, last, resolution) of a mount's root info (a dict)."""
    return (int(info["zero"]), int(info["first"]), int(info["last"]),
            int(info.get("clock.resolution", "0")))
