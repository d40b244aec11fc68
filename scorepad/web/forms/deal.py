"""A deal as the table records it on a phone, read into the canonical deal JSON: each side
counted by default (books by kind, melded points, red threes; each player's points left and
unopened foot) or, once "Itemise melds" is asked for, itemised (meld rows, each player's cards
left, and what the referee needs to judge the opening: the first melds of the side, or of each
player where the sheet's minimum is each player's, and the pile's top card among them; with the
deal's last card and the partner's permission where the sheet has those rules); and who went
out; the referee's problems are placed back next to the field each one concerns.

What the form holds for each side, meld row and player is in :mod:`.deal_blocks`; what it
shows beside its boxes (the cards left by value, each side's progress toward going out) in
:mod:`.deal_shown`; the small forms around a deal in :mod:`.deal_meta`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ...rules import ReadError, RuleSheet
from ...rules.cards import CARDS, Cards
from ...rules.choices import LastCard, OpeningBook, OpeningBy, OpeningWho, PartnerFoot
from ...rules.deal import Meld
from ...rules.limits import MAX_COUNT, MAX_INPUT, MAX_MELD_ROWS
from ...rules.problems import Problem
from ...storage.reading import GameSide
from .deal_blocks import MeldRow, PlayerBlock, SideBlock, card_label, count_or_zero, rows_per_side

RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "wild")
TOP_CARDS = (*RANKS[:-1], "2", "JK")  # a pile's top card that can be melded
NO_ENDING = "Say who went out, or that the stock ran out."  # the deal form's one question left unanswered
LAST_CARD = (("discard", "Discarded"), ("meld", "Melded"))
PERMISSION = (("asked-yes", "Asked: yes"), ("asked-no", "Asked: no"), ("not-asked", "Did not ask"))


# -- a deal -------------------------------------------------------------------------------------

# Where a problem shows: on the form as a whole, the ending, a side, a meld row or a player.
TOP = "top"


class DealForm:
    """A deal as typed on the phone: read into canonical JSON, problems placed by field."""

    TOP_CARDS, LAST_CARD, PERMISSION = TOP_CARDS, LAST_CARD, PERMISSION  # the choices the template offers

    def __init__(self, game_sides: Sequence[GameSide], sheet: RuleSheet, number: int | None = None) -> None:
        self.sheet = sheet
        self.number = number  # the deal's number: where the sheet deals a knee in some deals only
        self.sides: list[SideBlock] = []
        for i, side in enumerate(game_sides):
            players = [PlayerBlock(i, j, name) for j, name in enumerate(side["players"])]
            self.sides.append(SideBlock(i, side["name"], [], players))
        self.ending = ""  # "stock", or "p{side}-{player}"
        self.last_card = ""  # "", or how the last card went: discard, meld
        self.permission = ""  # "", or asked-yes, asked-no, not-asked
        self.first_meld = ""  # "", or the key of the player who laid down first ("s0-p1")
        self.first_meld_problems: list[str] = []
        self.top: list[str] = []
        self.ending_problems: list[str] = []
        self.warnings: list[str] = []
        self.not_checked: list[str] = []  # what the referee could not check, in its words
        self.violations = 0
        self.form_errors: list[str] = []  # every input's message that could not be read

    # -- building ------------------------------------------------------------------------

    @classmethod
    def blank(cls, game_sides: Sequence[GameSide], sheet: RuleSheet, number: int | None = None) -> DealForm:
        form = cls(game_sides, sheet, number)
        for side in form.sides:
            side.rows = [MeldRow(k) for k in range(rows_per_side(len(form.sides)))]
        return form

    @classmethod
    # Any: the deal's JSON as the form builds it, nested dicts filled in place (Deal.from_json reads it)
    def from_deal(cls, game_sides: Sequence[GameSide], sheet: RuleSheet, deal: dict[str, Any],
                  number: int | None = None) -> DealForm:
        """The form filled in from a recorded deal's canonical JSON."""
        form = cls(game_sides, sheet, number if number is not None else deal.get("deal"))
        by_name = {s["name"]: s for s in deal.get("sides", [])}
        for side in form.sides:
            data = by_name.get(side.name, {})
            side.rows = []
            side.itemised = "books" not in data
            books = data.get("books", {})
            side.books = {k: _shown(books.get(k)) for k in ("clean", "dirty", "wild", "wild_mixed")}
            side.books.update({k: _shown(n) for k, n in books.get("special", {}).items()})
            side.books.update({f"d{k}": _shown(n) for k, n in books.get("special_dirty", {}).items()})
            side.books.update({k: _shown(n) for k, n in books.get("threes", {}).items()})
            side.meld_points = _shown(data.get("meld_points"))
            for k, meld in enumerate(data.get("melds", [])):
                side.rows.append(MeldRow(k, meld.get("rank", ""), _shown(meld.get("naturals")),
                                         _shown(meld.get("twos")), _shown(meld.get("jokers"))))
                side.row_of_meld.append(k)
            if side.itemised:
                extra = max(2, rows_per_side(len(form.sides)) - len(side.rows))
                side.rows += [MeldRow(len(side.rows) + k) for k in range(extra)]
            side.red_threes = _shown(data.get("red_threes"))
            side.failed_takes = _shown(data.get("failed_takes"))
            side.opening, side.pile_top = _opening_shown(data.get("opening"))
            players = {p["name"]: p for p in data.get("players", [])}
            for player in side.players:
                p = players.get(player.name, {})
                player.picked = bool(p.get("foot_picked_up", True))
                player.counts = {card: str(n) for card, n in Cards.from_json(p.get("cards_left")).to_json().items()}
                player.foot = str(Cards.from_json(p.get("foot")))
                player.cut = bool(p.get("cut_bonus"))
                player.unplayed = p.get("foot_played") is False
                knee_picked = p.get("knee_picked_up")
                player.knee_picked = player.picked if knee_picked is None else bool(knee_picked)
                player.knee = str(Cards.from_json(p.get("knee")))
                player.points = _shown(p.get("cards_left_points"))
                player.red_left = _shown(p.get("red_threes_left"))
                player.opening, player.pile_top = _opening_shown(p.get("opening"))
        form.last_card, form.permission = deal.get("last_card", ""), deal.get("permission", "")
        form.first_meld = form.player_key(deal["first_meld"]) or "" if deal.get("first_meld") else ""
        if deal.get("ending") == "stock_out":
            form.ending = "stock"
        elif deal.get("went_out"):
            form.ending = form.player_key(deal["went_out"]) or ""
        return form

    @classmethod
    def from_form(cls, game_sides: Sequence[GameSide], sheet: RuleSheet, data: Mapping[str, str],
                  more_rows: bool = False, itemise: int | None = None, number: int | None = None) -> DealForm:
        """The form as posted. A side is counted when its ``s{i}-mode`` says ``count`` (as the
        form sends it by default), else itemised; ``itemise`` switches that side to meld rows."""
        form = cls(game_sides, sheet, number)
        for side in form.sides:
            s = f"s{side.index}"
            side.itemised = _get(data, f"{s}-mode") != "count" or side.index == itemise
            side.books = {k: _get(data, f"{s}-b-{k}") for k in form.book_keys if _get(data, f"{s}-b-{k}")}
            side.meld_points = _get(data, f"{s}-points")
            count = _bounded(data.get(f"{s}-rows"), rows_per_side(len(form.sides)))
            if more_rows:
                count = max(count, min(count + 4, MAX_MELD_ROWS))
            side.rows = [MeldRow(k, _get(data, f"{s}-m{k}-rank"), _get(data, f"{s}-m{k}-naturals"),
                                 _get(data, f"{s}-m{k}-twos"), _get(data, f"{s}-m{k}-jokers"),
                                 _get(data, f"{s}-m{k}-cards"))
                         for k in range(count)]
            side.red_threes = _get(data, f"{s}-red_threes")
            side.failed_takes = _get(data, f"{s}-failed")
            side.opening, side.pile_top = _get(data, f"{s}-open"), _get(data, f"{s}-top")
            for player in side.players:
                p = player.key
                player.picked = f"{p}-picked" in data
                player.counts = {c.value: _get(data, f"{p}-c-{c.value}") for c in CARDS
                                 if _get(data, f"{p}-c-{c.value}")}
                player.left = _get(data, f"{p}-left")
                player.foot = _get(data, f"{p}-foot")
                player.cut = f"{p}-cut" in data
                player.unplayed = f"{p}-unplayed" in data
                player.knee_picked = f"{p}-knee_picked" in data
                player.knee = _get(data, f"{p}-knee")
                player.points = _get(data, f"{p}-pts")
                player.red_left = _get(data, f"{p}-red_left")
                player.opening, player.pile_top = _get(data, f"{p}-open"), _get(data, f"{p}-top")
        form.ending = _get(data, "ending")
        form.last_card, form.permission = _get(data, "last_card"), _get(data, "permission")
        form.first_meld = _get(data, "first_meld")
        return form

    # -- what the referee needs, where the sheet has the rule --------------------------------

    @property
    def asks_opening(self) -> bool:
        """Whether the sheet has an opening minimum above nothing (in some deal, or band; a complete book is one)."""
        sheet = self.sheet
        if sheet.opening_by is OpeningBy.RUNNING_TOTAL:
            return max((band.minimum for band in sheet.opening_bands), default=0) > 0
        return any(isinstance(m, OpeningBook) or m > 0 for m in sheet.opening_minimums.values)

    def opens_by_player(self, side: SideBlock) -> bool:
        """Whether each player of this side meets the minimum (the sheet's ``opening_who``), not the side once."""
        return self.sheet.opening_who is OpeningWho.PLAYER and len(side.players) > 1

    def shows_opening(self, side: SideBlock) -> bool:
        """An itemised side offers its opening (so does one that carries an opening already)."""
        return (side.itemised and self.asks_opening) or bool(
            side.opening or side.pile_top or any(p.opening or p.pile_top for p in side.players))

    @property
    def shows_going_out(self) -> bool:
        """The deal's last card and permission are offered once a side is itemised (or either is given)."""
        return any(side.itemised for side in self.sides) or bool(self.last_card or self.permission)

    @property
    def asks_failed_takes(self) -> bool:
        """Whether the sheet charges for a failed take of the pile (``pile_take_penalty``): each side's count."""
        return self.sheet.pile_take_penalty > 0

    @property
    def knee_size(self) -> int:
        """The knee's cards in this deal (the sheet's ``knee_size``): above 0, each player says
        whether the knee was picked up and, if not, its cards; 0, the form asks nothing of a knee."""
        return self.sheet.knee_at(self.number) if self.number is not None else 0

    @property
    def asks_last_card(self) -> bool:
        return self.sheet.last_card is not LastCard.EITHER

    def asks_foot_played(self, side: SideBlock) -> bool:
        """Whether the sheet asks that partners played from the foot (``go_out_partner_foot``
        "played"), so each partner may say they picked it up and played nothing from it."""
        return self.sheet.go_out_partner_foot is PartnerFoot.PLAYED and len(side.players) > 1

    @property
    def asks_first_meld(self) -> bool:
        """Whether the form asks who laid down first: on a sheet with a bonus for it (``first_meld_bonus``),
        or for a deal that names one already."""
        return self.sheet.first_meld_bonus > 0 or bool(self.first_meld)

    def shows_red_threes(self, side: SideBlock) -> bool:
        """Whether a side's "Red threes laid" box shows: where red threes are laid (``red_three_mode``),
        or where the deal records some laid already (held, a violation to correct)."""
        return self.sheet.lays_red_threes or count_or_zero(side.red_threes)

    @property
    def asks_permission(self) -> bool:
        return self.sheet.go_out_permission and any(len(side.players) > 1 for side in self.sides)

    @property
    def book_keys(self) -> tuple[str, ...]:
        """A counted side's kinds of book: clean, dirty, wild, mixed wild where the sheet prices a
        wild book mixing 2s and jokers apart (``wild_mixed``), each special rank (``7``), each
        rank a dirty book of has its own bonus (``d7``), then each kind of three booked (``3R``)."""
        sheet = self.sheet
        mixed = ("wild_mixed",) if sheet.prices_mixed_wild else ()
        return ("clean", "dirty", "wild", *mixed, *(card.value for card, _ in sheet.special_books),
                *(f"d{card.value}" for card, _ in sheet.special_books_dirty),
                *(card.value for card, _ in sheet.three_books))

    @staticmethod
    def book_label(key: str) -> str:
        """A counted kind of book as its box names it: "clean", "7s", "dirty 7s", "red 3s"."""
        if key in ("clean", "dirty", "wild"):
            return key
        if key == "wild_mixed":
            return "mixed wild"
        if key.startswith("d"):
            return f"dirty {card_label(key[1:])}"
        return card_label(key)

    def player_key(self, name: str) -> str | None:
        for side in self.sides:
            for player in side.players:
                if player.name == name:
                    return player.key
        return None

    # -- reading into canonical JSON ----------------------------------------------------------

    def to_json(self, number: int | None = None, need_ending: bool = True, refused_as_blank: bool = False
                ) -> dict[str, Any] | None:  # Any: the deal's JSON as the form builds it (Deal.from_json reads it)
        """The canonical deal (without a sheet), or None when some input cannot be read;
        each such input then carries its message. Without ``need_ending`` (a preview while
        typing), a deal nobody has said the end of yet is read too, as went out by nobody;
        with ``refused_as_blank`` (the same preview), every input that cannot be read is read
        as blank (:meth:`refused_sides` names whose)."""
        sides = []
        for side in self.sides:
            if not side.itemised:
                sides.append(self._counted(side))
                continue
            melds = []
            side.row_of_meld = []
            for row in side.rows:
                meld = self._meld(row)
                if meld is not None:
                    side.row_of_meld.append(row.index)
                    melds.append(meld)
            red = self._count(side.red_threes, side.problems, "red_threes", "Red threes laid")
            players = [self._player(side, p) for p in side.players]
            sides.append({"name": side.name, "melds": melds, "red_threes": red or 0, "players": players})
        for side, out in zip(self.sides, sides, strict=True):
            self._openings(side, out)
            failed = self._count(side.failed_takes, side.problems, "failed_takes", "Failed takes of the pile")
            if failed:
                out["failed_takes"] = failed
        # Any: the deal's JSON as the form builds it, nested dicts filled in place (Deal.from_json reads it)
        deal: dict[str, Any] = {}
        if number is not None:
            deal["deal"] = number
        if self.ending == "stock":
            deal["ending"] = "stock_out"
        else:
            went = next((p.name for s in self.sides for p in s.players if p.key == self.ending), None)
            if went is None and need_ending:
                self._error_list(self.ending_problems, NO_ENDING)
            deal.update(ending="went_out", went_out=went)
        deal.update({key: value for key, value in (("last_card", self.last_card), ("permission", self.permission))
                     if value})
        first = next((p.name for s in self.sides for p in s.players if p.key == self.first_meld), None)
        if first is not None:
            deal["first_meld"] = first
        deal["sides"] = sides
        return None if self.form_errors and not refused_as_blank else deal

    def refused_sides(self) -> set[str]:
        """The sides holding an input that could not be read (each says why): their score is not known."""
        return {side.name for side in self.sides
                if side.problems or any(r.problems for r in side.rows) or any(p.problems for p in side.players)}

    # Any: the deal's JSON as the form builds it, nested dicts filled in place (Deal.from_json reads it)
    def _openings(self, side: SideBlock, out: dict[str, Any]) -> None:
        """The side's opening, or each player's, into its JSON: melds typed as card strings split by ";"."""
        opening = self._opening(side.opening, side.pile_top, side.problems)
        if opening is not None:
            out["opening"] = opening
        for player, player_out in zip(side.players, out["players"], strict=True):
            opening = self._opening(player.opening, player.pile_top, player.problems)
            if opening is not None:
                player_out["opening"] = opening

    # Any: the deal's JSON as the form builds it, nested dicts filled in place (Deal.from_json reads it)
    def _opening(self, text: str, top: str, problems: dict[str, list[str]]) -> dict[str, Any] | None:
        melds = [part.strip() for part in re.split(r"[;\n]+", text) if part.strip()]
        if not melds:
            if top:
                self._error(problems, "opening", "First melds: give the melds the pile's top card went into.")
            return None
        if not top:
            return {"melds": melds}
        return {"melds": melds, "pile_top": True if top == "yes" else top}  # "yes": the card not said

    # Any: the deal's JSON as the form builds it, nested dicts filled in place (Deal.from_json reads it)
    def _counted(self, side: SideBlock) -> dict[str, Any]:
        """A counted side: books by kind, melded points, red threes; each player's points left."""
        # Any: the deal's JSON as the form builds it, nested dicts filled in place (Deal.from_json reads it)
        books: dict[str, Any] = {}
        for key in self.book_keys:
            n = self._count(side.books.get(key, ""), side.problems, "books", f"{self.book_label(key)} books")
            if not n:
                continue
            if key in ("clean", "dirty", "wild", "wild_mixed"):
                books[key] = n
            elif key.startswith("d"):
                books.setdefault("special_dirty", {})[key[1:]] = n
            else:
                books.setdefault("threes" if key in ("3R", "3B") else "special", {})[key] = n
        points = self._count(side.meld_points, side.problems, "meld_points", "Melded points")
        red = self._count(side.red_threes, side.problems, "red_threes", "Red threes laid")
        players = []
        for player in side.players:
            # Any: the deal's JSON as the form builds it, nested dicts filled in place (Deal.from_json reads it)
            out: dict[str, Any] = {"name": player.name, "foot_picked_up": player.picked}
            out["cards_left_points"] = self._count(player.points, player.problems, "cards_left", "Points left") or 0
            red_left = self._count(player.red_left, player.problems, "cards_left", "Red threes left")
            if red_left:
                out["red_threes_left"] = red_left
            players.append(_with_foot_and_cut(out, player, self.knee_size > 0))
        return {"name": side.name, "books": books, "meld_points": points or 0, "red_threes": red or 0,
                "players": players}

    # Any: the deal's JSON as the form builds it, nested dicts filled in place (Deal.from_json reads it)
    def _meld(self, row: MeldRow) -> dict[str, Any] | None:
        if row.blank:
            return None
        counts = {key: self._count(getattr(row, key), None, None, key, row) for key in ("naturals", "twos", "jokers")}
        if row.cards:
            if any(counts.values()):
                self._error_list(row.problems, "Give the cards or the counts, not both.")
                return None
            # Any: the deal's JSON as the form builds it, nested dicts filled in place (Deal.from_json reads it)
            meld: dict[str, Any] = {"cards": row.cards}
            if row.rank:
                meld["rank"] = row.rank
            return meld
        if not row.rank:
            self._error_list(row.problems, "Choose the meld's rank (or wild).")
            return None
        meld = {"rank": row.rank}
        meld.update({k: v for k, v in counts.items() if v})
        return meld

    # Any: the deal's JSON as the form builds it, nested dicts filled in place (Deal.from_json reads it)
    def _player(self, side: SideBlock, player: PlayerBlock) -> dict[str, Any]:
        counts: dict[str, int] = {}
        for card, text in player.counts.items():
            n = self._count(text, player.problems, "cards_left", f"{card_label(card)} left")
            if n:
                counts[card] = n
        # Any: the deal's JSON as the form builds it, nested dicts filled in place (Deal.from_json reads it)
        cards_left: Any = counts
        if player.left:
            try:
                cards_left = (Cards.from_json(counts) + Cards.parse(player.left)).to_json()
            except ReadError as err:
                self._error(player.problems, "cards_left", f"Cards left: {err.reason}")
        return _with_foot_and_cut({"name": player.name, "foot_picked_up": player.picked, "cards_left": cards_left},
                                  player, self.knee_size > 0)

    def _count(self, text: str, problems: dict[str, list[str]] | None, key: str | None, what: str,
               row: MeldRow | None = None) -> int | None:
        text = text.strip()
        if not text:
            return 0
        if re.fullmatch(r"-?\d{1,6}", text) and abs(int(text)) <= MAX_COUNT:
            return int(text)
        if re.fullmatch(r"-?\d+", text):
            message = (f"{what.capitalize()}: {text[:12]}{'…' if len(text) > 12 else ''} is too many; "
                       f"at most {MAX_COUNT:,}.")
        else:
            message = f"{what.capitalize()}: {text[:40]!r} is not a whole number."
        if row is not None:
            self._error_list(row.problems, message)
        elif problems is not None and key is not None:
            self._error(problems, key, message)
        return None

    def _error(self, problems: dict[str, list[str]], key: str, message: str) -> None:
        problems.setdefault(key, []).append(message)
        self.form_errors.append(message)

    def _error_list(self, problems: list[str], message: str) -> None:
        problems.append(message)
        self.form_errors.append(message)

    # -- placing messages on the form ---------------------------------------------------------

    def place(self, where: str, message: str) -> str:
        """Show a store's read error next to the input its path names (``sides[0].melds[2]``,
        as :class:`~scorepad.rules.errors.ReadError` gives it); returns the anchor it went to."""
        parts = [a or b for a, b in re.findall(r"(\w+)|\[(\d+)\]", where or "")]
        if len(parts) >= 2 and parts[0] == "sides" and parts[1].isdigit() and int(parts[1]) < len(self.sides):
            side = self.sides[int(parts[1])]
            rest = parts[2:]
            if rest[:1] == ["melds"] and len(rest) >= 2 and rest[1].isdigit():
                return self._on_meld(side, int(rest[1]), message)
            if rest[:1] == ["players"] and len(rest) >= 2 and rest[1].isdigit() and int(rest[1]) < len(side.players):
                return self._on_player(side.players[int(rest[1])], rest[2] if len(rest) > 2 else None, message)
            return self._on_side(side, rest[0] if rest else None, message)
        if parts[:1] in (["went_out"], ["ending"], ["last_card"], ["permission"]):
            self.ending_problems.append(message)
            return "ending"
        if parts[:1] == ["first_meld"]:
            self.first_meld_problems.append(message)
            return "first-meld"
        self.top.append(message)
        return TOP

    def place_problem(self, problem: Problem) -> str:
        """Show the referee's problem next to what it names (its side, player, meld and input);
        returns the anchor it went to."""
        if problem.field in ("went_out", "ending", "last_card", "permission"):
            self.ending_problems.append(problem.message)
            return "ending"
        if problem.field == "first_meld":
            self.first_meld_problems.append(problem.message)
            return "first-meld"
        side = next((s for s in self.sides if s.name == problem.side), None)
        if side is None:
            self.top.append(problem.message)
            return TOP
        if problem.meld is not None:
            return self._on_meld(side, problem.meld, problem.message)
        player = next((p for p in side.players if p.name == problem.player), None)
        if player is not None and problem.field not in SIDE_FIELDS:
            return self._on_player(player, problem.field, problem.message)
        return self._on_side(side, problem.field, problem.message)

    def place_problems(self, problems: Iterable[Problem]) -> list[tuple[str, str]]:
        """Place every violation; returns (anchor, message) for the summary."""
        out = []
        for problem in problems:
            self.violations += 1
            out.append((self.place_problem(problem), problem.message))
        return out

    def _on_meld(self, side: SideBlock, meld: int, message: str) -> str:
        if meld >= len(side.row_of_meld):
            return self._on_side(side, "melds", message)
        row = side.rows[side.row_of_meld[meld]]
        row.problems.append(message)
        return f"s{side.index}-m{row.index}"

    def _on_player(self, player: PlayerBlock, field: str | None, message: str) -> str:
        player.problems.setdefault(PLAYER_FIELDS.get(field or "", ""), []).append(message)
        return player.key

    def _on_side(self, side: SideBlock, field: str | None, message: str) -> str:
        side.problems.setdefault(field if field in (*SIDE_FIELDS, "opening") else "", []).append(message)
        return f"s{side.index}"


# Any: the deal's JSON as the form builds it, nested dicts filled in place (Deal.from_json reads it)
def _with_foot_and_cut(out: dict[str, Any], player: PlayerBlock, knee: bool) -> dict[str, Any]:
    """A player's JSON, counted or itemised, with what both record alike: the unopened foot
    (and, in a deal with a ``knee``, whether it was picked up and the unopened knee), the cut
    bonus and a foot picked up but not played from."""
    if knee:
        out["knee_picked_up"] = player.knee_picked
        if not player.knee_picked and player.knee:
            out["knee"] = player.knee
    if not player.picked and player.foot:
        out["foot"] = player.foot
    if player.cut:
        out["cut_bonus"] = True
    if player.unplayed:
        out["foot_played"] = False
    return out


# Where a message shows within a side and a player: the input a field names (else the whole).
SIDE_FIELDS = ("melds", "red_threes", "books", "meld_points", "failed_takes")
PLAYER_FIELDS = {"foot_picked_up": "picked", "foot_played": "picked", "cut_bonus": "cut", "cards_left": "cards_left",
                 "foot": "foot", "cards_left_points": "cards_left", "red_threes_left": "cards_left",
                 "opening": "opening", "knee_picked_up": "knee_picked", "knee": "knee"}


def _get(data: Mapping[str, str], key: str) -> str:
    """An input's text. Cut to a bound longer than any input may be (a card string's
    :data:`~scorepad.rules.limits.MAX_CARD_STRING`), so an over-long input is still refused
    by its reader, inline, and never silently shortened into something else."""
    return str(data.get(key, "")).strip()[:MAX_INPUT]


def _shown(value: object) -> str:
    return str(value) if value else ""


# Any: the deal's JSON as the form builds it, nested dicts filled in place (Deal.from_json reads it)
def _opening_shown(opening: Any) -> tuple[str, str]:
    """A recorded opening as the form shows it: its melds as card strings split by ";", and the top card."""
    if not isinstance(opening, Mapping):
        return "", ""
    melds = "; ".join(str(Meld.from_json(meld).cards()) for meld in opening.get("melds", []))
    top = opening.get("pile_top", False)
    return melds, top if isinstance(top, str) else "yes" if top is True else ""


def _bounded(value: object, default: int) -> int:
    try:
        n = int(str(value))
    except (TypeError, ValueError):
        return default
    # As many rows as the page can have shown: a deal's melds (at most MAX_MELDS, however it
    # was recorded) and two blank rows; "More meld rows" adds rows up to the same bound.
    return max(1, min(n, MAX_MELD_ROWS))
