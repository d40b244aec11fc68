"""A game: ordered deals under one sheet, running totals, the next deal, and the result.

A game is over after the sheet's number of deals, or, on a sheet played to a target, as
soon as a side's running total reaches the target, or, on an open sheet (``game_length``
``open``: a club game under a time limit), once the table ends it (:attr:`Game.ended`);
until then its result says who leads, never who won. The highest total wins; equal top
totals are a tie. The next deal (:meth:`Game.upcoming`) is the lowest number not
recorded, so a deleted deal is played (or recorded) again before the ones after it; its
opening minimums follow the totals of the deals recorded before it. Every interface
reads the next deal from here. Where the minimum follows the running total, each deal's
openings are judged against its sides' totals before it (:meth:`Game.judge`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import NamedTuple

from .cards import read_count
from .choices import Books, GameLength, OpeningBy
from .deal import Deal
from .errors import ReadError
from .limits import MAX_DEALS, MAX_NAME, MAX_PER_SIDE, MAX_SIDES
from .presets import load_sheet
from .problems import Problem
from .read import JSON
from .score import Breakdown, score
from .sheet import RuleSheet
from .text import read_name
from .validate import validate
from .verdict import Verdict, judge


def _side_name(side: object, field: str) -> str:
    """A side of a game file: its name, or ``{"name", "players"}`` as a game has it (and exports it).

    >>> [_side_name(s, "sides[0]") for s in ("Ann", {"name": "Us", "players": ["Ann", "Bea"]})]
    ['Ann', 'Us']
    """
    if isinstance(side, Mapping):
        for key in side:
            if key not in ("name", "players"):
                raise ReadError(f"{field}.{key}", "is not a field of a side; expected name, players")
        players = side.get("players", [])
        if not isinstance(players, list) or len(players) > MAX_PER_SIDE:
            raise ReadError(f"{field}.players", f"must be a list of at most {MAX_PER_SIDE} player names")
        for j, player in enumerate(players):
            read_name(player, f"{field}.players[{j}]", MAX_NAME)
        return read_name(side.get("name"), f"{field}.name", MAX_NAME)
    if not isinstance(side, str):
        raise ReadError(field, 'must be a side\'s name, or an object such as {"name": "Us", "players": ["Ann"]}')
    return read_name(side, field, MAX_NAME)


def _read_ended(ended: object, sheet: RuleSheet) -> bool:
    """A game file's ``ended``: true only for a game on an open sheet (the table ended it)."""
    if not isinstance(ended, bool):
        raise ReadError("ended", "must be true (the table ended the game) or false")
    if ended and sheet.game_length is not GameLength.OPEN:
        raise ReadError("ended", f"only a game on an open sheet is ended by the table; this sheet plays "
                        f"{sheet.describe('game_length')}")
    return ended


# A deal as a game's export lists it: the deal, with its number, as-played reason and history.
DEAL_ENTRY_KEYS = ("number", "deal", "as_played", "history")


def _game_deal(item: object, sheet: RuleSheet, place: int) -> Deal:
    """A deal of a game file, at ``place`` (its number when it gives none): the deal itself, or
    ``{"number", "deal", "as_played", "history"}`` as a game's export lists it. Scoring reads
    the deal only: its reason and history are the import's to check
    (:mod:`scorepad.storage.document`).

    >>> from scorepad.rules import preset
    >>> deal = {"ending": "stock_out", "sides": []}
    >>> _game_deal({"number": 2, "deal": deal, "as_played": None, "history": []}, preset("common"), 1).number
    2
    """
    if not (isinstance(item, Mapping) and ("number" in item or isinstance(item.get("deal"), Mapping))):
        return Deal.from_json(item, sheet, number=place)
    for key in item:
        if key not in DEAL_ENTRY_KEYS:
            raise ReadError(str(key), f"is not a field of an exported deal; expected {', '.join(DEAL_ENTRY_KEYS)}")
    number = read_count(item["number"], "number") if "number" in item else place
    try:
        deal = Deal.from_json(item.get("deal"), sheet, number=number)
    except ReadError as err:
        raise err.within("deal") from None
    if deal.number != number:
        raise ReadError("deal.deal", f"this is deal {number}, not {deal.number}")
    return deal


class Standing(NamedTuple):
    name: str
    total: int


class Result(NamedTuple):
    """Where a game stands: totals (highest first), whether it is over, and who won (or,
    while it goes on, who leads: :attr:`leader`)."""

    standings: tuple[Standing, ...]
    over: bool
    winner: str | None  # None while the game goes on, and on a tie
    tie: bool

    @property
    def leader(self) -> str | None:
        """The side alone at the top of the standings (the winner, once the game is over);
        None when two or more share the top total, or before any side has more than another.

        >>> Result((Standing("Ann", 120), Standing("Bea", 90)), False, None, False).leader
        'Ann'
        """
        standings = self.standings
        if not standings or (len(standings) > 1 and standings[0].total == standings[1].total):
            return None
        return standings[0].name

    def to_json(self) -> dict[str, JSON]:
        return {"standings": [s._asdict() for s in self.standings], "over": self.over,
                "winner": self.winner, "tie": self.tie}


class NextDeal(NamedTuple):
    """A deal's rules (the next deal to play, or any deal: :meth:`Game.deal_rules`): its
    number, each side's total from the deals recorded before it, each side's opening minimum
    (``opening_who`` says who must reach it; ``opening_book``: the first melds must include a
    complete book instead, and the minimums are 0), the books a side needs to go out, the going-out
    bonus, the cards drawn per turn and the game's last deal (None: played to a target)."""

    number: int
    totals_before: dict[str, int]
    opening_minimums: dict[str, int]
    opening_who: str
    going_out_books: Books
    going_out_bonus: int
    draws: int
    last_deal: int | None
    opening_book: bool = False

    def to_json(self) -> dict[str, JSON]:
        books = self.going_out_books
        out: dict[str, JSON] = {"number": self.number, "opening_minimums": dict(self.opening_minimums),
                                "opening_who": self.opening_who,
                                "going_out_books": {**books.to_json()},
                                "going_out_bonus": self.going_out_bonus, "draws": self.draws,
                                "totals_before": dict(self.totals_before)}
        if self.opening_book:
            out["opening_book"] = True
        return out

    @property
    def opening_words(self) -> str:
        """Each side's opening minimum in words: one figure when all are the same, or a complete book.

        >>> from scorepad.rules import preset
        >>> Game(preset("pagat"), ("Ann", "Bea")).upcoming().opening_words
        '50'
        """
        if self.opening_book:
            return "a complete book"
        same = set(self.opening_minimums.values())
        if len(same) == 1:
            return f"{same.pop():,}"
        return ", ".join(f"{name} {m:,}" for name, m in self.opening_minimums.items())

    def words(self) -> str:
        """The next deal in one sentence, as the command lines and the paper print it.

        >>> from scorepad.rules import preset
        >>> Game(preset("common"), ("Ann", "Bea")).upcoming().words()
        'Deal 1 is next: opening minimum Ann 50, Bea 50; to go out 1 clean + 1 dirty books; going out +100.'
        """
        minimums = "a complete book" if self.opening_book else \
            ", ".join(f"{name} {m:,}" for name, m in self.opening_minimums.items())
        totals = ", ".join(f"{name} {t:,}" for name, t in self.totals_before.items())
        before = f" (totals before it: {totals})" if self.number > 1 else ""
        return (f"Deal {self.number} is next: opening minimum {minimums}{before}; to go out "
                f"{self.going_out_books.books}; going out +{self.going_out_bonus:,}.")


@dataclass(frozen=True)
class Game:
    """A game's sheet, its sides (in seat order) and the deals recorded so far.

    >>> from scorepad.rules import preset
    >>> game = Game(preset("common"), ("Ann", "Bea"))
    >>> game.next_deal, game.result().over
    (1, False)

    On an open sheet (``game_length`` ``open``) the game is over only once the table ended it
    (``ended``, a fact the store keeps); on any other sheet ``ended`` is never read.
    """

    sheet: RuleSheet
    sides: tuple[str, ...]
    deals: tuple[Deal, ...] = ()
    # The deals' verdicts the caller has found already (None for a deal not judged yet); used
    # only for these very deals.
    judged: tuple[Verdict | None, ...] | None = field(default=None, compare=False, repr=False)
    ended: bool = False  # the table ended the game after its deals recorded (open sheets only)

    @classmethod
    def from_json(cls, data: object) -> Game:
        """A game file: ``{"sheet": ..., "sides": [...], "deals": [deal, ...]}``; deals carry no sheet of their own.
        ``"ended": true`` says the table ended it (a game on an open sheet; see :attr:`ended`).

        A deal without a ``deal`` number takes its place in the list; a deal may also come as
        a game's export lists it, ``{"number", "deal", "as_played", "history"}``. ``sides``
        (optional: the first deal's sides otherwise) are names, or ``{"name", "players"}`` as
        a game's export has them. (A whole export document is read by
        :func:`scorepad.storage.document.read_game`.)
        """
        if not isinstance(data, Mapping):
            raise ReadError("", "a game must be a JSON object with 'sheet' and 'deals'")
        for key in data:
            if key not in ("sheet", "sides", "deals", "ended"):
                raise ReadError(str(key), "is not a field of a game; expected sheet, sides, deals, ended")
        if "sheet" not in data:
            raise ReadError("sheet", "is missing: a preset id such as 'pagat', or a sheet object")
        sheet = load_sheet(data["sheet"], "sheet")
        raw = data.get("deals", [])
        if not isinstance(raw, list):
            raise ReadError("deals", "must be a list of deals")
        if len(raw) > MAX_DEALS:
            raise ReadError("deals", f"lists {len(raw):,} deals; a game has at most {MAX_DEALS}")
        deals = []
        for i, item in enumerate(raw):
            try:
                deals.append(_game_deal(item, sheet, i + 1))
            except ReadError as err:
                raise err.within(f"deals[{i}]") from None
        sides = data.get("sides")
        if sides is None:
            names = tuple(side.name for side in deals[0].sides) if deals else ()
        elif isinstance(sides, list) and len(sides) <= MAX_SIDES:
            names = tuple(_side_name(side, f"sides[{i}]") for i, side in enumerate(sides))
        else:
            raise ReadError("sides", f"must be a list of at most {MAX_SIDES} sides")
        return cls(sheet, names, tuple(deals), ended=_read_ended(data.get("ended", False), sheet))

    def to_json(self) -> dict[str, JSON]:
        """The game file :meth:`from_json` reads; ``ended`` only when the table ended it."""
        return {"sheet": self.sheet.brief_json(), "sides": list(self.sides),
                "deals": [deal.to_json(with_sheet=False) for deal in self.deals],
                **({"ended": True} if self.ended else {})}

    @property
    def table_ends(self) -> bool:
        """Whether the table ends this game (its sheet's ``game_length`` is ``open``)."""
        return self.sheet.game_length is GameLength.OPEN

    def with_deal(self, deal: Deal) -> Game:
        """This game with one more deal."""
        return Game(self.sheet, self.sides, self.deals + (deal,), ended=self.ended)

    # -- per deal ---------------------------------------------------------------------------

    @cached_property
    def _found(self) -> list[Verdict | None]:
        """Each deal's verdict once found (given, or judged when first asked: :meth:`verdict`)."""
        judged = self.judged
        if judged is not None and len(judged) == len(self.deals) \
                and all(v is None or v.deal is d for v, d in zip(judged, self.deals, strict=True)):
            return list(judged)  # verdicts of these very deals (a copy with other deals judges its own)
        return [None] * len(self.deals)

    @cached_property
    def scores(self) -> tuple[Breakdown, ...]:
        """Each deal's score, in order: all the totals, the result and the next deal need (a
        score never depends on the totals before it), so none of them validates a deal."""
        return tuple(score(deal) if found is None else found.breakdown
                     for deal, found in zip(self.deals, self._found, strict=True))

    def verdict(self, place: int) -> Verdict:
        """The report and score of the deal at ``place`` (0 for the first), judged when first
        asked for: a page that shows one deal, or only the totals, validates no other deal."""
        found = self._found[place]
        if found is None:
            deal = self.deals[place]
            before = self._totals(self.scores, deal.number) if self.sheet.opening_by is OpeningBy.RUNNING_TOTAL \
                else None
            found = self._found[place] = Verdict(deal, validate(deal, before), self.scores[place])
        return found

    @property
    def verdicts(self) -> tuple[Verdict, ...]:
        """Each deal's report and score, in order."""
        return tuple(self.verdict(place) for place in range(len(self.deals)))

    def found(self, place: int) -> Verdict | None:
        """The verdict of the deal at ``place`` if found already, else None: judges nothing
        (what a copy of the game is given: :attr:`judged`)."""
        return self._found[place]

    def judge(self, deal: Deal) -> Verdict:
        """``deal`` judged as a deal of this game (a new one, or one replacing its number): where the
        minimum follows the running total, its openings against each side's total before it."""
        if self.sheet.opening_by is not OpeningBy.RUNNING_TOTAL:
            return judge(deal)
        return judge(deal, self.totals_before(deal.number))

    @cached_property
    def _running(self) -> tuple[dict[str, int], ...]:
        totals = {name: 0 for name in self.sides}
        out = []
        for breakdown in self.scores:
            for side in breakdown.sides:
                if side.name in totals:
                    totals[side.name] += side.total
            out.append(dict(totals))
        return tuple(out)

    def running_totals(self) -> list[dict[str, int]]:
        """After each deal, every side's total so far.

        Sides missing from a deal score 0 in it (the game's problems say so).
        """
        return [dict(totals) for totals in self._running]

    def totals(self) -> dict[str, int]:
        running = self.running_totals()
        return running[-1] if running else {name: 0 for name in self.sides}

    # -- queries the pages show before each deal ------------------------------------------------

    @cached_property
    def _unrecorded(self) -> int:
        """The lowest deal number not recorded."""
        taken = {deal.number for deal in self.deals}
        return next(n for n in range(1, len(taken) + 2) if n not in taken)

    @property
    def next_deal(self) -> int | None:
        """The number of the next deal to play, the lowest not recorded; None when the game is over."""
        return None if self.result().over else self._unrecorded

    def upcoming(self) -> NextDeal | None:
        """The next deal with what it asks of each side; None when the game is over."""
        number = self.next_deal
        return None if number is None else self.deal_rules(number)

    def deal_rules(self, number: int) -> NextDeal:
        """What deal ``number`` asks of each side under the sheet, given the deals recorded before it.

        >>> from scorepad.rules import preset
        >>> rules = Game(preset("pagat"), ("Ann", "Bea")).deal_rules(3)
        >>> rules.opening_minimums, str(rules.going_out_books), rules.draws, rules.last_deal
        ({'Ann': 120, 'Bea': 120}, '2 clean + 2 dirty + 1 wild', 2, 4)
        """
        before = self.totals_before(number)
        sheet = self.sheet
        return NextDeal(number, before, {name: sheet.opening_minimum(number, total) for name, total in before.items()},
                        sheet.opening_who.value, sheet.going_out_books(number), sheet.going_out_bonus_at(number),
                        sheet.draws_per_turn.at(number), sheet.last_deal(), sheet.opening_book(number))

    def totals_before(self, number: int) -> dict[str, int]:
        """Each side's total from the deals recorded before deal ``number`` (by number, not place)."""
        return self._totals(self.scores, number)

    def _totals(self, scores: Sequence[Breakdown], number: int) -> dict[str, int]:
        totals = {name: 0 for name in self.sides}
        for deal, breakdown in zip(self.deals, scores, strict=True):
            if deal.number < number:
                for side in breakdown.sides:
                    if side.name in totals:
                        totals[side.name] += side.total
        return totals

    def opening_minimum(self, side: str, deal: int | None = None) -> int:
        """The opening minimum for ``side`` in ``deal`` (default: the next deal).

        On a sheet whose minimum follows the running total, it is the side's total from
        the deals recorded before that deal.
        """
        deal = deal or self._unrecorded
        return self.sheet.opening_minimum(deal, self.totals_before(deal).get(side, 0))

    # -- the result ------------------------------------------------------------------------------

    def _ended_with(self) -> int | None:
        """The number of the deal that ended the game, or None while it goes on.

        On a sheet played to a target, the first deal after which a side's running total
        reached the target: a later deal that takes the total back below it does not
        reopen the game. A deal missing before that one (deleted) keeps the game going
        until it is recorded again. On an open sheet, the last deal recorded once the
        table ended the game (the place of the deal, as on the other sheets).
        """
        sheet = self.sheet
        if sheet.game_length is GameLength.DEALS:
            return sheet.deals if len(self.deals) >= sheet.deals else None
        if sheet.game_length is GameLength.OPEN:
            return len(self.deals) if self.ended else None
        for n, (deal, running) in enumerate(zip(self.deals, self.running_totals(), strict=True), 1):
            if deal.number != n:
                return None
            if any(t >= sheet.target_score for t in running.values()):
                return n
        return None

    def result(self) -> Result:
        """The result as it stood when the game ended: deals recorded after the last one
        (reported by :meth:`problems`) do not change who won."""
        return self._result

    @cached_property
    def _result(self) -> Result:
        end = self._ended_with()
        over = end is not None
        totals = self.running_totals()[end - 1] if end else self.totals()  # ended with no deal: every side at 0
        standings = tuple(sorted((Standing(n, t) for n, t in totals.items()), key=lambda s: -s.total))
        tie = over and len(standings) > 1 and standings[0].total == standings[1].total
        winner = standings[0].name if over and standings and not tie else None
        return Result(standings, over, winner, tie)

    def problems(self) -> list[Problem]:
        """What is wrong with the game as a whole (each deal's own problems are in its verdict)."""
        found: list[Problem] = []
        over_after = None
        running = self.running_totals()
        previous = 0  # the highest deal number seen so far
        for i, deal in enumerate(self.deals):
            where = f"deals[{i}]"
            if deal.number <= previous:
                found.append(Problem("game.deal_order", f"Deal {deal.number} is listed after deal {previous}.",
                                     None, f"{where}.deal"))
            elif deal.number > previous + 1:  # a gap: say once which deals are missing
                missing = (f"Deal {previous + 1} is" if deal.number == previous + 2
                           else f"Deals {previous + 1} to {deal.number - 1} are")
                found.append(Problem("game.deal_order", f"{missing} not recorded, and deal {deal.number} is.",
                                     None, f"{where}.deal"))
            previous = max(previous, deal.number)
            names = [side.name for side in deal.sides]
            if sorted(names) != sorted(self.sides):
                found.append(Problem("game.sides", f"Deal {i + 1} has sides {', '.join(names) or 'none'}; "
                                     f"the game has {', '.join(self.sides)}.", None, f"{where}.sides"))
            if over_after is not None:
                found.append(Problem("game.over", f"Deal {i + 1} was played after the game ended with deal "
                                     f"{over_after}.", "game_length", where))
            elif self.sheet.game_length is GameLength.TARGET and \
                    any(t >= self.sheet.target_score for t in running[i].values()):
                over_after = i + 1
        return found


__all__ = ["DEAL_ENTRY_KEYS", "Game", "NextDeal", "Result", "Standing"]
