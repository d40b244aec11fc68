"""The web forms: what a player types, read into the JSON the store takes, and back.

Flask-WTF forms carry the CSRF token and the few fixed fields (a game's name, its preset, a
reason). The parts whose shape depends on the game are read here by hand:

- :class:`SheetEditor`: every option of the rule sheet, one input each, generated from the
  catalogue (:data:`~scorepad.rules.sheet.OPTIONS`), read back through ``load_sheet``; an
  option that cannot be read keeps its text and carries a message naming it.
- :class:`SidesForm`: up to eight sides of up to four players, blanks ignored.
- :class:`DealForm`: a deal as the table records it on a phone (meld rows, red threes, each
  player's cards left and unopened foot, who went out), read into the canonical deal JSON;
  the referee's problems are placed back next to the field each one concerns.
"""

from __future__ import annotations

import json
import re
import typing
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from flask_wtf import FlaskForm
from wtforms import Field, HiddenField, SelectField, StringField
from wtforms.validators import ValidationError  # type: ignore[import-untyped]

from ..rules import OPTIONS, PRESETS, ReadError, RuleSheet, SheetError, load_sheet
from ..rules.cards import CARDS, NATURALS, Card, Cards
from ..rules.limits import MAX_COUNT, MAX_INPUT, MAX_MELD_ROWS, MAX_NAME, MAX_PER_SIDE, MAX_SIDES
from ..rules.sheet import Choice, Option, options_by_group
from ..rules.text import check_text, untyped
from ..rules.validate import Problem

RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "wild")


# -- fixed forms (CSRF and a few fields) --------------------------------------------------------


def preset_choices() -> list[tuple[str, str]]:
    return [(p.id, p.title) for p in PRESETS.values()]


class PlainText:
    """A validator: the field holds only characters a person types (the rules core's
    :func:`~scorepad.rules.text.check_text`, the same check the store makes)."""

    def __init__(self, multiline: bool = False) -> None:
        self.multiline = multiline

    def __call__(self, form: FlaskForm, field: Field) -> None:
        try:
            check_text(str(field.data or "").strip(), field.name, self.multiline)
        except ReadError as err:
            raise ValidationError(err.reason[0].upper() + err.reason[1:] + ".") from None


class NewGameForm(FlaskForm):
    name = StringField("Game name", [PlainText()])  # the store checks the rest, and says what is wrong inline
    preset = SelectField("Start from the sheet", choices=preset_choices, default="common")


class AmendForm(FlaskForm):
    preset = SelectField("Start from the sheet", choices=lambda: [("", "no preset")] + preset_choices())
    reason = StringField("Why the table changes the sheet", [PlainText(multiline=True)])
    revision = HiddenField()


class DealMetaForm(FlaskForm):
    """The CSRF token, the game's revision and the as-played reason of a deal form."""

    revision = HiddenField()
    reason = StringField("Reason", [PlainText(multiline=True)])


class ConfirmForm(FlaskForm):
    revision = HiddenField()


# -- the rule-sheet editor ---------------------------------------------------------------------

_HINTS = typing.get_type_hints(RuleSheet)


def option_kind(option: Option) -> tuple[str, tuple[str, ...]]:
    """How an option is edited: ``choice`` (with its values), ``bool``, ``int``,
    ``optional_int`` (blank for none) or ``json`` (its JSON form as text)."""
    hint = _HINTS[option.name]
    if isinstance(hint, type) and issubclass(hint, Choice):
        return "choice", tuple(c.value for c in hint)
    if hint is bool:
        return "bool", ()
    if hint is int:
        return "int", ()
    if hint == (int | None):
        return "optional_int", ()
    return "json", ()


KINDS: dict[str, tuple[str, tuple[str, ...]]] = {o.name: option_kind(o) for o in OPTIONS}

# What a blank box means for a structured option, where blank can mean something.
_BLANK_JSON: dict[str, Any] = {"special_books": {}, "pile_blocked_by": []}


def display_value(option: Option, value: Any) -> str | bool:
    """What an option's input shows for a value of the sheet."""
    kind, _ = KINDS[option.name]
    if kind == "bool":
        return bool(value)
    if kind == "choice":
        return value.value
    if kind == "optional_int":
        return "" if value is None else str(value)
    if kind == "int":
        return str(value)
    return json.dumps(option.write(value))


def preset_displays() -> dict[str, dict[str, str | bool]]:
    """Every preset's inputs, for the script that loads a preset without a round trip."""
    return {pid: {o.name: display_value(o, getattr(p.sheet, o.name)) for o in OPTIONS}
            for pid, p in PRESETS.items()}


def _lenient_json(text: str) -> Any:
    """JSON, or a bare comma-separated list of numbers or words (``50, 90, 120``)."""
    try:
        return json.loads(text)
    except RecursionError:  # nested past the parser's depth: no option's value is
        raise ValueError("nested too deeply") from None
    except ValueError:
        pass
    parts = [p.strip() for p in re.split(r"[,\s]+", text.strip().strip("[]")) if p.strip()]
    if parts and all(re.fullmatch(r"-?\d+", p) for p in parts):
        numbers = [int(p) for p in parts]
        return numbers[0] if len(numbers) == 1 else numbers
    if parts and all(re.fullmatch(r"[A-Za-z][\w-]*", p) for p in parts):
        return [p.lower() for p in parts]
    raise ValueError


@dataclass
class OptionField:
    """One option's input: what it shows, the preset's value, whether it differs, its error."""

    option: Option
    kind: str
    choices: tuple[str, ...]
    value: str | bool
    preset_value: str | bool | None
    changed: bool = False
    error: str | None = None
    words: str = ""

    @property
    def name(self) -> str:
        return self.option.name

    @property
    def input_name(self) -> str:
        return f"opt-{self.option.name}"


class SheetEditor:
    """Every option of a sheet as form inputs, grouped as the catalogue groups them."""

    def __init__(self, preset_id: str | None, fields: list[OptionField], sheet: RuleSheet | None,
                 errors: list[str] | None = None) -> None:
        self.preset_id = preset_id
        self.fields = fields
        self.by_name = {f.name: f for f in fields}
        self.sheet = sheet
        self.errors = errors or []

    @property
    def ok(self) -> bool:
        return self.sheet is not None and not self.errors and not any(f.error for f in self.fields)

    @property
    def changed(self) -> list[OptionField]:
        return [f for f in self.fields if f.changed]

    def groups(self) -> list[tuple[str, str, list[OptionField], bool]]:
        """(group id, title, fields, whether any is changed or wrong) in reading order."""
        out = []
        for group, title, options in options_by_group():
            fields = [self.by_name[o.name] for o in options]
            out.append((group, title, fields, any(f.changed or f.error for f in fields)))
        return out

    def sheet_json(self) -> dict[str, Any]:
        assert self.sheet is not None
        return self.sheet.to_json()

    # -- building ------------------------------------------------------------------------

    @classmethod
    def from_sheet(cls, sheet: RuleSheet) -> SheetEditor:
        base = PRESETS[sheet.preset].sheet if sheet.preset in PRESETS else None
        fields = []
        for option in OPTIONS:
            kind, choices = KINDS[option.name]
            value = getattr(sheet, option.name)
            base_value = getattr(base, option.name) if base is not None else None
            fields.append(OptionField(
                option, kind, choices, display_value(option, value),
                display_value(option, base_value) if base is not None else None,
                changed=base is not None and value != base_value, words=sheet.describe(option.name)))
        return cls(sheet.preset, fields, sheet)

    @classmethod
    def for_preset(cls, preset_id: str) -> SheetEditor:
        return cls.from_sheet(PRESETS[preset_id].sheet)

    @classmethod
    def from_form(cls, form: Mapping[str, str], preset_id: str | None) -> SheetEditor:
        """Read every option's input; each one that cannot be read keeps a message naming it."""
        base = PRESETS[preset_id].sheet if preset_id in PRESETS else None
        fields: list[OptionField] = []
        data: dict[str, Any] = {"preset": preset_id} if base is not None else {}
        for option in OPTIONS:
            kind, choices = KINDS[option.name]
            key = f"opt-{option.name}"
            base_value = getattr(base, option.name) if base is not None else None
            shown_base = display_value(option, base_value) if base is not None else None
            raw: str | bool = (key in form) if kind == "bool" else str(form.get(key, "")).strip()
            f = OptionField(option, kind, choices, raw, shown_base)
            fields.append(f)
            try:
                value = _read_input(option, kind, raw)
                read = option.read(value, option.name, base_value)
            except SheetError as err:
                f.error = _option_message(option, err.field, err.reason)
                f.changed = base is not None and raw != shown_base
                continue
            if base is None or read != base_value:
                data[option.name] = value
                f.changed = base is not None
        if any(f.error for f in fields):
            return cls(preset_id, fields, None)
        try:
            sheet = load_sheet(data)
        except SheetError as err:
            name = _option_of(err.field)
            editor = cls(preset_id, fields, None)
            if name in editor.by_name:
                editor.by_name[name].error = _option_message(OPTION_BY_NAME[name], err.field, err.reason)
            else:
                editor.errors.append(f"{err.field}: {err.reason}" if err.field else err.reason)
            return editor
        for f in fields:
            f.words = sheet.describe(f.name)
        return cls(preset_id, fields, sheet)


OPTION_BY_NAME = {o.name: o for o in OPTIONS}


def _read_input(option: Option, kind: str, raw: str | bool) -> Any:
    """An input's text as the JSON value the catalogue reads."""
    if kind in ("bool", "choice"):
        return raw
    assert isinstance(raw, str)
    if kind in ("int", "optional_int"):
        if not raw:
            if kind == "optional_int":
                return None
            raise SheetError(option.name, "needs a number")
        if not re.fullmatch(r"[+-]?\d{1,9}", raw.replace(",", "").replace(" ", "")):
            raise SheetError(option.name, f"must be a whole number, not {raw!r}")
        return int(raw.replace(",", "").replace(" ", ""))
    if not raw:
        if option.name in _BLANK_JSON:
            return _BLANK_JSON[option.name]
        raise SheetError(option.name, "needs a value")
    try:
        return _lenient_json(raw)
    except ValueError:
        example = json.dumps(option.write(getattr(PRESETS["pagat"].sheet, option.name)))
        raise SheetError(option.name, f"cannot be read; write it as JSON, such as {example}") from None


def _option_of(field_path: str) -> str:
    """The option an error's field names: ``sheet.opening_bands[1].below`` -> ``opening_bands``."""
    path = field_path[len("sheet."):] if field_path.startswith("sheet.") else field_path
    return re.split(r"[.\[]", path, maxsplit=1)[0]


def _option_message(option: Option, field_path: str, reason: str) -> str:
    path = field_path[len("sheet."):] if field_path.startswith("sheet.") else field_path
    where = f" ({path})" if path and path != option.name else f" ({option.name})"
    return f"{option.label}{where}: {reason}"


# -- sides and players --------------------------------------------------------------------------


@dataclass
class SideRow:
    index: int
    name: str = ""
    players: list[str] = field(default_factory=lambda: [""] * MAX_PER_SIDE)
    error: str | None = None


class SidesForm:
    """Up to eight sides of up to four players each, in seat order; blank rows are ignored."""

    def __init__(self, rows: list[SideRow]) -> None:
        self.rows = rows
        self.error: str | None = None

    @classmethod
    def blank(cls) -> SidesForm:
        return cls([SideRow(i) for i in range(MAX_SIDES)])

    @classmethod
    def from_form(cls, form: Mapping[str, str]) -> SidesForm:
        """The rows posted. One side and one player past the bounds are read too, and kept when
        filled in, so a table too large is refused by the store naming the field, and shown
        again as typed rather than cut down to size."""
        rows = []
        for i in range(MAX_SIDES + 1):
            players = [_clean(form.get(f"side-{i}-p{j}", "")) for j in range(MAX_PER_SIDE + 1)]
            row = SideRow(i, _clean(form.get(f"side-{i}-name", "")), players if players[-1] else players[:-1])
            if i < MAX_SIDES or row.name or any(row.players):
                rows.append(row)
        return cls(rows)

    def more_open(self) -> bool:
        """Whether the rows past the second hold anything (their section then starts open)."""
        return any(r.name or any(r.players) or r.error for r in self.rows[2:])

    def used(self) -> list[SideRow]:
        return [r for r in self.rows if r.name or any(r.players)]

    def to_json(self) -> list[dict[str, Any]]:
        """The sides as the store takes them; a side without a name is named after its players."""
        out = []
        for row in self.used():
            players = [p for p in row.players if p]
            name = row.name or " & ".join(players)
            out.append({"name": name, "players": players})
        return out

    def game_name(self) -> str:
        names = [s["name"] for s in self.to_json() if s["name"]]
        text = " v ".join(names)
        return text if len(text) <= MAX_NAME else text[:MAX_NAME - 1] + "…"

    def place_error(self, field_path: str, message: str) -> None:
        """Put a store error on the row it names (``sides[1].players[0]``), else on the whole."""
        match = re.match(r"sides\[(\d+)\]", field_path)
        used = self.used()
        if match and int(match.group(1)) < len(used):
            used[int(match.group(1))].error = message
        else:
            self.error = message


def _clean(value: Any) -> str:
    """A typed name, spaces made one; one holding a character nobody types is kept as it
    is, for the store to refuse naming its field."""
    text = str(value or "").strip()
    return text if untyped(text) else " ".join(text.split())


# -- a deal -------------------------------------------------------------------------------------

# Where a problem shows: on the form as a whole, the ending, a side, a meld row or a player.
TOP = "top"


@dataclass
class MeldRow:
    index: int
    rank: str = ""
    naturals: str = ""
    twos: str = ""
    jokers: str = ""
    cards: str = ""
    problems: list[str] = field(default_factory=list)

    @property
    def blank(self) -> bool:
        return not (self.cards or any(_count_or_zero(v) for v in (self.naturals, self.twos, self.jokers)))


@dataclass
class PlayerBlock:
    side: int
    index: int
    name: str
    picked: bool = True
    counts: dict[str, str] = field(default_factory=dict)
    left: str = ""
    foot: str = ""
    cut: bool = False
    problems: dict[str, list[str]] = field(default_factory=dict)

    @property
    def key(self) -> str:
        return f"s{self.side}-p{self.index}"

    def problems_at(self, *keys: str) -> list[str]:
        return [m for k in keys for m in self.problems.get(k, [])]


@dataclass
class SideBlock:
    index: int
    name: str
    rows: list[MeldRow]
    players: list[PlayerBlock]
    red_threes: str = ""
    problems: dict[str, list[str]] = field(default_factory=dict)
    row_of_meld: list[int] = field(default_factory=list)  # canonical meld index -> row index

    def problems_at(self, *keys: str) -> list[str]:
        return [m for k in keys for m in self.problems.get(k, [])]


@dataclass
class CardGroup:
    """Cards left, grouped as the sheet values them: ``50 each: JK``."""

    title: str
    cards: tuple[str, ...]


def card_groups(sheet: RuleSheet) -> list[CardGroup]:
    """Kinds of card in groups of equal value (threes apart), highest first."""
    groups: dict[int, list[str]] = {}
    for card in (Card.JOKER, Card.TWO, *NATURALS):
        groups.setdefault(sheet.value(card), []).append(card.value)
    out = [CardGroup(f"{value} each", tuple(cards)) for value, cards in sorted(groups.items(), reverse=True)]
    out.append(CardGroup(f"Black threes, {sheet.value(Card.BLACK_THREE)} each", (Card.BLACK_THREE.value,)))
    penalty = sheet.red_three_penalty_hand
    out.append(CardGroup(f"Red threes, minus {penalty}" if penalty else "Red threes", (Card.RED_THREE.value,)))
    return out


CARD_LABELS = {"JK": "Jokers", "2": "2s", "3B": "Black 3s", "3R": "Red 3s", "A": "Aces", "K": "Kings",
               "Q": "Queens", "J": "Jacks"}


def card_label(code: str) -> str:
    return CARD_LABELS.get(code, f"{code}s")


def rows_per_side(sides: int) -> int:
    """Blank meld rows a side starts with: eight for two sides, fewer for more (the page stays
    small; "More meld rows" adds some, and with scripts on "Add a meld" does)."""
    return max(3, min(8, 18 // max(sides, 1)))


class DealForm:
    """A deal as typed on the phone: read into canonical JSON, problems placed by field."""

    def __init__(self, game_sides: list[dict[str, Any]], sheet: RuleSheet) -> None:
        self.sheet = sheet
        self.sides: list[SideBlock] = []
        for i, side in enumerate(game_sides):
            players = [PlayerBlock(i, j, name) for j, name in enumerate(side["players"])]
            self.sides.append(SideBlock(i, side["name"], [], players))
        self.ending = ""  # "stock", or "p{side}-{player}"
        self.top: list[str] = []
        self.ending_problems: list[str] = []
        self.warnings: list[str] = []
        self.violations = 0
        self.form_errors = 0

    # -- building ------------------------------------------------------------------------

    @classmethod
    def blank(cls, game_sides: list[dict[str, Any]], sheet: RuleSheet) -> DealForm:
        form = cls(game_sides, sheet)
        for side in form.sides:
            side.rows = [MeldRow(k) for k in range(rows_per_side(len(form.sides)))]
        return form

    @classmethod
    def from_deal(cls, game_sides: list[dict[str, Any]], sheet: RuleSheet, deal: dict[str, Any]) -> DealForm:
        """The form filled in from a recorded deal's canonical JSON."""
        form = cls(game_sides, sheet)
        by_name = {s["name"]: s for s in deal.get("sides", [])}
        for side in form.sides:
            data = by_name.get(side.name, {})
            side.rows = []
            for k, meld in enumerate(data.get("melds", [])):
                side.rows.append(MeldRow(k, meld.get("rank", ""), _shown(meld.get("naturals")),
                                         _shown(meld.get("twos")), _shown(meld.get("jokers"))))
                side.row_of_meld.append(k)
            extra = max(2, rows_per_side(len(form.sides)) - len(side.rows))
            side.rows += [MeldRow(len(side.rows) + k) for k in range(extra)]
            side.red_threes = _shown(data.get("red_threes"))
            players = {p["name"]: p for p in data.get("players", [])}
            for player in side.players:
                p = players.get(player.name, {})
                player.picked = bool(p.get("foot_picked_up", True))
                player.counts = {card: str(n) for card, n in Cards.from_json(p.get("cards_left")).to_json().items()}
                player.foot = str(Cards.from_json(p.get("foot")))
                player.cut = bool(p.get("cut_bonus"))
        if deal.get("ending") == "stock_out":
            form.ending = "stock"
        elif deal.get("went_out"):
            form.ending = form.player_key(deal["went_out"]) or ""
        return form

    @classmethod
    def from_form(cls, game_sides: list[dict[str, Any]], sheet: RuleSheet, data: Mapping[str, str],
                  more_rows: bool = False) -> DealForm:
        form = cls(game_sides, sheet)
        for side in form.sides:
            s = f"s{side.index}"
            count = _bounded(data.get(f"{s}-rows"), rows_per_side(len(form.sides)))
            if more_rows:
                count = max(count, min(count + 4, MAX_MELD_ROWS))
            side.rows = [MeldRow(k, _get(data, f"{s}-m{k}-rank"), _get(data, f"{s}-m{k}-naturals"),
                                 _get(data, f"{s}-m{k}-twos"), _get(data, f"{s}-m{k}-jokers"),
                                 _get(data, f"{s}-m{k}-cards"))
                         for k in range(count)]
            side.red_threes = _get(data, f"{s}-red_threes")
            for player in side.players:
                p = player.key
                player.picked = f"{p}-picked" in data
                player.counts = {c.value: _get(data, f"{p}-c-{c.value}") for c in CARDS
                                 if _get(data, f"{p}-c-{c.value}")}
                player.left = _get(data, f"{p}-left")
                player.foot = _get(data, f"{p}-foot")
                player.cut = f"{p}-cut" in data
        form.ending = _get(data, "ending")
        return form

    def player_key(self, name: str) -> str | None:
        for side in self.sides:
            for player in side.players:
                if player.name == name:
                    return player.key
        return None

    def ending_choices(self) -> list[tuple[str, str]]:
        choices = [(p.key, p.name) for side in self.sides for p in side.players]
        return choices + [("stock", "Nobody: the stock ran out")]

    # -- reading into canonical JSON ----------------------------------------------------------

    def to_json(self, number: int | None = None) -> dict[str, Any] | None:
        """The canonical deal (without a sheet), or None when some input cannot be read;
        each such input then carries its message."""
        sides = []
        for side in self.sides:
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
        deal: dict[str, Any] = {}
        if number is not None:
            deal["deal"] = number
        if self.ending == "stock":
            deal["ending"] = "stock_out"
        else:
            went = next((p.name for s in self.sides for p in s.players if p.key == self.ending), None)
            if went is None:
                self._error_list(self.ending_problems, "Say who went out, or that the stock ran out.")
            deal.update(ending="went_out", went_out=went)
        deal["sides"] = sides
        return None if self.form_errors else deal

    def _meld(self, row: MeldRow) -> dict[str, Any] | None:
        if row.blank:
            return None
        counts = {key: self._count(getattr(row, key), None, None, key, row) for key in ("naturals", "twos", "jokers")}
        if row.cards:
            if any(counts.values()):
                self._error_list(row.problems, "Give the cards or the counts, not both.")
                return None
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

    def _player(self, side: SideBlock, player: PlayerBlock) -> dict[str, Any]:
        counts: dict[str, int] = {}
        for card, text in player.counts.items():
            n = self._count(text, player.problems, "cards_left", f"{card_label(card)} left")
            if n:
                counts[card] = n
        cards_left: Any = counts
        if player.left:
            try:
                cards_left = (Cards.from_json(counts) + Cards.parse(player.left)).to_json()
            except ReadError as err:
                self._error(player.problems, "cards_left", f"Cards left: {err.reason}")
        out: dict[str, Any] = {"name": player.name, "foot_picked_up": player.picked, "cards_left": cards_left}
        if not player.picked and player.foot:
            out["foot"] = player.foot
        if player.cut:
            out["cut_bonus"] = True
        return out

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
        self.form_errors += 1

    def _error_list(self, problems: list[str], message: str) -> None:
        problems.append(message)
        self.form_errors += 1

    # -- placing the referee's problems -------------------------------------------------------

    def place(self, where: str, message: str) -> str:
        """Show a message next to the field ``where`` names; returns the anchor it went to."""
        parts = [a or b for a, b in re.findall(r"(\w+)|\[(\d+)\]", where or "")]
        if len(parts) >= 2 and parts[0] == "sides" and parts[1].isdigit() and int(parts[1]) < len(self.sides):
            side = self.sides[int(parts[1])]
            rest = parts[2:]
            if rest[:1] == ["melds"] and len(rest) >= 2 and rest[1].isdigit():
                k = int(rest[1])
                if k < len(side.row_of_meld):
                    row = side.rows[side.row_of_meld[k]]
                    row.problems.append(message)
                    return f"s{side.index}-m{row.index}"
            if rest[:1] == ["players"] and len(rest) >= 2 and rest[1].isdigit() and int(rest[1]) < len(side.players):
                player = side.players[int(rest[1])]
                key = rest[2] if len(rest) > 2 else ""
                key = {"foot_picked_up": "picked", "cut_bonus": "cut"}.get(key, key)
                if key not in ("picked", "cut", "cards_left", "foot"):
                    key = ""
                player.problems.setdefault(key, []).append(message)
                return player.key
            key = rest[0] if rest and rest[0] in ("melds", "red_threes") else ""
            side.problems.setdefault(key, []).append(message)
            return f"s{side.index}"
        if parts[:1] in (["went_out"], ["ending"]):
            self.ending_problems.append(message)
            return "ending"
        self.top.append(message)
        return TOP

    def place_problems(self, problems: Iterable[Problem]) -> list[tuple[str, str]]:
        """Place every violation; returns (anchor, message) for the summary."""
        out = []
        for problem in problems:
            self.violations += 1
            out.append((self.place(problem.where, problem.message), problem.message))
        return out


def _get(data: Mapping[str, str], key: str) -> str:
    """An input's text. Cut to a bound longer than any input may be (a card string's
    :data:`~scorepad.rules.limits.MAX_CARD_STRING`), so an over-long input is still refused
    by its reader, inline, and never silently shortened into something else."""
    return str(data.get(key, "")).strip()[:MAX_INPUT]


def _shown(value: Any) -> str:
    return str(value) if value else ""


def _bounded(value: Any, default: int) -> int:
    try:
        n = int(str(value))
    except (TypeError, ValueError):
        return default
    # As many rows as the page can have shown: a deal's melds (at most MAX_MELDS, however it
    # was recorded) and two blank rows; "More meld rows" adds rows up to the same bound.
    return max(1, min(n, MAX_MELD_ROWS))


def _count_or_zero(text: str) -> bool:
    """True when a count box holds anything but blank or zero."""
    return bool(text.strip()) and text.strip() not in ("0", "-0")
