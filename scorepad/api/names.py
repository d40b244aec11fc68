"""One meaning per name: ``deal`` is a deal (an object), and a deal's number is ``number``, as
it is in a recorded deal, a history entry and ``next_deal``.

A request may still give the number under ``deal``, its old spelling: in a deal document
(read by :meth:`scorepad.rules.Deal.from_json`, which takes either) and in a referee question,
whose reader takes ``deal``, so :func:`read_number` hands it over there. Each object of an
answer that names a deal by its number carries ``number`` beside ``deal`` (:func:`numbered`),
the old name marked deprecated in the description. A deal document in an answer keeps its
canonical form, its number under ``deal`` alone: it is sent back as it is (to correct the
deal, in an import), and two keys for one value would let a client change one of them.
"""

from __future__ import annotations

from ..rules.limits import MAX_DEALS
from ..rules.read import JSON
from .http import ApiError


def read_number(data: dict[str, JSON]) -> dict[str, JSON]:
    """A referee question's ``data`` with its deal's ``number`` moved under ``deal``, where the question reads it; a
    400 naming ``number`` when it is not a deal number, or differs from the ``deal`` sent beside it."""
    if "number" not in data:
        return data
    number = data["number"]
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= MAX_DEALS:
        raise ApiError(400, "number", f"must be a deal's number, a whole number from 1 to {MAX_DEALS}, "
                       f"not {number!r:.40}")
    if "deal" in data and data["deal"] != number:
        raise ApiError(400, "number", f"is {number}, but deal (its old spelling) is {data['deal']!r:.40}: "
                       "send number alone")
    return {**{key: value for key, value in data.items() if key != "number"}, "deal": number}


def numbered(item: dict[str, JSON]) -> dict[str, JSON]:
    """An answer's object that names a deal by its number under ``deal`` (a change, a running total):
    the number as ``number`` too, ``deal`` kept (deprecated)."""
    return {**item, "number": item["deal"]}
