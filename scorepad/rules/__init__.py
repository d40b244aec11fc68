"""The rules core: plain Python, no web framework.

Rule sheets (:mod:`.sheet`; their options' choices in :mod:`.choices`, the option catalogue in
:mod:`.catalogue`, its readers in :mod:`.readers`), presets (:mod:`.published`, :mod:`.presets`),
cards (:mod:`.cards`), the deal model (:mod:`.deal`; a counted side's books in :mod:`.book_counts`),
validation (:mod:`.validate`; one meld in :mod:`.melds`, counting books in :mod:`.books`, its results in
:mod:`.problems`, what it works out once per sheet in :mod:`.compiled`), scoring
(:mod:`.score`, its lines in :mod:`.lines`), whole games (:mod:`.game`) and the referee's
questions (:mod:`.referee`; what a deal form shows of going out in :mod:`.progress`).
"""

from .cards import Card, Cards, Rank
from .catalogue import OPTIONS
from .choices import Books
from .deal import BookKind, Deal, Ending, Meld, Player, Side
from .errors import ReadError, SheetError
from .lines import Line
from .presets import load_sheet, preset
from .problems import Problem, Report
from .published import SOURCES, Source
from .score import Breakdown, SideScore, score
from .sheet import PRESETS, Cited, Preset, RuleSheet
from .validate import validate
from .verdict import Verdict, judge

__all__ = [
    "BookKind", "Books", "Breakdown", "Card", "Cards", "Cited", "Deal", "Ending", "Line", "Meld", "OPTIONS",
    "PRESETS", "Player", "Preset", "Problem", "Rank", "ReadError", "Report", "RuleSheet", "SOURCES", "SheetError",
    "Side", "SideScore", "Source", "Verdict", "judge", "load_sheet", "preset", "score", "validate",
]
