"""Weights files: the evaluation's weights as a JSON file, for every player.

A weights file is what ``brandubh tune`` writes and what every player
takes: ``Bot(weights=FILE)``, ``Rules.search(weights=FILE)``, the engine
setting ``weights=FILE`` of ``brandubh match``, ``brandubh codingame
--weights FILE`` and its ``--export``. It is a JSON object whose
``"weights"`` member maps weight names to whole numbers (a bare object of
names to numbers is read too); the weights it leaves out keep their
defaults, and its other members (the run that made it, its rules) are
notes for people.

>>> import json, os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), 'w.json')
>>> save_weights(path, {'ring': 45, 'freedom': 6}, note='by hand')
>>> load_weights(path)
{'freedom': 6, 'ring': 45}
>>> json.load(open(path))['note']
'by hand'
"""

from __future__ import annotations

import json
import os
from typing import Any, Mapping, Union

from .._engine import ffi, lib
from .position import c_constants
from ..errors import ArgumentError, WeightsError, quote
from ..files import read_text, write_whole

__all__ = ["load_weights", "save_weights", "as_weights", "WeightsLike", "WEIGHT_NAMES", "default_weights",
           "c_weights"]

#: The largest weights file read: seven numbers and a few notes fit in far less.
WEIGHTS_LIMIT = 1 << 20

#: What ``weights=`` takes: a mapping of weight names to whole numbers, or
#: the path of a weights file.
WeightsLike = Union[Mapping[str, int], str, "os.PathLike[str]", None]


#: The evaluation's weights: the fields of the engine's ``bd_weights``, in
#: order, but ``eval`` (which evaluation scores: EVALS), which is no weight.
WEIGHT_NAMES = tuple(name for name, _ in ffi.typeof("bd_weights").fields if name != "eval")


#: The evaluations by name, and the number of each (``enum bd_eval``):
#: ``weights={'eval': 'learned'}`` picks the learned one (docs/learned.md).
EVALS = {name.lower(): value for name, value in c_constants("bd_eval", "EVAL_").items()}


def default_weights() -> dict[str, int]:
    """The seven evaluation weights the search uses unless told otherwise.

    >>> sorted(default_weights()) == sorted(WEIGHT_NAMES)
    True
    """
    w = ffi.new("bd_weights *")
    lib.bd_default_weights(w)
    return {name: getattr(w, name) for name in WEIGHT_NAMES}


_DEFAULT_C = ffi.new("bd_weights *")
lib.bd_default_weights(_DEFAULT_C)


def c_weights(weights: Any):
    """The default weights with some changed, checked, as the engine's struct:
    ``weights`` is None, a mapping of names to whole numbers, or the path of
    a weights file (:mod:`brandubh.core.weights`)."""
    if weights is None:
        return _DEFAULT_C
    if isinstance(weights, (str, os.PathLike)):
        weights = load_weights(weights)
    if not isinstance(weights, Mapping):
        raise ArgumentError(f"weights must be a dict of weight names to whole numbers, not {type(weights).__name__}")
    w = ffi.new("bd_weights *", _DEFAULT_C[0])
    for name, value in weights.items():
        if name == "eval":
            # Which evaluation: a name (EVALS) or its number; not a weight.
            if value not in EVALS and value not in EVALS.values() or isinstance(value, bool):
                raise ArgumentError(f"eval must be one of {', '.join(EVALS)}, not {quote(value)}")
            w.eval = EVALS.get(value, value)
            continue
        if name not in WEIGHT_NAMES:
            raise ArgumentError(f"no weight named {quote(name)}; the weights are {', '.join(WEIGHT_NAMES)}")
        if not isinstance(value, int) or isinstance(value, bool) or not -10_000 <= value <= 10_000:
            raise ArgumentError(f"weight {name} must be a whole number from -10000 to 10000, not {quote(value)}")
        setattr(w, name, value)
    if "eval" not in weights and weights:
        # Weights of the classical evaluation are read only by it: giving
        # some (a tuned file, "ring=45") means that one, unless eval says.
        w.eval = EVALS["classical"]
    return w



def load_weights(path: Union[str, "os.PathLike[str]"]) -> dict[str, int]:
    """The weights a file holds (those it names; the rest keep their
    defaults), checked; WeightsError saying what is wrong with the file."""
    where = os.fspath(path)
    try:
        text = read_text(where, WEIGHTS_LIMIT, "weights file")
    except ArgumentError as exc:
        raise WeightsError(str(exc)) from None
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise WeightsError(f"the weights file {quote(where, 300)} is not JSON: {exc}") from None
    except RecursionError:
        raise WeightsError(f"the weights file {quote(where, 300)} is not a weights file: "
                           "its JSON is nested too deep") from None
    if isinstance(data, dict) and "weights" in data:
        data = data["weights"]
    if not isinstance(data, dict) or not data:
        raise WeightsError(f"the weights file {quote(where, 300)} holds no weights: it should be a JSON "
                           'object like {"weights": {"ring": 45}}')
    try:
        c_weights(data)
    except ArgumentError as exc:
        raise WeightsError(f"the weights file {quote(where, 300)}: {exc}") from None
    return {name: data[name] for name in sorted(data)}


def save_weights(path: Union[str, "os.PathLike[str]"], weights: Mapping[str, int], **notes: Any) -> None:
    """Write ``weights`` (checked first: nothing is written for bad ones)
    with ``notes`` beside them, whole or not at all (:func:`brandubh.files.write_whole`:
    a reader never sees half a file, a full disk leaves the old one)."""
    c_weights(weights)
    body = dict(notes)
    body["weights"] = {name: int(weights[name]) for name in sorted(weights)}
    write_whole(path, json.dumps(body, indent=1, sort_keys=True) + "\n")


def as_weights(weights: WeightsLike) -> dict[str, int]:
    """``weights=`` as a checked dict: a mapping as it is, a path read by
    :func:`load_weights`, None as no change (an empty dict).

    >>> as_weights({'ring': 40}), as_weights(None)
    ({'ring': 40}, {})
    """
    if weights is None:
        return {}
    if isinstance(weights, (str, os.PathLike)):
        return load_weights(weights)
    c_weights(weights)
    return dict(weights)
