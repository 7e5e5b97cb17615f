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

from ..errors import ArgumentError, WeightsError, quote

__all__ = ["load_weights", "save_weights", "as_weights", "WeightsLike"]

#: What ``weights=`` takes: a mapping of weight names to whole numbers, or
#: the path of a weights file.
WeightsLike = Union[Mapping[str, int], str, "os.PathLike[str]", None]


def load_weights(path: Union[str, "os.PathLike[str]"]) -> dict[str, int]:
    """The weights a file holds (those it names; the rest keep their
    defaults), checked; WeightsError saying what is wrong with the file."""
    from .search import c_weights

    where = os.fspath(path)
    try:
        with open(where, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as exc:
        raise WeightsError(f"cannot read the weights file {quote(where, 300)}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise WeightsError(f"the weights file {quote(where, 300)} is not JSON: {exc}") from None
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
    with ``notes`` beside them, atomically (a reader never sees half a file)."""
    from .search import c_weights

    c_weights(weights)
    where = os.fspath(path)
    body = dict(notes)
    body["weights"] = {name: int(weights[name]) for name in sorted(weights)}
    tmp = f"{where}.tmp{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(body, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, where)


def as_weights(weights: WeightsLike) -> dict[str, int]:
    """``weights=`` as a checked dict: a mapping as it is, a path read by
    :func:`load_weights`, None as no change (an empty dict).

    >>> as_weights({'ring': 40}), as_weights(None)
    ({'ring': 40}, {})
    """
    from .search import c_weights

    if weights is None:
        return {}
    if isinstance(weights, (str, os.PathLike)):
        return load_weights(weights)
    c_weights(weights)
    return dict(weights)
