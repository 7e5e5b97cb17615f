"""Checked numbers for the command line: one converter factory instead of a
function per option.

>>> whole(1)('3'), real(0, 0.5, open_low=True, open_high=True)('0.05')
(3, 0.05)
"""

from __future__ import annotations

import argparse
import math
from typing import Callable, Optional


def _range_text(low, high, open_low: bool, open_high: bool) -> str:
    if low is not None and high is not None:
        return f"{'above' if open_low else 'from'} {low:g} {'and below' if open_high else 'to'} {high:g}"
    if low is not None:
        return f"{'above' if open_low else 'at least'} {low:g}"
    if high is not None:
        return f"{'below' if open_high else 'at most'} {high:g}"
    return "finite"


def _checked(kind: type, noun: str, low, high, open_low: bool, open_high: bool) -> Callable[[str], float]:
    def convert(text: str):
        try:
            value = kind(text, 0) if kind is int else kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not {noun}: {text!r}") from None
        ok = not (isinstance(value, float) and (math.isnan(value) or math.isinf(value)))
        ok = ok and (low is None or (value > low if open_low else value >= low))
        ok = ok and (high is None or (value < high if open_high else value <= high))
        if not ok:
            raise argparse.ArgumentTypeError(
                f"must be {noun} {_range_text(low, high, open_low, open_high)}, not {text}")
        return value

    return convert


def whole(low: Optional[int] = None, high: Optional[int] = None) -> Callable[[str], int]:
    """A converter for a whole number in [low, high] (decimal or 0x...)."""
    return _checked(int, "a whole number", low, high, False, False)  # type: ignore[return-value]


def real(low: Optional[float] = None, high: Optional[float] = None, *,
         open_low: bool = False, open_high: bool = False) -> Callable[[str], float]:
    """A converter for a finite number in the range, ends open or closed."""
    return _checked(float, "a number", low, high, open_low, open_high)
