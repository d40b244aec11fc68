"""The referee's verdict on a recorded deal: every problem, as values, never an exception.

:func:`validate` returns a :class:`Report` of :class:`Problem` values. A violation breaks
the sheet; a warning is legal but worth a second look. Each problem has a stable ``code``,
names the side, player or meld it concerns and the input (``field``: ``cards_left``,
``foot``...; ``where`` is its path in the deal's JSON),
speaks to players in plain words and cites the sheet option it rests on (``option`` is
None for a rule every sheet shares, such as "threes are never melded").

Codes: ``meld.rank``, ``meld.size``, ``meld.wild_ratio``, ``meld.duplicate_rank``, ``meld.books_per_rank``,
``supply``, ``foot.size``, ``foot.picked_up``, ``foot.played``, ``knee.size``, ``knee.picked_up``
(the knee's, :mod:`.knee`), ``went_out.books``,
``went_out.partner_foot``, ``went_out.cards_left``, ``went_out.player``,
``went_out.last_card``, ``went_out.permission``, ``opening.minimum``, ``opening.pile``,
``deal.number``, ``deal.ending``, ``table.players``, ``table.sides``, ``side.players``,
``side.name``, ``player.name``, ``count.negative``, ``cut_bonus``, ``counted.meld_points``,
``red_three.laid``, ``first_meld.player``, ``first_meld.bonus``; warnings ``red_three.in_hand``
(only where red threes are laid), ``side.no_melds`` and ``counted.unchecked``.

The opening minimum, the pile before opening, how the last card went and the partner's
permission are judged only when the deal carries them (a side's or player's ``opening``, the
deal's ``last_card`` and ``permission``), by the referee's own answers
(:func:`~.referee.meets_minimum`, :func:`~.referee.last_card_reason`,
:func:`~.referee.permission_reason`). A rule the sheet has and the deal gives nothing for is
listed in :attr:`Report.not_checked` (an :class:`Unchecked`), neither a violation nor a warning.

A counted side (books by kind and melded points, see :class:`~.deal.BookCounts`) is checked as
far as counts allow: its books for going out, the pack's supply of books, red threes and points,
and whether its melded points could be the points of its books (:func:`~.books.cheapest_books`);
those checks of counts are in :mod:`.counted_checks`.

What a side's books count for toward going out is one function, :func:`books_toward` (special
and wild books as the sheet's ``special_books_count_as`` and ``wild_books_count_as`` say),
read here, by the referee's "may we go out?" and by the deal form's progress.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache
from operator import gt

from .books import (
    HeldBooks,
    books_per_rank_problems,
    missing_by_rank,
    side_books,
)
from .cards import CARDS, EMPTY, Card, Cards, Rank
from .choices import (
    GameLength,
    LastCard,
    OpeningBy,
    OpeningWho,
    PartnerFoot,
    StockOut,
)
from .compiled import Compiled, MeldRecord, compiled
from .counted_checks import check_counted, counted_supply
from .deal import Deal, Ending, Opening, Permission, Player, Side
from .knee import knee_problems, went_out_knee
from .limits import MAX_DEALS
from .problems import Problem, Report, Unchecked
from .rulings import last_card_reason, meets_minimum, permission_reason, pile_meld_lacking
from .sheet import RuleSheet
from .tally import Tally


def pack(sheet: RuleSheet, players: int) -> Cards:
    """Every card in the pack this sheet uses for so many players.

    >>> from scorepad.rules import preset
    >>> p = pack(preset("pagat"), 4)
    >>> p.total, p[Card.JOKER], p[Card.RED_THREE]
    (270, 10, 10)
    """
    return _pack(sheet.decks_for(players), sheet.jokers_per_deck)


@lru_cache(maxsize=64)
def _pack(decks: int, jokers_per_deck: int) -> Cards:
    """The pack of so many decks: built once for each (an immutable count), as every deal checks it."""
    counts = {card: 4 * decks for card in CARDS}
    counts[Card.JOKER] = jokers_per_deck * decks
    counts[Card.RED_THREE] = counts[Card.BLACK_THREE] = 2 * decks
    return Cards(counts)


def deal_cards(deal: Deal, tallies: Sequence[Tally] | None = None) -> Cards:
    """Every card the deal records: melded, laid red threes, in hands, unopened knees and feet.
    ``tallies``: each side's tally where scoring has counted its melded cards already."""
    rows: list[Sequence[int]] = []  # each side's melds, each hand, and each knee and foot never picked up
    red_threes = 0  # laid, and a counted hand's
    for i, side in enumerate(deal.sides):
        rows.append(tallies[i].melded if tallies is not None else _melded(side))
        red_threes += side.red_threes
        for player in side.players:
            red_threes += player.red_threes_left
            if player.cards_left is not EMPTY:  # an empty hand (most often EMPTY itself) adds nothing
                rows.append(player.cards_left.counts())
            if not player.foot_picked_up:
                rows.append(player.foot.counts())
            if player.knee is not EMPTY and not player.picked_knee:
                rows.append(player.knee.counts())
    used = list(map(sum, zip(*rows, strict=True))) if rows else [0] * len(CARDS)  # each kind, summed over every row
    used[_RED_THREE] += red_threes
    return Cards._of(tuple(used))


def _melded(side: Side) -> list[int]:
    """The cards of a side's melds, by place in CARDS (where no tally has counted them)."""
    melded = [0] * len(CARDS)
    for meld in side.melds:
        if meld.rank is not _WILD:
            melded[_RANK_INDEX[meld.rank]] += meld.naturals
        melded[_TWO] += meld.twos
        melded[_JOKER] += meld.jokers
    return melded


# Each meld rank's place in CARDS (a meld of threes counts as black threes), looked up once, as
# the enum members read meld by meld (enum attributes are slow).
_INDEX = {card: i for i, card in enumerate(CARDS)}
_WILD, _PLAYER = Rank.WILD, OpeningWho.PLAYER
_RANK_INDEX: dict[Rank, int] = {rank: _INDEX[rank.card] for rank in Rank if rank is not Rank.WILD}
_TWO, _JOKER, _RED_THREE = _INDEX[Card.TWO], _INDEX[Card.JOKER], _INDEX[Card.RED_THREE]


# -- the whole deal ---------------------------------------------------------------------------


def validate(deal: Deal, totals_before: Mapping[str, int] | None = None,
             tallies: Sequence[Tally] | None = None) -> Report:
    """Every problem with a deal under its sheet, violations and warnings apart, and what
    it could not check. ``totals_before``: in a game, each side's total before this deal
    (where the minimum follows the running total; a standalone deal's sides say their own);
    ``tallies``: each side's :class:`~.tally.Tally` where scoring has counted the deal already
    (:func:`~.verdict.judge`), so that its melds are counted once (else counted here): the
    referee reads each meld's record and the melded cards from it.

    >>> from scorepad.rules.deal import Deal
    >>> deal = Deal.from_json({"sheet": "common", "deal": 5, "ending": "stock_out", "sides": [
    ...     {"name": "Ann", "melds": ["K K K"], "players": [{"name": "Ann", "foot_picked_up": True}]},
    ...     {"name": "Bea", "melds": ["Q Q 2 2"], "players": [{"name": "Bea", "foot_picked_up": True}]}]})
    >>> validate(deal).codes()
    ['deal.number', 'meld.wild_ratio']
    """
    sheet = deal.sheet
    found: list[Problem] = []
    warnings: list[Problem] = []
    _check_number(deal, found)
    # One look at every side and player first: how many play, whether any knee or count is recorded.
    players, knees, counted = 0, sheet.has_knee, False
    for side in deal.sides:
        players += len(side.players)
        counted = counted or side.books is not None
        for player in side.players:
            knees = knees or player.knee_picked_up is not None or (player.knee is not EMPTY and bool(player.knee))
            counted = counted or player.cards_left_points is not None
    _check_table(deal, players, found)
    checks = compiled(sheet)
    if tallies is None:
        tallies = [Tally.of(deal, side) for side in deal.sides]
    for i, side in enumerate(deal.sides):
        _check_side(checks, side, tallies[i], f"sides[{i}]", found, warnings)
    if knees:
        found.extend(knee_problems(deal))
    _check_supply(deal, players, found, tallies, counted)
    # The player who went out, found once for the ending and the way they went out.
    located = deal.find_player(deal.went_out) if deal.ending is Ending.WENT_OUT and deal.went_out else None
    _check_ending(checks, deal, tallies, located, found)
    _check_first_meld(deal, found)
    unchecked: list[Unchecked] = []
    _check_openings(checks, deal, totals_before, found, unchecked)
    check_going_out(deal, located, found, unchecked)
    return tuple.__new__(Report, (tuple(found), tuple(warnings), tuple(unchecked)))  # Report(...) costs a call more


def _check_number(deal: Deal, found: list[Problem]) -> None:
    last = deal.sheet.last_deal()
    if deal.number < 1 or (last is not None and deal.number > last):
        span = f"1 to {last}" if last is not None else "1 or more"
        found.append(Problem("deal.number", f"Deal {deal.number} is not in this game: deals are numbered {span}.",
                             "deals" if last is not None else "game_length", "deal"))
    elif last is None and deal.number > MAX_DEALS:
        kind = "the table ends" if deal.sheet.game_length is GameLength.OPEN else "played to a target"
        found.append(Problem("deal.number", f"Deal {deal.number} is past the {MAX_DEALS} deals "
                             f"scorepad keeps for a game {kind}.", "game_length", "deal"))


def _check_table(deal: Deal, players: int, found: list[Problem]) -> None:
    sheet = deal.sheet
    if len(deal.sides) < 2:
        found.append(Problem("table.sides", f"A game needs at least two sides; this deal has {len(deal.sides)}.",
                             None, "sides"))
    if not sheet.min_players <= players <= sheet.max_players:
        span = (f"{sheet.min_players}" if sheet.min_players == sheet.max_players
                else f"{sheet.min_players} to {sheet.max_players}")
        found.append(Problem("table.players", f"This sheet is for {span} players; this deal has {players}.",
                             "max_players" if players > sheet.max_players else "min_players", "sides"))
    sizes = {len(s.players) for s in deal.sides if s.players}
    if len(sizes) > 1:
        found.append(Problem("table.sides", "Every side must have the same number of players.", "side_sizes", "sides"))
    bad = sorted(sizes.difference(sheet.side_sizes))
    if bad:
        found.append(Problem("table.sides", f"Sides of {bad[0]} player{'s' if bad[0] != 1 else ''} are not on this "
                             f"sheet, which plays {sheet.describe('side_sizes')}.", "side_sizes", "sides"))
    seen_sides: set[str] = set()
    seen_players: set[str] = set()
    for i, side in enumerate(deal.sides):
        key = side.name.casefold()  # names are told apart regardless of case
        if key in seen_sides:
            found.append(Problem("side.name", f"Two sides are called {side.name!r}.", None, f"sides[{i}].name",
                                 side.name))
        seen_sides.add(key)
        if not side.players:
            found.append(Problem("side.players", f"{side.name} has no players.", None, f"sides[{i}].players",
                                 side.name))
        for j, player in enumerate(side.players):
            key = player.name.casefold()
            if key in seen_players:
                found.append(Problem("player.name", f"Two players are called {player.name!r}.", None,
                                     f"sides[{i}].players[{j}].name", side.name, player.name))
            seen_players.add(key)


def _check_side(checks: Compiled, side: Side, tally: Tally, where: str, found: list[Problem],
                warnings: list[Problem]) -> None:
    """The rules one side breaks on its own: its melds (their records in its tally), its red
    threes, each of its players."""
    name, sheet = side.name, checks.sheet
    if side.books is not None:
        check_counted(sheet, side, side.books, where, found, warnings)
    else:
        _check_melds(side, tally.records, where, found)
    if sheet.max_books_per_rank is not None:
        found.extend(books_per_rank_problems(sheet, side, where))
    if side.red_threes < 0:
        found.append(Problem("count.negative", "Red threes laid cannot be negative.", None,
                             f"{where}.red_threes", name, field="red_threes"))
    elif side.red_threes and not checks.lays_red_threes:
        found.append(Problem("red_three.laid", f"{name} laid {side.red_threes} red three"
                             f"{'s' if side.red_threes != 1 else ''}, but on this sheet red threes are never laid "
                             f"({sheet.cite('red_three_mode')}).", "red_three_mode", f"{where}.red_threes", name,
                             field="red_threes"))
    if side.failed_takes < 0:
        found.append(Problem("count.negative", "Failed takes of the pile cannot be negative.", None,
                             f"{where}.failed_takes", name, field="failed_takes"))
    if side.books is not None:
        if not side.meld_points and not side.books.total:
            warnings.append(Problem("side.no_melds", f"{name} melded nothing this deal; check no book or "
                                    "point was left out.", None, f"{where}.meld_points", name, field="meld_points"))
    elif not side.melds:
        warnings.append(Problem("side.no_melds", f"{name} melded nothing this deal; check no meld was left out.",
                                None, f"{where}.melds", name, field="melds"))
    for j, player in enumerate(side.players):
        _check_player(checks, player, f"{where}.players[{j}]", name, found, warnings)


def _check_melds(side: Side, records: Sequence[MeldRecord], where: str, found: list[Problem]) -> None:
    """Each meld alone: its rank, size and wild cards (its record's problems, worked out once per
    sheet for each kind of meld), placed on the side; then each second unfinished meld of a rank,
    where the sheet allows one only once the first is a book (``second_meld``)."""
    name = side.name
    unfinished: dict[Rank, int] = {}  # each rank's first unfinished meld
    too_soon: list[Problem] = []
    said: dict[Rank, str] = {}  # each rank's message, written once
    for index, kept in enumerate(records):
        if kept.problems:
            here = f"{where}.melds[{index}]"
            for p in kept.problems:
                found.append(Problem(p[0], p[1], p[2], here, name, None, index))
        rank = kept.unfinished  # None on a sheet that allows a second meld of a rank at any time
        if rank is None:
            continue
        if rank in unfinished:
            message = said.get(rank)
            if message is None:
                message = said[rank] = (f"There is already an unfinished meld of {rank.noun} (meld "
                                        f"{unfinished[rank] + 1}); a second meld of a rank may start only "
                                        "once the first is a book.")
            too_soon.append(Problem("meld.duplicate_rank", message, "second_meld", f"{where}.melds[{index}]", name,
                                    None, index))
        else:
            unfinished[rank] = index
    found.extend(too_soon)


def _check_player(checks: Compiled, player: Player, here: str, side: str, found: list[Problem],
                  warnings: list[Problem]) -> None:
    """One player's record: no negative count; a foot picked up is not recorded as a foot, and an
    unopened one holds ``foot_size`` cards; a red three in hand is worth a look; the cut bonus only
    where the sheet has one."""
    sheet = checks.sheet
    cards, foot = player.cards_left, player.foot  # EMPTY, the most common cards, has nothing to check
    if cards is not EMPTY and min(cards.counts()) < 0:
        found.append(_negative(player, here, side, "cards_left"))
    if foot is not EMPTY and min(foot.counts()) < 0:
        found.append(_negative(player, here, side, "foot"))
    if player.cards_left_points is not None:
        for key, n in (("cards_left_points", player.cards_left_points), ("red_threes_left", player.red_threes_left)):
            if n < 0:
                found.append(Problem("count.negative", f"{player.name}'s {key.replace('_', ' ')} cannot be "
                                     "negative.", None, f"{here}.{key}", side, player.name, field=key))
    if player.foot_played and not player.foot_picked_up:
        found.append(Problem("foot.played", f"{player.name} played from the foot without picking it up.", None,
                             f"{here}.foot_played", side, player.name, field="foot_played"))
    if player.foot_picked_up:
        if foot is not EMPTY and foot:
            found.append(Problem("foot.picked_up", f"{player.name} picked up the foot, so it is not unopened: "
                                 "record what is left of it as cards left.", None, f"{here}.foot", side,
                                 player.name, field="foot"))
    elif foot.total != sheet.foot_size:
        found.append(Problem("foot.size", f"{player.name}'s unopened foot holds {player.foot.total} cards; "
                             f"a foot is dealt {sheet.foot_size}.", "foot_size", f"{here}.foot", side, player.name,
                             field="foot"))
    if checks.lays_red_threes and player.red_threes_in_hand > 0:  # held, one is only its penalty
        key = "red_threes_left" if player.counted else "cards_left"
        warnings.append(Problem("red_three.in_hand", f"{player.name} still holds a red three; red threes are "
                                "laid at once, so check it was not missed.", "red_three_penalty_hand",
                                f"{here}.{key}", side, player.name, field=key))
    if player.cut_bonus and not sheet.cut_bonus:
        found.append(Problem("cut_bonus", f"{player.name} claims the cut bonus, but this sheet has none.",
                             "cut_bonus", f"{here}.cut_bonus", side, player.name, field="cut_bonus"))


def _negative(player: Player, here: str, side: str, key: str) -> Problem:
    """A player's cards (``key``: ``cards_left`` or ``foot``) with a negative count."""
    return Problem("count.negative", f"{player.name}'s {key.replace('_', ' ')} has a negative count.", None,
                   f"{here}.{key}", side, player.name, field=key)


def _check_supply(deal: Deal, players: int, found: list[Problem], tallies: Sequence[Tally], counted: bool) -> None:
    """The pack holds every card the deal records; ``counted``: some side or hand is counted, so
    its books and points are checked against the pack too."""
    decks = deal.sheet.decks_for(max(players, 1))
    available = _pack(decks, deal.sheet.jokers_per_deck)
    used = deal_cards(deal, tallies)
    if any(map(gt, used.counts(), available.counts())):  # most deals: the pack holds every card recorded
        for card, need, have in zip(CARDS, used.counts(), available.counts(), strict=True):
            if need > have:
                option = "jokers_per_deck" if card is Card.JOKER else "decks_rule"
                found.append(Problem("supply", f"This deal records {need} {card.noun}, but {decks} deck"
                                     f"{'s' if decks != 1 else ''} hold only {have}.", option, "sides"))
    if counted:
        found.extend(counted_supply(deal, available, used, decks))


def _check_ending(checks: Compiled, deal: Deal, tallies: Sequence[Tally], located: tuple[int, int, Player] | None,
                  found: list[Problem]) -> None:
    sheet = deal.sheet
    if deal.ending is Ending.STOCK_OUT:
        if deal.went_out is not None:
            found.append(Problem("went_out.player", "The stock ran out, so nobody went out: leave 'went out' empty.",
                                 None, "went_out", field="went_out"))
        if sheet.stock_out is StockOut.RESHUFFLE:
            found.append(Problem("deal.ending", "On this sheet the discard pile is reshuffled when the stock runs "
                                 "out, so a deal ends only when someone goes out.", "stock_out", "ending",
                                 field="ending"))
        return
    if deal.went_out is None:
        found.append(Problem("went_out.player", "Say which player went out.", None, "went_out", field="went_out"))
        return
    if located is None:
        found.append(Problem("went_out.player", f"{deal.went_out!r} is not a player in this deal.", None, "went_out",
                             field="went_out"))
        return
    i, j, player = located
    side = deal.sides[i]
    here = f"sides[{i}].players[{j}]"
    if player.holds_cards:
        found.append(_still_holding(player, here, side.name))
    if not player.foot_picked_up and sheet.go_out_foot:
        found.append(Problem("went_out.cards_left", f"{player.name} went out without picking up the foot; the "
                             "foot must be played first.", "go_out_foot", f"{here}.foot_picked_up", side.name,
                             player.name, field="foot_picked_up"))
    if sheet.has_knee:  # a knee left behind: only in a deal with one
        found.extend(went_out_knee(deal, i, j))
    need = sheet.going_out_books(deal.number)
    held = side_books(sheet, side) if side.books is not None else checks.books_held(tallies[i].records)
    toward, short = checks.books_toward(need, held)
    if short:
        missing = missing_by_rank(need, toward)
        found.append(Problem("went_out.books", f"To go out in deal {deal.number} a side needs {need.books}; "
                             f"{side.name} has {held}{_counting(sheet, held)}"
                             f"{': ' + missing if missing else ''}.", "books_to_go_out",
                             f"sides[{i}].{_books_key(side)}", side.name, player.name, field=_books_key(side)))
    if sheet.go_out_partner_foot is not PartnerFoot.NO:
        found.extend(_partner_feet(sheet, side, i, j))


def _check_first_meld(deal: Deal, found: list[Problem]) -> None:
    """A deal's ``first_meld`` names one of its players, on a sheet with a bonus for it."""
    name = deal.first_meld
    if name is None:
        return
    if not deal.sheet.first_meld_bonus:
        found.append(Problem("first_meld.bonus", f"{name} is named as first to meld, but this sheet has no bonus "
                             "for it: leave it empty.", "first_meld_bonus", "first_meld", field="first_meld"))
    elif deal.find_player(name) is None:
        found.append(Problem("first_meld.player", f"{name!r}, named as first to meld, is not a player in this deal.",
                             None, "first_meld", field="first_meld"))


def _counting(sheet: RuleSheet, held: HeldBooks) -> str:
    """How special and wild books counted toward going out, when the side has any."""
    said = []
    if held.special or held.special_dirty:
        said.append(f"{sheet.describe('special_books_count_as')}")
    if held.wild:
        said.append(f"{sheet.describe('wild_books_count_as')}")
    return f" ({'; '.join(said)})" if said else ""


def _partner_feet(sheet: RuleSheet, side: Side, i: int, j: int) -> Iterator[Problem]:
    """Each partner of the player going out who has not yet done with the foot what the sheet's
    ``go_out_partner_foot`` asks: picked it up, or picked it up and played from it."""
    rule, player = sheet.go_out_partner_foot, side.players[j]  # never PartnerFoot.NO: the caller asks only then
    for k, partner in enumerate(side.players):
        if k == j or (partner.played_foot if rule is PartnerFoot.PLAYED else partner.foot_picked_up):
            continue
        key = "foot_played" if partner.foot_picked_up else "foot_picked_up"
        done = "picked up and played from the foot" if rule is PartnerFoot.PLAYED else "picked up the foot"
        found = "has not played from it" if partner.foot_picked_up else "has not picked it up"
        yield Problem("went_out.partner_foot", f"{player.name} may go out only once every partner has {done}, "
                      f"and {partner.name} {found}.", "go_out_partner_foot", f"sides[{i}].players[{k}].{key}",
                      side.name, partner.name, field=key)


def _books_key(side: Side) -> str:
    """Where a side's books are recorded: its books by kind, or its melds."""
    return "books" if side.counted else "melds"


def _still_holding(player: Player, here: str, side: str) -> Problem:
    """The player who went out still holds cards: listed, or counted as points and red threes."""
    if player.cards_left_points is None:
        n = player.cards_left.total
        return Problem("went_out.cards_left", f"{player.name} went out but still holds "
                       f"{n} card{'s' if n != 1 else ''}.", None, f"{here}.cards_left", side, player.name,
                       field="cards_left")
    key = "cards_left_points" if player.cards_left_points else "red_threes_left"
    return Problem("went_out.cards_left", f"{player.name} went out but still holds cards "
                   f"({player.cards_left_points:,} points, {player.red_threes_left} red threes).",
                   None, f"{here}.{key}", side, player.name, field=key)


# -- what a deal may carry for the referee: openings, the last card, permission -----------------


def _check_openings(checks: Compiled, deal: Deal, totals_before: Mapping[str, int] | None, found: list[Problem],
                    unchecked: list[Unchecked]) -> None:
    """Each opening given against the deal's minimum and the pile rules; each one missing listed
    as not checked where the minimum is above nothing."""
    sheet = deal.sheet
    by_total = sheet.opening_by is OpeningBy.RUNNING_TOTAL
    option = "opening_bands" if by_total else "opening_minimums"
    not_given = checks.opening_not_given  # the reason an opening not given is not checked, after its owner
    book = sheet.opening_book(deal.number)
    new = tuple.__new__  # an Unchecked made as a tuple: Unchecked(...) costs a call more, once a player
    for i, side in enumerate(deal.sides):
        running = side.running_total if totals_before is None else totals_before.get(side.name)
        minimum = checks.opening_minimum(deal.number, running or 0)
        if by_total and running is None:
            minimum = max(band.minimum for band in sheet.opening_bands)
        for owner, player, opening, where in _openings(sheet, side, f"sides[{i}]", found):
            if opening is None:
                if minimum > 0 or book:
                    unchecked.append(new(Unchecked, ("opening", option, owner + not_given, where, side.name, player)))
            elif by_total and running is None:
                unchecked.append(Unchecked("opening", option, f"The minimum follows the running total "
                                           f"({sheet.cite(option)}); give {side.name}'s running_total before this "
                                           "deal to check the opening.", f"sides[{i}].running_total",
                                           side.name, player))
            elif opening.melds:  # no first melds: this side or player never opened
                found.extend(_opening_problems(sheet, deal.number, opening, running or 0, owner, where,
                                               side.name, player))


def _openings(sheet: RuleSheet, side: Side, where: str,
              found: list[Problem]) -> Iterator[tuple[str, str | None, Opening | None, str]]:
    """Who meets the minimum on this side, as the sheet says (``opening_who``): (who, player's
    name or None, their opening, where it goes). A one-player side's opening may be given on the
    side or the player; one given at the wrong level for partners is a problem."""
    each = sheet.opening_who is _PLAYER and len(side.players) > 1
    misplaced = side.opening is not None if each else any(p.opening is not None for p in side.players) \
        and len(side.players) > 1
    if misplaced:
        level = ("each player's first melds, so give each player's opening, not the side's" if each
                 else "the side's first melds, once, so give the side's opening, not each player's")
        found.append(Problem("opening.minimum", f"On this sheet the minimum is for {level} "
                             f"({sheet.cite('opening_who')}).", "opening_who",
                             f"{where}.opening" if each else f"{where}.players", side.name, field="opening"))
    if each:
        for j, player in enumerate(side.players):
            yield player.name, player.name, player.opening, f"{where}.players[{j}].opening"
    elif len(side.players) == 1 and side.players[0].opening is not None:
        yield side.name, side.players[0].name, side.players[0].opening, f"{where}.players[0].opening"
    else:
        yield side.name, None, side.opening, f"{where}.opening"


def _opening_problems(sheet: RuleSheet, deal: int, opening: Opening, running: int, owner: str, where: str,
                      side: str, player: str | None) -> Iterator[Problem]:
    """The referee's answer to "do these first melds meet the minimum?" (:func:`~.referee.meets_minimum`),
    each failed reason a problem quoting the sheet: ``opening.pile`` for the pile taken before opening,
    ``opening.minimum`` for the rest."""
    top = opening.pile_top
    laid = sum((meld.cards() for meld in opening.melds), Cards())
    if isinstance(top, Card) and not laid[top]:
        yield Problem("opening.pile", f"{owner}'s first melds hold no {top.noun}, but the pile's top card was "
                      f"one: the top card taken is melded at once ({sheet.cite('pile_needs')}).", "pile_needs",
                      f"{where}.pile_top", side, player, field="opening")
        return
    short = pile_meld_lacking(sheet, top, opening.melds) if isinstance(top, Card) and not sheet.pile_needs_opened \
        else None  # where the pile waits for the first melds, the answer below says so
    if short is not None:
        yield Problem("opening.pile", f"{owner}'s first melds hold no meld of {short}, but the pile's top card was "
                      f"taken with them ({sheet.cite('pile_needs')}).", "pile_needs", f"{where}.pile_top", side,
                      player, field="opening")
        return
    # The card not said (true): judged as the cheapest card laid, so only a sure shortfall is refused.
    top_card = top if isinstance(top, Card) else \
        min((card for card, n in laid.items() if n > 0), key=sheet.value, default=None) if top else None
    answer = meets_minimum(sheet, deal, opening.melds, top_card=top_card, running_total=running)
    for reason in answer.reasons:
        if reason.ok:
            continue
        code = "opening.pile" if reason.option == "pile_needs_opened" else "opening.minimum"
        cited = sheet.cite(reason.option)
        said = f" ({cited})" if cited else ""
        yield Problem(code, f"{owner}'s opening: {_lower(reason.message)}{said}.", reason.option,
                      f"{where}.pile_top" if code == "opening.pile" else f"{where}.melds", side, player,
                      field="opening")


def _lower(message: str) -> str:
    """A reason's sentence to go on after a comma: lower case first, no full stop."""
    message = message.rstrip(".")
    return message[:1].lower() + message[1:]


_ASKED = {Permission.ASKED_YES: True, Permission.ASKED_NO: False, Permission.NOT_ASKED: None}


def check_going_out(deal: Deal, located: tuple[int, int, Player] | None, found: list[Problem],
                     unchecked: list[Unchecked]) -> None:
    """How the player who went out (``located``) played the last card, and whether a partner said
    yes, where the sheet has those rules (``last_card``, ``go_out_permission``)."""
    sheet = deal.sheet
    if located is None:
        return
    side, player = deal.sides[located[0]].name, located[2].name
    if sheet.last_card is not LastCard.EITHER:
        if deal.last_card is None:
            unchecked.append(Unchecked("last_card", "last_card", f"How {player}'s last card went is not given, so "
                                       f"the rule ({sheet.cite('last_card')}) is not checked.", "last_card",
                                       side, player))
        else:
            found.extend(Problem("went_out.last_card", f"{player} {deal.last_card.value}ed the last card, but "
                                 f"{_lower(r.message)} ({sheet.cite(r.option)}).", r.option, "last_card",
                                 side, player, field="last_card")
                         for r in last_card_reason(sheet, deal.last_card) if not r.ok)
    if sheet.go_out_permission and len(deal.sides[located[0]].players) > 1:
        if deal.permission is None:
            unchecked.append(Unchecked("permission", "go_out_permission", f"Whether {player} asked a partner "
                                       f"\"may I go out?\" is not given, so the rule "
                                       f"({sheet.cite('go_out_permission')}) is not checked.", "permission",
                                       side, player))
        else:
            found.extend(Problem("went_out.permission", f"{player} went out, but {_lower(r.message)} "
                                 f"({sheet.cite(r.option)}).", r.option, "permission", side, player,
                                 field="permission")
                         for r in permission_reason(sheet, _ASKED[deal.permission]) if not r.ok)
