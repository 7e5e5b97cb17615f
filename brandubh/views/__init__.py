"""Pictures of a board: :mod:`~brandubh.views.text` (a diagram for a
terminal or a log: ``str()`` of a game) and :mod:`~brandubh.views.svg` (an
SVG picture: a notebook's, the browser page's). Both draw a
:class:`~brandubh.snapshot.Snapshot`, which a position string, a
:class:`~brandubh.Position`, a :class:`~brandubh.Rules` or a
:class:`~brandubh.Game` gives; they import nothing of the engine.
"""
