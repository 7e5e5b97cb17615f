"""The balanced books of bench/ (tools/make-books): one a preset, every
line an opening that is legal under its rules and that the engine gives
either side 40% to 60%, read through the fitted curves of
:mod:`brandubh.chances`; and the script makes them as shipped."""

from __future__ import annotations

import re

import pytest
from conftest import SLOW, load_tool, scale

from brandubh import Rules
from brandubh.arena.openings import load_openings
from brandubh.chances import Outlook
from brandubh.variant import PRESETS

TOOL = load_tool("make-books")
LABEL = re.compile(r"^# attackers (.+) raw (-?\d+)$", re.M)


def book(variant: str) -> list[tuple[Rules, str, int]]:
    """Each opening of a preset's book played out, with its label's text and raw score."""
    path = TOOL.book_path(variant)
    openings = load_openings(str(path), variant)  # every move legal, no game over
    labels = LABEL.findall(path.read_text(encoding="utf-8"))
    assert len(labels) == len(openings) == TOOL.COUNT
    out = []
    for opening, (shown, raw) in zip(openings, labels):
        rules = Rules(opening.start, variant)
        for move in opening.moves:
            rules.play(move)
        out.append((rules, shown, int(raw)))
    return out


@pytest.mark.parametrize("variant", list(PRESETS))
def test_every_opening_is_legal_new_and_balanced(variant):
    seen = set()
    for rules, shown, raw in book(variant):
        assert not rules.is_over()
        outlook = Outlook.of(raw, None, side_to_move=rules.side, viewer="attackers", variant=variant)
        assert TOOL.LOW <= outlook.chance <= TOOL.HIGH, (rules.position, outlook)
        assert TOOL.LOW <= outlook.of_other().chance <= TOOL.HIGH
        assert str(outlook) == shown
        seen.add(rules.position)
    assert len(seen) == TOOL.COUNT  # no position twice


@pytest.mark.parametrize("variant", list(PRESETS))
def test_a_fresh_search_gives_the_same_chance(variant):
    # The raw score of a label is a search's: searched again here (the
    # budget is deterministic), it must be the same, and in range. A change
    # of the evaluation that moves it asks for the books to be made again
    # (python tools/make-books), with the curves fitted again first.
    for rules, _shown, raw in book(variant)[: scale(3, TOOL.COUNT)]:
        outlook, fresh = TOOL.judge(rules, variant)
        assert outlook is not None and TOOL.LOW <= outlook.chance <= TOOL.HIGH, \
            f"{rules.position}: {outlook}; run python tools/make-books again"
        assert fresh == raw, f"{rules.position}: the book says {raw}, a search {fresh}"


@pytest.mark.parametrize("variant", list(PRESETS) if SLOW else ["codingame"])
def test_the_script_makes_the_books_as_shipped(variant):
    # Its first openings are the first of the shipped book: the same
    # stream of candidates, kept by the same judge (50 of each book under
    # BRANDUBH_SLOW=1, about a minute a book; the whole books: python
    # tools/make-books --check).
    count = scale(2, 50)
    made = TOOL.make_book(variant, count, log=None).splitlines()
    shipped = TOOL.book_path(variant).read_text(encoding="utf-8").splitlines()
    head = 3  # the '#' lines that say how the book was made
    assert made[head:] == shipped[head:head + 2 * count]
    assert made[1] == shipped[1]
