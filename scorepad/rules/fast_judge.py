"""The judge's fast path: a sheet compiled once (:func:`fast_judge`) to judge the common deal in
one flat pass, giving exactly what the general path (:func:`~.validate.validate` and
:func:`~.score.score`) gives.

One pass over the deal counts each side's cards once, for both jobs: its melds (by the records
of :mod:`.compiled`), books and went-out player, then, for every side and player, the quiet
checks (is anything wrong, or worth a warning?) and the score lines, priced by the sheet's plan
(:func:`~.lines.plan`) resolved here once per deal number. No problem is written on the way:
where any check finds something to say, the report is the general referee's
(:func:`~.validate.validate`, handed the pass's tallies, so that no side is counted twice, and
writing every problem as usual), while the score stays this pass's (a score never depends on the
problems). Only the "not checked" notes every unopened deal carries (openings not given, the
last card, permission) are made here. A legal deal is judged in about 0.7 of the general path's
time; one with something to say in about 1.05 to 1.15 of it (the pass, then the referee).

What the pass does not take, the general path judges whole (:meth:`FastJudge.judge` gives
None): a sheet with books of threes, dirty special books, book caps or a knee, or with a score
line the pass does not know; a deal with a counted side or hand, or a knee. Sheets with a
``max_books_per_rank`` have their report from the general referee always.

``tests/rules/test_fast_judge.py`` checks both paths agree, to the byte, on generated deals
across every preset and option.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import compress, repeat
from operator import attrgetter, gt, itemgetter
from typing import NamedTuple

from .books import HeldBooks
from .cards import CARDS, EMPTY, NATURALS, Card, Rank
from .choices import Books, FootWhen, LastCard, OpeningBy, OpeningWho, PartnerFoot, StockOut
from .compiled import (
    CLEAN_BOOK,
    DIRTY_BOOK,
    MIXED_WILD_BOOK,
    WILD_BOOK,
    compiled,
)
from .deal import Deal, Ending, Player, Side
from .limits import MAX_DEALS, MAX_PER_SIDE, MAX_SIDES
from .lines import Line, PlayerStep, plan
from .lines import Step as SideStep
from .problems import Problem, Report, Unchecked
from .score import Breakdown, SideScore
from .sheet import RuleSheet
from .tally import Tally
from .validate import check_going_out, pack, validate

# The kinds of line the pass scores, by their code in :data:`~.lines.SCORE_LINES`.
MELDED, MELD_POINTS, CLEAN, SPECIAL, DIRTY, WILD, MIXED, LAID, LAID_NOT_OUT, GOING_OUT, FIRST_MELD, \
    FAILED_TAKES = range(12)
_SIDE_KINDS = {"melds.cards": MELDED, "melds.points": MELD_POINTS, "books.clean": CLEAN, "books.special": SPECIAL,
               "books.dirty": DIRTY, "books.wild": WILD, "books.wild_mixed": MIXED, "red_threes.laid": LAID,
               "red_threes.laid_not_out": LAID_NOT_OUT, "going_out": GOING_OUT, "first_meld": FIRST_MELD,
               "pile.failed_takes": FAILED_TAKES}
CUT, HAND, RED_HAND, FOOT, BLACK_FOOT, RED_FOOT = range(6)
_PLAYER_KINDS = {"cut_bonus": CUT, "cards_left": HAND, "red_threes.hand": RED_HAND, "foot": FOOT,
                 "black_threes.foot": BLACK_FOOT, "red_threes.foot": RED_FOOT}

Step = tuple[str, str, str, int]  # one kind of line the sheet scores: (code, label, option, points each)


class Priced(NamedTuple):
    """What one deal number asks of the pass on a sheet, resolved once: its lines and prices."""

    known: bool  # every kind of line the deal can score is one the pass writes (else it takes none of its deals)
    side: tuple[Step | None, ...]  # a side's own lines, by kind (None: a kind the sheet does not score)
    player: tuple[Step | None, ...]  # a player's own lines, by kind
    books_needed: Books  # to go out
    number_ok: bool  # the deal's number is in the game
    opening_book: bool  # the opening minimum is a book
    minimum: int  # the opening minimum of a side whose running total is nothing
    short: dict[HeldBooks, bool]  # whether a side holding these books is short of going out, worked out once each
    named: dict[str, Named]  # each player's lines' words, by the player's name, written once each


class Named(NamedTuple):
    """A player's own lines' words in one deal number, made once per name (a game's deals have the
    same players): the player's steps with their labels naming the player, and the held cards' labels'
    beginnings."""

    steps: tuple[Step | None, ...]
    hand: str  # "Dan's hand: "
    foot: str  # "Dan's unopened foot: "


class FastJudge:
    """One sheet compiled for the one-pass judge (:func:`fast_judge`)."""

    __slots__ = ("sheet", "takes", "vouches", "_checks", "_priced", "_packs", "_notes", "_held_codes", "_held_spaced",
                 "_held_points",
                 "_melded_points", "_in_held_order", "_special", "_opponents", "_foot_when_out", "_hand_when_out",
                 "_owner_by_player", "_opening_option", "_by_total", "_band_top", "_going_out_rules",
                 "_not_out_priced", "_lays", "_cut_bonus", "_foot_size", "_first_meld", "_black_three_priced")

    def __init__(self, sheet: RuleSheet) -> None:
        self.sheet = sheet
        self._checks = compiled(sheet)
        # Whether the pass takes the sheet's deals at all (a deal's lines are checked too, :meth:`priced`),
        # and whether its quiet checks cover every rule.
        self.takes = not (sheet.three_books or sheet.special_books_dirty or sheet.book_caps or sheet.has_knee)
        self.vouches = sheet.max_books_per_rank is None
        self._priced: dict[int, Priced] = {}
        self._packs: dict[int, tuple[int, ...]] = {}
        self._notes: dict[tuple[str, str, str | None], Unchecked] = {}  # the openings' notes (:meth:`_note`)
        values = sheet.card_values
        # Each kind's code and points in the order held cards are listed, and a reader of counts in that order
        self._held_codes = tuple(_CODES[i] for i in values.held_order)
        self._held_spaced = tuple(f" {code}" for code in self._held_codes)  # a code after another in a label
        self._held_points = tuple(-values.points[i] for i in values.held_order)  # taken off: negative
        self._in_held_order = values.in_held_order
        self._melded_points = _IN_MELDED_ORDER(values.points)  # each melded kind's points, in the lines' order
        self._special = {card: bonus for card, bonus in sheet.special_books}
        foot_when, hand_when = sheet.red_three_penalty_foot_when, sheet.red_three_penalty_hand_when
        self._foot_when_out = foot_when is FootWhen.OPPONENTS_OUT
        self._hand_when_out = hand_when is FootWhen.OPPONENTS_OUT
        self._opponents = self._foot_when_out or self._hand_when_out
        self._owner_by_player = sheet.opening_who is OpeningWho.PLAYER
        self._by_total = sheet.opening_by is OpeningBy.RUNNING_TOTAL
        self._opening_option = "opening_bands" if self._by_total else "opening_minimums"
        self._band_top = max((band.minimum for band in sheet.opening_bands), default=0)
        self._going_out_rules = sheet.last_card is not LastCard.EITHER or sheet.go_out_permission
        self._not_out_priced = sheet.red_three_bonus_not_out is not None
        self._black_three_priced = sheet.black_three_in_foot
        self._first_meld = bool(sheet.first_meld_bonus)
        self._lays, self._cut_bonus, self._foot_size = sheet.lays_red_threes, bool(sheet.cut_bonus), sheet.foot_size

    def priced(self, number: int) -> Priced:
        """The deal number's lines and what it asks, resolved on first use."""
        found = self._priced.get(number)
        if found is None:
            sheet, steps = self.sheet, plan(self.sheet, number)  # the plan the general path reads too
            # The pass writes each kind of line in the order of its kinds, the table's (checked here).
            side_kinds = [_SIDE_KINDS.get(step.code, -1) for step in steps.side]
            player_kinds = [_PLAYER_KINDS.get(step.code, -1) for step in steps.listed]
            known = -1 not in side_kinds and -1 not in player_kinds and side_kinds == sorted(side_kinds) \
                and player_kinds == sorted(player_kinds)
            last = sheet.last_deal()
            number_ok = 1 <= number and (number <= last if last is not None else number <= MAX_DEALS)
            found = Priced(known, _by_kind(steps.side, _SIDE_KINDS), _by_kind(steps.listed, _PLAYER_KINDS),
                           sheet.going_out_books(number),
                           number_ok, sheet.opening_book(number), self._checks.opening_minimum(number, 0), {}, {})
            if len(self._priced) >= _MAX_KEPT:
                self._priced.clear()
            self._priced[number] = found
        return found

    def named(self, priced: Priced, name: str) -> Named:
        """The player's words in the deal number priced, made on first use."""
        found = priced.named.get(name)
        if found is None:
            steps = tuple(None if step is None else (step[0], step[1].format(player=name), *step[2:])
                          for step in priced.player)
            found = Named(steps, f"{name}'s hand: ", f"{name}'s unopened foot: ")
            if len(priced.named) >= _MAX_KEPT:
                priced.named.clear()
            priced.named[name] = found
        return found

    def pack_counts(self, players: int) -> tuple[int, ...]:
        """The pack's counts by card for so many players."""
        found = self._packs.get(players)
        if found is None:
            found = pack(self.sheet, max(players, 1)).counts()
            if len(self._packs) >= _MAX_KEPT:
                self._packs.clear()
            self._packs[players] = found
        return found

    def judge(self, deal: Deal, totals_before: Mapping[str, int] | None = None) -> tuple[Report, Breakdown] | None:
        """The deal's report and score, as the general path gives them; None for a deal the pass
        does not take (a counted side or hand, a knee), which the general path then judges."""
        priced = self.priced(deal.number)
        if not priced.known or len(deal.sides) > MAX_SIDES:  # a line it does not write; more sides than JSON holds
            return None
        # The names the deal gives, as every player's name is matched (ignoring case)
        went_out_key = deal.went_out.strip().casefold() \
            if deal.ending is _WENT_OUT and deal.went_out is not None else None
        first_key = None if deal.first_meld is None else deal.first_meld.strip().casefold()
        # Whether some player went out, for a red three that costs only when another side's did
        other_out = self._opponents and went_out_key is not None and deal.find_player(deal.went_out or "") is not None
        names: set[str] = set()  # every player's name, to tell them apart
        rows: list[Sequence[int]] = []  # every card recorded, row by row, for the supply
        scores, tallies, red_threes, players = [], [], 0, 0
        located: tuple[int, int, Player] | None = None  # the player who went out
        quiet = self.vouches and priced.number_ok and len(deal.sides) >= 2
        side_names, size = set(), len(deal.sides[0].players) if deal.sides else 0  # and every side's players
        for i, side in enumerate(deal.sides):
            judged = self._side(side, deal.number, went_out_key, first_key, names, priced, other_out, rows)
            if judged is None:
                return None
            score, kept, side_quiet, out_at = judged
            scores.append(score)
            tallies.append(kept)
            quiet = quiet and side_quiet
            red_threes += side.red_threes
            players += len(side.players)
            quiet = quiet and len(side.players) == size
            side_names.add(side.name.casefold())
            if out_at is not None and located is None:
                located = (i, out_at, side.players[out_at])
        breakdown = tuple.__new__(Breakdown, (tuple(scores),))
        quiet = quiet and len(names) == players and (first_key is None or self._first_meld and first_key in names) \
            and len(side_names) == len(deal.sides) and size in self.sheet.side_sizes \
            and self.sheet.min_players <= players <= self.sheet.max_players \
            and self._ending_quiet(deal, located, tallies, priced) \
            and self._supply_quiet(rows, red_threes, players)
        unchecked = self._openings(deal, totals_before, priced) if quiet else None  # none given, where quiet
        if unchecked is not None and located is not None and self._going_out_rules:
            found: list[Problem] = []
            check_going_out(deal, located, found, unchecked)
            unchecked = None if found else unchecked
        if unchecked is None:  # something to say: the general referee says it
            return validate(deal, totals_before, tallies), breakdown
        return tuple.__new__(Report, ((), (), tuple(unchecked))), breakdown

    def _side(self, side: Side, number: int, went_out_key: str | None, first_key: str | None,  # noqa: C901 (the pass: one check or kind of line a branch)
              names: set[str], priced: Priced, other_out: bool, rows: list[Sequence[int]]
              ) -> tuple[SideScore, Tally, bool, int | None] | None:
        """One side in one pass: its players' names (added to ``names``), its melds counted by card
        and book into its :class:`~.tally.Tally` (as :meth:`~.tally.Tally.of` counts them), whether it
        and its players break no rule and earn no warning, its score's lines in the table's order (as
        :func:`~.score.score` gives them), and the place of its player who went out; its cards and
        hands are added to ``rows`` for the supply. None for a counted side or hand, or a knee."""
        if side.books is not None or side.meld_points or len(side.players) > MAX_PER_SIDE:
            return None
        went_out = first_meld = out_at = None  # its player who went out and who laid down first, as it spells them
        for j, player in enumerate(side.players):
            if player.cards_left_points is not None or player.red_threes_left or player.knee is not EMPTY \
                    or player.knee_picked_up is not None:
                return None
            key = player.name.casefold()
            names.add(key)
            if key == went_out_key and went_out is None:
                went_out, out_at = player.name, j
            if key == first_key and first_meld is None:
                first_meld = player.name
        # Whether a red three left in an unopened foot, or in a hand, costs its penalty
        buried = not self._foot_when_out or (other_out and went_out is None)
        caught = not self._hand_when_out or (other_out and went_out is None)
        melded = [0] * _CARDS
        twos = jokers = clean = dirty = wild = mixed = 0
        special: dict[Card, int] = {}
        checks = self._checks
        known, record = checks.records, checks.record
        records = []
        quiet = bool(side.melds) and bool(side.players) and side.red_threes >= 0 and side.failed_takes >= 0 \
            and (not side.red_threes or checks.lays_red_threes) and side.opening is None  # an opening: judged in full
        unfinished: set[Rank] = set()  # ranks with an unfinished meld, where a second must wait for a book
        for meld in side.melds:
            kept = known.get(id(meld)) or record(meld)
            records.append(kept)
            _, place, problems, book, _, card, rank = kept  # read at once: less than field by field
            if place is not None:
                melded[place] += meld.naturals
            twos += meld.twos
            jokers += meld.jokers
            if problems:
                quiet = False
            if rank is not None:  # unfinished, where a second must wait for a book
                quiet = quiet and rank not in unfinished
                unfinished.add(rank)
            if not book:
                continue
            if book == CLEAN_BOOK:
                clean += 1
            elif book == DIRTY_BOOK:
                dirty += 1
            elif book == WILD_BOOK:
                wild += 1
            elif book == MIXED_WILD_BOOK:
                mixed += 1
            else:  # SPECIAL_BOOK: the only other kind on a sheet the pass takes
                special[card] = special.get(card, 0) + 1
        melded[_TWO] += twos
        melded[_JOKER] += jokers
        rows.append(melded)
        lines: list[Line] = []
        new = tuple.__new__
        melded_step, _, clean_step, special_step, dirty_step, wild_step, mixed_step, laid_step, not_out_step, \
            going_out_step, first_meld_step, failed_takes_step = priced.side
        if melded_step is not None:  # only the kinds melded, in the order the lines print
            code, _, option, _ = melded_step
            counts = _IN_MELDED_ORDER(melded)
            lines += [new(Line, (code, label, n, points, n * points, option, None)) for label, n, points
                      in compress(zip(_MELDED_LABELS, counts, self._melded_points, strict=True), counts)]
        if clean and clean_step is not None:
            code, label, option, each = clean_step  # written out: a call less for a common line
            lines.append(new(Line, (code, label, clean, each, clean * each, option, None)))
        if special and special_step is not None:
            code, _, option, _ = special_step
            lines += [new(Line, (code, f"Clean books of {card.noun}", n, self._special[card],
                                 n * self._special[card], option, None)) for card, n in special.items()]
        if dirty and dirty_step is not None:
            code, label, option, each = dirty_step  # written out: a call less for a common line
            lines.append(new(Line, (code, label, dirty, each, dirty * each, option, None)))
        if wild and wild_step is not None:
            lines.append(_line(wild_step, wild))
        if mixed and mixed_step is not None:
            lines.append(_line(mixed_step, mixed))
        if side.red_threes and laid_step is not None and (went_out is not None or not_out_step is None):
            code, label, option, each = laid_step  # written out: a call less for a common line
            lines.append(new(Line, (code, label, side.red_threes, each, side.red_threes * each, option, None)))
        if side.red_threes and not_out_step is not None and went_out is None:
            lines.append(_line(not_out_step, side.red_threes))
        if went_out is not None and going_out_step is not None:
            lines.append(_line(going_out_step, 1, went_out))
        if first_meld is not None and first_meld_step is not None:
            lines.append(_line(first_meld_step, 1, first_meld))
        if side.failed_takes and failed_takes_step is not None:
            lines.append(_line(failed_takes_step, side.failed_takes))
        for player in side.players:
            quiet = self._player(lines, player, priced, buried, caught, rows) and quiet
        # What the side brought to the deal's end, as :meth:`~.tally.Tally.of` counts it (no books of
        # threes, dirty special books or caps on a sheet the pass takes): the referee's, where it has
        # something to say.
        tally = new(Tally, (self.sheet, number, side, melded, clean, dirty, wild, special, went_out, {}, {}, buried,
                            mixed, first_meld, caught, (), tuple(records)))
        return new(SideScore, (side.name, tuple(lines), sum(map(_POINTS, lines)))), tally, quiet, out_at

    def _ending_quiet(self, deal: Deal, located: tuple[int, int, Player] | None,
                      tallies: Sequence[Tally], priced: Priced) -> bool:
        """Whether the deal ended as the sheet allows: who went out, with what books and feet."""
        sheet = self.sheet
        if deal.ending is not _WENT_OUT:
            return deal.went_out is None and sheet.stock_out is not _RESHUFFLE
        if located is None or not deal.went_out:
            return False
        i, j, player = located
        if player.cards_left.total or not player.foot_picked_up and sheet.go_out_foot:
            return False
        held = self._checks.books_held(tallies[i].records)
        short = priced.short.get(held)  # whether so many books are short of going out in this deal
        if short is None:
            if len(priced.short) >= _MAX_KEPT:
                priced.short.clear()
            short = priced.short[held] = self._checks.books_toward(priced.books_needed, held)[1]
        if short:
            return False
        rule = sheet.go_out_partner_foot
        if rule is _NO_PARTNER_FOOT:
            return True
        played = rule is PartnerFoot.PLAYED
        return all(k == j or (partner.played_foot if played else partner.foot_picked_up)
                   for k, partner in enumerate(deal.sides[i].players))

    def _supply_quiet(self, rows: list[Sequence[int]], red_threes: int, players: int) -> bool:
        """Whether the pack holds every card the deal records (as :func:`~.validate.deal_cards`
        counts them): ``rows`` of melded cards, hands and unopened feet, and the red threes laid."""
        if red_threes:
            rows.append((*_NO_CARDS[:_RED_THREE], red_threes, *_NO_CARDS[_RED_THREE + 1:]))
        return not any(map(gt, map(sum, zip(*rows, strict=True)), self.pack_counts(players)))

    def _openings(self, deal: Deal, totals_before: Mapping[str, int] | None, priced: Priced) -> list[Unchecked]:
        """Each opening, none given, as not checked (as the general referee lists them)."""
        unchecked: list[Unchecked] = []
        notes = self._notes
        for i, side in enumerate(deal.sides):
            running = side.running_total if totals_before is None else totals_before.get(side.name)
            minimum = self._band_top if self._by_total and running is None \
                else self._checks.opening_minimum(deal.number, running) if running else priced.minimum
            if not (minimum > 0 or priced.opening_book):
                continue
            if self._owner_by_player and len(side.players) > 1:
                unchecked += [notes.get(key) or self._note(key)
                              for key in zip(_PLAYER_OPENINGS[i], repeat(side.name), map(_NAME, side.players))]
            else:
                key = (_SIDE_OPENINGS[i], side.name, None)
                unchecked.append(notes.get(key) or self._note(key))
        return unchecked

    def _note(self, key: tuple[str, str, str | None]) -> Unchecked:
        """The note of an opening not given, by (where it would be given, side, player): made once
        per sheet and names (a game's deals have the same sides and players)."""
        where, side, player = key
        made = Unchecked("opening", self._opening_option,
                         (side if player is None else player) + self._checks.opening_not_given, where, side, player)
        if len(self._notes) >= _MAX_KEPT:
            self._notes.clear()
        self._notes[key] = made
        return made

    # -- the score --------------------------------------------------------------------------

    def _player(self, lines: list[Line], player: Player, priced: Priced, buried: bool, caught: bool,
                rows: list[Sequence[int]]) -> bool:
        """A player's own lines, in the table's order, added to ``lines``, and the hand and unopened
        foot to ``rows``; whether the player breaks no rule and earns no warning: no negative count,
        a foot picked up recorded as none and an unopened one of ``foot_size`` cards, no red three in
        hand (where they are laid), no cut bonus the sheet has not, no opening (judged in full)."""
        name, held, picked_up = player.name, player.cards_left is not EMPTY, player.foot_picked_up
        cards, foot = player.cards_left.counts(), player.foot.counts()
        if held:
            rows.append(cards)
        if picked_up:
            quiet = player.foot is EMPTY or not any(foot)
        else:
            rows.append(foot)
            quiet = not player.foot_played and sum(foot) == self._foot_size and min(foot) >= 0
        quiet = quiet and (not held or min(cards) >= 0 and not (self._lays and cards[_RED_THREE])) \
            and (not player.cut_bonus or self._cut_bonus) and player.opening is None
        named = priced.named.get(name) or self.named(priced, name)
        cut_step, hand_step, red_hand_step, foot_step, black_foot_step, red_foot_step = named.steps
        if player.cut_bonus and cut_step is not None:
            lines.append(_line(cut_step, 1, name))
        if held and hand_step is not None:
            self._held(lines, hand_step, name, cards, named.hand)
        if caught and cards[_RED_THREE] and red_hand_step is not None:
            lines.append(_line(red_hand_step, cards[_RED_THREE], name))
        if picked_up:
            return quiet
        if foot_step is not None:
            self._held(lines, foot_step, name, foot if self._black_three_priced is None or not foot[_BLACK_THREE]
                       else (*foot[:_BLACK_THREE], 0, *foot[_BLACK_THREE + 1:]), named.foot)
        if foot[_BLACK_THREE] and black_foot_step is not None:
            lines.append(_line(black_foot_step, foot[_BLACK_THREE], name))
        if buried and foot[_RED_THREE] and red_foot_step is not None:
            code, label, option, each = red_foot_step  # written out: a call less
            lines.append(tuple.__new__(Line, (code, label, foot[_RED_THREE], each, foot[_RED_THREE] * each, option,
                                              name)))
        return quiet

    def _held(self, lines: list[Line], step: Step, player: str, counts: tuple[int, ...], prefix: str) -> None:
        """Cards held at the end, a line per card value, highest first (as :func:`~.lines._held`),
        each label ``prefix`` and the cards: only the places held are looked at (a hand holds a few
        of the fifteen kinds)."""
        counts = self._in_held_order(counts)
        held = [*compress(_PLACES, counts)]
        if not held:
            return
        code, _, option, _ = step
        new, codes_of, spaced, points_of = tuple.__new__, self._held_codes, self._held_spaced, self._held_points
        i = held[0]
        each, n, codes = points_of[i], counts[i], codes_of[i]
        for i in held[1:]:
            if points_of[i] == each:
                n += counts[i]
                codes += spaced[i]
            else:
                lines.append(new(Line, (code, prefix + codes, n, each, n * each, option, player)))
                each, n, codes = points_of[i], counts[i], codes_of[i]
        lines.append(new(Line, (code, prefix + codes, n, each, n * each, option, player)))

def _by_kind(steps: Iterable[SideStep | PlayerStep], kinds: Mapping[str, int]) -> tuple[Step | None, ...]:
    """A plan's steps (:class:`~.lines.Step` or :class:`~.lines.PlayerStep`) by kind, as the pass reads
    them: each kind's (code, label, option, points each), or None for a kind the sheet does not score."""
    out: list[Step | None] = [None] * (max(kinds.values()) + 1)
    for step in steps:
        if step.code in kinds and step.code != "melds.points":  # a counted side's line: none on a side the pass takes
            out[kinds[step.code]] = (step.code, step.label, step.option, step.each)
    return tuple(out)


def _line(step: Step, n: int, player: str | None = None) -> Line:
    """The line of ``n`` of a counted kind, scored to ``player`` (a player's step's label names the
    player already: :meth:`FastJudge.named`)."""
    code, label, option, each = step
    return tuple.__new__(Line, (code, label, n, each, n * each, option, player))


def fast_judge(sheet: RuleSheet) -> FastJudge:
    """The sheet compiled for the one-pass judge: made once and kept (by the sheet's identity)."""
    kept = _COMPILED.get(id(sheet))
    if kept is not None and kept.sheet is sheet:
        return kept
    if len(_COMPILED) >= _MAX_SHEETS:
        _COMPILED.clear()
    made = _COMPILED[id(sheet)] = FastJudge(sheet)
    return made


_COMPILED: dict[int, FastJudge] = {}
_MAX_SHEETS = 256  # sheets kept at once (each held, so no other sheet takes its id)
_MAX_KEPT = 512  # deal numbers and table sizes kept per sheet

_INDEX = {card: i for i, card in enumerate(CARDS)}
_CARDS = len(CARDS)
_TWO, _JOKER, _RED_THREE, _BLACK_THREE = _INDEX[Card.TWO], _INDEX[Card.JOKER], _INDEX[Card.RED_THREE], \
    _INDEX[Card.BLACK_THREE]
_CODES = tuple(card.value for card in CARDS)
_NO_CARDS = (0,) * len(CARDS)
_MELDED_ORDER = tuple(_INDEX[card] for card in (*NATURALS, Card.RED_THREE, Card.BLACK_THREE, Card.TWO, Card.JOKER))
_IN_MELDED_ORDER = itemgetter(*_MELDED_ORDER)
_MELDED_LABELS = _IN_MELDED_ORDER(tuple(f"Melded {card.noun}" for card in CARDS))  # in the lines' order
_POINTS = itemgetter(4)
_NAME = attrgetter("name")
_PLACES = tuple(range(len(CARDS) - 1))  # the places of the kinds held cards list (red threes apart)
# Where each side's (or its player's) opening would be given, written once.
_SIDE_OPENINGS = tuple(f"sides[{i}].opening" for i in range(MAX_SIDES))
_PLAYER_OPENINGS = tuple(tuple(f"sides[{i}].players[{j}].opening" for j in range(MAX_PER_SIDE))
                         for i in range(MAX_SIDES))
_WENT_OUT, _RESHUFFLE, _NO_PARTNER_FOOT = Ending.WENT_OUT, StockOut.RESHUFFLE, PartnerFoot.NO
