"""The one exception the rules core raises: input it cannot read.

Rule violations are never exceptions; they are :class:`~scorepad.rules.problems.Problem`
values. :class:`ReadError` is only for input that cannot be understood at all (a count
that is not a whole number, an unknown card, a sheet option with an impossible value),
and it always names the field at fault, as a dotted path.
"""

from __future__ import annotations


class ReadError(ValueError):
    """Input that cannot be read: ``field`` names where, ``reason`` says what is wrong.

    >>> err = ReadError("sides[0].melds[1].naturals", "must be a whole number")
    >>> str(err)
    'sides[0].melds[1].naturals: must be a whole number'
    >>> err.field
    'sides[0].melds[1].naturals'
    """

    def __init__(self, field: str, reason: str) -> None:
        self.field = field
        self.reason = reason
        super().__init__(f"{field}: {reason}" if field else reason)

    def within(self, prefix: str) -> ReadError:
        """The same error, its field placed under ``prefix``."""
        if not prefix:
            return self
        if not self.field:
            field = prefix
        elif self.field.startswith("["):
            field = prefix + self.field
        else:
            field = f"{prefix}.{self.field}"
        return type(self)(field, self.reason)


class SheetError(ReadError):
    """A rule sheet that cannot be built: an unknown preset, option or impossible value."""
