"""The parts of an open deal (a deal being entered part by part, :mod:`.open_deals`), as
values: a side's part is the rules core's :class:`~scorepad.rules.deal.Side`; the ending is an
:class:`EndingPart`; each part as kept, with the phone that entered it and its version, is an
:class:`OpenPart`. Read at the door from JSON (:func:`read_side_part`, :func:`read_ending_part`,
:func:`read_phone`), each refusal :class:`.errors.Invalid` naming the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..rules import Deal, ReadError, RuleSheet
from ..rules.choices import LastCard
from ..rules.deal import Ending, Permission, Side
from ..rules.limits import MAX_PHONE, MAX_REASON
from ..rules.read import JSON, only
from ..rules.text import read_name, read_reason

ENDING = "ending"
"""The name of the ending's part; a side's part is named by its 1-based position ("1", "2", ...)."""

ENDING_FIELDS = ("ending", "went_out", "last_card", "permission", "first_meld")


@dataclass(frozen=True)
class EndingPart:
    """How the deal ended (who went out, or the stock ran out, and how), with what the table
    says of the whole deal: ``as_played``, the reason to save it despite violations, and
    ``repeat``, that the table played the same deal as the one before again."""

    ending: Ending
    went_out: str | None = None
    last_card: LastCard | None = None
    permission: Permission | None = None
    first_meld: str | None = None
    as_played: str | None = None
    repeat: bool = False

    def to_json(self) -> dict[str, JSON]:
        """The canonical JSON form (as kept, and as the API shows it)."""
        out: dict[str, JSON] = {"ending": self.ending.value}
        for key, value in (("went_out", self.went_out), ("last_card", self.last_card and self.last_card.value),
                           ("permission", self.permission and self.permission.value),
                           ("first_meld", self.first_meld)):
            if value is not None:
                out[key] = value
        if self.as_played is not None:
            out["as_played"] = {"reason": self.as_played}
        if self.repeat:
            out["repeat"] = True
        return out

    def deal(self, sheet: RuleSheet, number: int, sides: tuple[Side, ...]) -> Deal:
        """The whole deal: these sides (in the game's order), ended so."""
        return Deal(sheet, number, self.ending, sides, self.went_out, self.last_card, self.permission,
                    self.first_meld)


@dataclass(frozen=True)
class OpenPart:
    """One part of an open deal as kept: ``part`` its name (a side's position, or
    :data:`ENDING`), ``side`` or ``ending`` its value, the ``phone`` that entered it last and
    when (``entered_at``), its ``version`` (1, then 1 more each time it changed), and who
    confirmed it at this version (``confirmed_by``, ``confirmed_at``; None until then)."""

    part: str
    side: Side | None
    ending: EndingPart | None
    phone: str
    entered_at: str
    version: int
    confirmed_by: str | None = None
    confirmed_at: str | None = None

    @property
    def position(self) -> int | None:
        """The side's 1-based position, or None for the ending."""
        return None if self.part == ENDING else int(self.part)

    def body(self) -> dict[str, JSON]:
        """The part as JSON: the side object, or the ending."""
        if self.side is not None:
            return self.side.to_json()
        assert self.ending is not None
        return self.ending.to_json()


def read_side_part(data: object, name: str) -> Side:
    """A side's part: the deal's side object for the side called ``name`` (its ``name`` may be
    left out; another name is refused)."""
    if isinstance(data, Mapping) and "name" not in data:
        data = {**data, "name": name}
    side = Side.from_json(data)
    if side.name.casefold() != name.casefold():
        raise ReadError("name", f"this part is {name}'s, not {side.name!r}")
    return side


def read_ending_part(data: object, sheet: RuleSheet) -> EndingPart:
    """The ending's part: ``ending`` (``went_out`` or ``stock_out``), ``went_out``,
    ``last_card``, ``permission``, ``first_meld`` as a whole deal gives them, and optionally
    ``as_played`` (``{"reason": ...}``) and ``repeat`` (true or false)."""
    if not isinstance(data, Mapping):
        raise ReadError("", 'the ending must be an object such as {"ending": "went_out", "went_out": "Ann"}')
    only(data, (*ENDING_FIELDS, "as_played", "repeat"), "")
    read = Deal.from_json({**{k: data[k] for k in ENDING_FIELDS if k in data}, "sides": []}, sheet, 1)
    reason = data.get("as_played")
    if reason is not None:
        if not isinstance(reason, Mapping) or set(reason) != {"reason"}:
            raise ReadError("as_played", 'must be an object such as {"reason": "we agreed to let it stand"}')
        reason = read_reason(reason["reason"], "as_played.reason", MAX_REASON, "say briefly why the deal stands "
                             "as played")
    repeat = data.get("repeat", False)
    if not isinstance(repeat, bool):
        raise ReadError("repeat", "must be true (the table played the same deal again) or false")
    return EndingPart(read.ending, read.went_out, read.last_card, read.permission, read.first_meld, reason, repeat)


def read_phone(value: object) -> str:
    """A phone's label ("Dan's phone"): whose phone entered a part. A label, not a permission."""
    if value is None or value == "":
        raise ReadError("phone", "say whose phone this is (a label such as \"Dan's phone\")")
    return read_name(value, "phone", MAX_PHONE)
