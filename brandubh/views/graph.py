"""The win chance through a game, as an SVG picture: what ``brandubh
analyse --svg`` writes and the page draws beside the board.

A line of the attackers' chance after every move (the set-up first), the
area above it the defenders' and below it the attackers', a dashed line at
one half, and a dot on every marked move coloured by its mark. Only
numbers come in: the view knows nothing of the game.

>>> svg = chance_graph([0.3, 0.35, 0.1, 0.9], marks={2: '??'})
>>> svg.startswith('<svg') and svg.count('<circle') == 1
True
"""

from __future__ import annotations

from typing import Mapping, Sequence
from xml.sax.saxutils import escape

__all__ = ["chance_graph", "rating_graph", "MARK_COLOURS"]

#: The colour of a marked move's dot, by mark (lichess's: yellow, orange, red).
MARK_COLOURS = {"?!": "#e3b418", "?": "#e57b22", "??": "#d23a2a"}


def chance_graph(chances: Sequence[float], *, marks: Mapping[int, str] = {}, width: int = 600,
                 height: int = 160, title: str = "The attackers' chance, move by move") -> str:
    """An SVG graph of ``chances`` (the attackers' chance at each position,
    0 to 1, the set-up first); ``marks`` maps a move's number (1 for the
    first) to its mark."""
    points = list(chances) or [0.5]
    n = max(1, len(points) - 1)
    pad = 4

    def x(i: int) -> float:
        return pad + (width - 2 * pad) * i / n

    def y(c: float) -> float:
        return pad + (height - 2 * pad) * (1.0 - min(1.0, max(0.0, c)))

    line = " ".join(f"{x(i):.1f},{y(c):.1f}" for i, c in enumerate(points))
    area = f"{x(0):.1f},{y(0):.1f} {line} {x(len(points) - 1):.1f},{y(0):.1f}"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}">',
        f"<title>{escape(title)}</title>",
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#f4efe6"/>',
        f'<polygon points="{area}" fill="#3b3b3b" fill-opacity="0.85"/>',
        f'<line x1="{pad}" y1="{y(0.5):.1f}" x2="{width - pad}" y2="{y(0.5):.1f}" stroke="#888" '
        'stroke-dasharray="4 3"/>',
        f'<polyline points="{line}" fill="none" stroke="#c9a227" stroke-width="1.5"/>',
    ]
    for ply, mark in sorted(marks.items()):
        if mark in MARK_COLOURS and 0 <= ply < len(points):
            parts.append(f'<circle cx="{x(ply):.1f}" cy="{y(points[ply]):.1f}" r="3.5" '
                         f'fill="{MARK_COLOURS[mark]}"><title>move {ply} {escape(mark)}</title></circle>')
    label = ('text-anchor="end" font-size="11" font-family="sans-serif" fill="#444" stroke="#f4efe6" '
             'stroke-width="3" paint-order="stroke"')
    parts.append(f'<text x="{width - pad - 2}" y="{pad + 11}" {label}>defenders</text>')
    parts.append(f'<text x="{width - pad - 2}" y="{height - pad - 3}" {label}>attackers</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def rating_graph(points: Sequence[tuple[float, float]], *, width: int = 600, height: int = 200,
                 title: str = "The rating, game by game") -> str:
    """An SVG graph of a rating through its games: ``points``, each a rating
    and its deviation (the first before any game), drawn as a line in a
    band of one deviation either way, with the scale's ends written.

    >>> svg = rating_graph([(1500, 350), (1662, 291), (1600, 250)])
    >>> svg.startswith('<svg') and svg.count('<polyline') == 1 and '1600 ± 250' in svg
    True
    """
    ratings = list(points) or [(1500.0, 350.0)]
    low = min(r - d for r, d in ratings)
    high = max(r + d for r, d in ratings)
    if high - low < 1:
        high = low + 1
    n = max(1, len(ratings) - 1)
    pad, left = 6, 44

    def x(i: int) -> float:
        return left + (width - left - pad) * i / n

    def y(r: float) -> float:
        return pad + (height - 2 * pad) * (high - r) / (high - low)

    line = " ".join(f"{x(i):.1f},{y(r):.1f}" for i, (r, _) in enumerate(ratings))
    upper = [f"{x(i):.1f},{y(r + d):.1f}" for i, (r, d) in enumerate(ratings)]
    lower = [f"{x(i):.1f},{y(r - d):.1f}" for i, (r, d) in reversed(list(enumerate(ratings)))]
    last = ratings[-1]
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
            f'height="{height}" role="img" aria-label="{escape(title, {chr(34): "&quot;"})}">'
            f"<title>{escape(title)}</title>"
            f'<rect width="{width}" height="{height}" fill="#fbf8f0"/>'
            f'<polygon points="{" ".join(upper + lower)}" fill="#c9d8ea" opacity="0.7"/>'
            f'<polyline points="{line}" fill="none" stroke="#1f4e87" stroke-width="2"/>'
            f'<text x="2" y="{pad + 10}" font-size="11" font-family="sans-serif">{round(high)}</text>'
            f'<text x="2" y="{height - pad}" font-size="11" font-family="sans-serif">{round(low)}</text>'
            f'<text x="{width - pad}" y="{pad + 10}" font-size="12" font-family="sans-serif" '
            f'text-anchor="end">{round(last[0])} ± {round(last[1])}</text></svg>')
