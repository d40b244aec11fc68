"""The rules core: plain Python, no web framework.

Rule sheets (:mod:`.sheet`), presets (:mod:`.presets`), cards (:mod:`.cards`), the deal model
(:mod:`.deal`), validation (:mod:`.validate`), scoring (:mod:`.score`, its lines in :mod:`.lines`), whole games
(:mod:`.game`) and the referee's questions (:mod:`.referee`).
"""

from .cards import Card, Cards
from .deal import BookKind, Deal, Ending, Meld, Player, Rank, Side
from .errors import ReadError, SheetError
from .presets import PRESETS, SOURCES, Preset, Source, load_sheet, preset
from .score import Breakdown, Line, SideScore, score
from .sheet import OPTIONS, Books, Cited, RuleSheet
from .validate import Problem, Report, validate
from .verdict import Verdict, judge

__all__ = [
    "BookKind", "Books", "Breakdown", "Card", "Cards", "Cited", "Deal", "Ending", "Line", "Meld", "OPTIONS",
    "PRESETS", "Player", "Preset", "Problem", "Rank", "ReadError", "Report", "RuleSheet", "SOURCES", "SheetError",
    "Side", "SideScore", "Source", "Verdict", "judge", "load_sheet", "preset", "score", "validate",
]
