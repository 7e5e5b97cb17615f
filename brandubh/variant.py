"""Rule sets: the fields of docs/rules.md as one frozen value.

>>> v = Variant.named('codingame')
>>> v.king_capture, v.ply_cap
('four_two', 200)
>>> Variant.from_string('brandubh quiet_cap=50').as_string()
'brandubh quiet_cap=50'
>>> Variant.from_string(v.as_string()) == v
True
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import Any, Mapping, Union

from .errors import VariantError, quote

# The values of the choice fields, as written. brandubh.core.position gives each to
# the engine as the C constant of its name (``"four_two"`` is
# BD_KING_FOUR_TWO of csrc/brandubh.h); tests/test_interface.py holds these to
# the C enums, in their order.
ESCAPES = ("corner", "edge")
KING_CAPTURES = ("nielsen", "two", "four_two", "four")
ENDS = ("draw", "loss")
#: The largest ply_cap and quiet_cap: the engine's BD_MAX_PLY_CAP, which
#: brandubh.core.position checks this against when it loads the engine.
MAX_PLY_CAP: int = 4096

_BOOL_FIELDS = (
    "throne_pass", "throne_reentry", "throne_hostile", "king_armed",
    "encirclement", "no_pieces", "repeat_counts_start",
)
_CHOICE_FIELDS = {
    "escape": ESCAPES,
    "king_capture": KING_CAPTURES,
    "no_move": ENDS,
    "repetition": ENDS,
}
_INT_FIELDS = ("repeat", "ply_cap", "quiet_cap")
# Game::Brandubh's own switches, read as the king_capture mode they mean.
_ALIASES = {"king_everywhere_two": "two", "king_strong": "four"}


@dataclass(frozen=True)
class Variant:
    """A rule set: every field of docs/rules.md. The defaults are the
    `brandubh` preset. Fields are checked when the variant is made; the rule
    sheet's own substitutions are applied (``repeat`` below 2 is 2; a
    ``ply_cap`` of 0, less, or over 4096 is the preset's own).

    >>> Variant(quiet_cap=100).quiet_cap
    100
    >>> Variant(repeat=1).repeat
    2
    >>> Variant(escape='sideways')
    Traceback (most recent call last):
    ...
    brandubh.errors.VariantError: escape must be one of corner, edge, not 'sideways'
    """

    escape: str = "corner"
    throne_pass: bool = True
    throne_reentry: bool = False
    throne_hostile: bool = True
    king_armed: bool = True
    king_capture: str = "nielsen"
    encirclement: bool = False
    no_pieces: bool = True
    no_move: str = "draw"
    repetition: str = "draw"
    repeat: int = 3
    repeat_counts_start: bool = True
    ply_cap: int = 400
    quiet_cap: int = 0
    _c: Any = field(default=None, init=False, repr=False, compare=False, hash=False)

    def __getstate__(self) -> dict:
        # The engine's copy of the rules (a cffi struct, made on first use)
        # does not pickle; it is made again where the rules are used, so a
        # rule set goes to another process (a Ray worker) as its fields.
        return {k: v for k, v in self.__dict__.items() if k != "_c"}

    def __post_init__(self) -> None:
        for name in _BOOL_FIELDS:
            value = getattr(self, name)
            if isinstance(value, int) and value in (0, 1):
                object.__setattr__(self, name, bool(value))
            else:
                raise VariantError(f"{name} must be true or false, not {quote(value)}")
        for name, choices in _CHOICE_FIELDS.items():
            value = getattr(self, name)
            if value not in choices:
                raise VariantError(
                    f"{name} must be one of {', '.join(choices)}, not {quote(value)}"
                )
        for name in _INT_FIELDS:
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise VariantError(f"{name} must be a whole number, not {quote(value)}")
        if self.repeat < 2:
            object.__setattr__(self, "repeat", 2)
        if self.repeat > 1_000_000:
            raise VariantError(f"repeat must be at most 1000000, not {self.repeat}")
        if not 0 <= self.quiet_cap <= MAX_PLY_CAP:
            raise VariantError(
                f"quiet_cap must be from 0 to {MAX_PLY_CAP}, not {self.quiet_cap}"
            )
        if not 1 <= self.ply_cap <= MAX_PLY_CAP:
            object.__setattr__(self, "ply_cap", _nearest_preset(self).ply_cap)

    # -- presets -------------------------------------------------------

    @classmethod
    def named(cls, name: str) -> "Variant":
        """The preset of that name: ``brandubh``, ``codingame``, ``modern``
        or ``opentafl``.

        >>> Variant.named('modern').quiet_cap
        100
        """
        try:
            return PRESETS[name]
        except (KeyError, TypeError):
            raise VariantError(
                f"no preset named {quote(name)}; the presets are {', '.join(PRESETS)}"
            ) from None

    @property
    def name(self) -> str | None:
        """The preset's name when the fields are exactly a preset, else None."""
        for key, preset in PRESETS.items():
            if preset == self:
                return key
        return None

    @property
    def nearest(self) -> str:
        """The name of the preset with the fewest fields unlike this rule
        set (the first on a tie): the preset itself for a preset.

        >>> Variant.from_string('codingame quiet_cap=60').nearest
        'codingame'
        """
        nearest = _nearest_preset(self)
        return next(key for key, preset in PRESETS.items() if preset == nearest)

    # -- building from loose input --------------------------------------

    @classmethod
    def from_fields(cls, fields: Mapping[str, Any], base: "Variant | str | None" = None) -> "Variant":
        """A variant from a mapping of field names to values, over a preset
        (``brandubh`` unless ``base`` names another). Game::Brandubh's
        ``king_everywhere_two`` and ``king_strong`` switches are read as the
        king_capture modes ``two`` and ``four``.

        >>> Variant.from_fields({'repeat': 2}).repeat
        2
        >>> Variant.from_fields({'king_strong': 1}).king_capture
        'four'
        """
        start = base if isinstance(base, Variant) else cls.named(base or "brandubh")
        if not isinstance(fields, Mapping):
            raise VariantError(f"variant fields must be a mapping, not {type(fields).__name__}")
        known = {f.name for f in dataclasses.fields(cls) if f.init}
        changes: dict[str, Any] = {}
        for key, value in fields.items():
            if key in _ALIASES:
                if value not in (0, 1) or isinstance(value, float):
                    raise VariantError(f"{key} must be true or false, not {quote(value)}")
                if value:
                    if "king_capture" in changes and changes["king_capture"] != _ALIASES[key]:
                        raise VariantError(
                            f"{key} contradicts king_capture={changes['king_capture']}"
                        )
                    changes["king_capture"] = _ALIASES[key]
                continue
            if key not in known:
                raise VariantError(
                    f"no variant field named {quote(key)}; the fields are {', '.join(sorted(known))}"
                )
            if key == "king_capture" and "king_capture" in changes and changes[key] != value:
                raise VariantError(f"king_capture={value} contradicts {changes[key]}")
            changes[key] = value
        if "ply_cap" in changes:
            cap = changes["ply_cap"]
            if isinstance(cap, int) and not isinstance(cap, bool) and not 1 <= cap <= MAX_PLY_CAP:
                changes["ply_cap"] = start.ply_cap
        return dataclasses.replace(start, **changes)

    def replace(self, **changes: Any) -> "Variant":
        """A copy with some fields changed.

        >>> Variant.named('codingame').replace(repeat=4).repeat
        4
        """
        return Variant.from_fields(changes, base=self)

    @classmethod
    def from_string(cls, text: str) -> "Variant":
        """A variant from what :meth:`as_string` writes: a preset's name, or
        one line of ``field=value`` pairs, optionally after a preset's name
        (the base the pairs change; ``brandubh`` when none is given). Booleans
        are written ``1``/``0`` (``true``/``false`` are read too).

        >>> Variant.from_string('codingame') == Variant.named('codingame')
        True
        >>> Variant.from_string('repeat=2 no_move=loss').no_move
        'loss'
        """
        if not isinstance(text, str):
            raise VariantError(f"a variant string must be a str, not {type(text).__name__}")
        words = text.split()
        if not words or "\n" in text.strip():
            raise VariantError(f"not a variant: {quote(text)} (give a preset's name or field=value pairs)")
        base = None
        if "=" not in words[0]:
            base = cls.named(words.pop(0))
        fields: dict[str, Any] = {}
        for word in words:
            key, eq, raw = word.partition("=")
            if not eq or not key or not raw:
                raise VariantError(f"{quote(word)} in {quote(text)} is not a field=value pair")
            if key in fields:
                raise VariantError(f"{key} is given twice in {quote(text)}")
            fields[key] = _read_value(key, raw)
        return cls.from_fields(fields, base=base)

    def as_string(self) -> str:
        """The preset's name, or the nearest preset's name and the fields
        that differ from it. :meth:`from_string` reads it back.

        >>> Variant.named('opentafl').replace(quiet_cap=60).as_string()
        'opentafl quiet_cap=60'
        """
        base = _nearest_preset(self)
        base_name = next(k for k, v in PRESETS.items() if v is base)
        diffs = [
            f"{f.name}={_write_value(getattr(self, f.name))}"
            for f in dataclasses.fields(self)
            if f.init and getattr(self, f.name) != getattr(base, f.name)
        ]
        return " ".join([base_name, *diffs])

    def fields(self) -> dict[str, Any]:
        """Every field and its value, as a new dict."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.init}

    def __str__(self) -> str:
        return self.as_string()


def _read_value(key: str, raw: str) -> Any:
    if key in _BOOL_FIELDS or key in _ALIASES:
        low = raw.lower()
        if low in ("1", "true", "yes"):
            return True
        if low in ("0", "false", "no"):
            return False
        raise VariantError(f"{key} must be 1 or 0, not {quote(raw)}")
    if key in _INT_FIELDS:
        # ASCII digits, an optional minus, and few enough to be a sensible field.
        if not re.fullmatch(r"-?[0-9]{1,9}", raw):
            raise VariantError(f"{key} must be a whole number of at most nine digits, not {quote(raw)}")
        return int(raw)
    return raw


def _write_value(value: Any) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)


def _nearest_preset(v: Variant) -> Variant:
    """The preset with the fewest fields unlike v (the first on a tie)."""
    names = [f.name for f in dataclasses.fields(Variant) if f.init]

    def distance(p: Variant) -> int:
        return sum(getattr(p, n) != getattr(v, n) for n in names)

    if "PRESETS" not in globals():  # while the presets themselves are made
        return v if v.ply_cap >= 1 and v.ply_cap <= MAX_PLY_CAP else dataclasses.replace(v, ply_cap=400)
    return min(PRESETS.values(), key=distance)


VariantLike = Union[Variant, Mapping[str, Any], str, None]


def as_variant(value: VariantLike) -> Variant:
    """A Variant from what an argument may give: a Variant, a mapping of
    fields, a preset's name or an :meth:`Variant.as_string` line, or None
    for the default rule set."""
    if value is None:
        return PRESETS["brandubh"]
    if isinstance(value, Variant):
        return value
    if isinstance(value, str):
        return Variant.from_string(value)
    if isinstance(value, Mapping):
        return Variant.from_fields(value)
    raise VariantError(
        f"a variant is a Variant, a dict of fields or a string, not {type(value).__name__}"
    )


#: The rule sets with names, by name: ``Variant.named(name)`` is
#: ``PRESETS[name]`` (docs/rules.md lists their fields).
PRESETS: dict[str, Variant] = {}
PRESETS["brandubh"] = Variant()
PRESETS["codingame"] = Variant(
    throne_reentry=True, king_capture="four_two", encirclement=True, no_pieces=False,
    no_move="loss", repetition="loss", repeat_counts_start=False, ply_cap=200,
)
PRESETS["modern"] = Variant(
    throne_reentry=True, king_capture="two", no_move="loss", repetition="loss",
    ply_cap=4096, quiet_cap=100,
)
PRESETS["opentafl"] = Variant(
    throne_reentry=True, throne_hostile=False, king_capture="two", no_move="loss",
    ply_cap=4096,
)
