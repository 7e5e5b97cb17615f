"""The exceptions the package raises. Each is a ValueError: the caller gave
a value that is not what it should be. With them, how a message quotes a
value (:func:`quote`) and the check of a whole number in a range
(:func:`check_whole`)."""

from __future__ import annotations


class BrandubhError(ValueError):
    """The base of every error this package raises for a bad argument."""


class VariantError(BrandubhError):
    """A rule set, or one of its fields, is not one this package plays."""


class PositionError(BrandubhError):
    """A string is not a position, or describes one the engine cannot hold."""


class SquareError(BrandubhError):
    """Something that should name a square does not."""


class MoveError(BrandubhError):
    """Something that should be a move is not written as one."""


class ArgumentError(BrandubhError):
    """Some other argument is out of its range or of the wrong kind."""


class WeightsError(ArgumentError):
    """A weights file cannot be read, or does not hold the evaluation's weights."""


class DataError(BrandubhError):
    """A self-play data file is truncated, damaged, or not one at all
    (brandubh.selfplay)."""


class NetError(BrandubhError):
    """A net file cannot be read, does not hold a learned evaluation, or a
    training run cannot go on (brandubh.learned, brandubh.train)."""


class ClusterError(BrandubhError):
    """A Ray cluster was asked for and cannot be used: Ray is not installed,
    or no cluster answers at the address."""


class EngineError(RuntimeError):
    """The engine could not do what was asked (it ran out of memory)."""


class Stopped(Exception):
    """A stop handle (``stop=``) ended a call whose partial result would mean
    nothing: perft and divide, which count a whole tree or nothing. (A
    stopped search or run of playouts returns what it has, flagged
    ``stopped``; Ctrl-C raises KeyboardInterrupt from any of them.)"""


def quote(value: object, limit: int = 40) -> str:
    """``repr(value)``, cut to about ``limit`` characters for a message: an
    error about a 100 kB string should not be 100 kB long.

    >>> quote('d1d3'), quote('x' * 100)
    ("'d1d3'", "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…")
    """
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def check_whole(name: str, value: object, low: int, high: int) -> int:
    """``value`` when it is a whole number from ``low`` to ``high``; an
    :class:`ArgumentError` naming ``name`` when it is not.

    >>> check_whole('games', 5, 0, 10)
    5
    >>> check_whole('games', True, 0, 10)
    Traceback (most recent call last):
    ...
    brandubh.errors.ArgumentError: games must be a whole number, not True
    """
    if not isinstance(value, int) or isinstance(value, bool):
        raise ArgumentError(f"{name} must be a whole number, not {quote(value)}")
    if not low <= value <= high:
        raise ArgumentError(f"{name} must be from {low} to {high}, not {value}")
    return value
