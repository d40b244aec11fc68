"""Text a person typed: names, reasons and card strings hold no character nobody types.

Every text field is checked here, once, by :func:`check_text`, whichever way it came in (the
API, a form, an import, the command line). ImportRefused are lone UTF-16 surrogates (Unicode
category ``Cs``: they cannot be written as UTF-8, so no page showing one could be sent) and
control characters (``Cc``, NUL included: some databases cannot store NUL, and a name never
needs one). A multi-line field (a reason) may hold line feeds (``\\n``) and nothing else of
``Cc``; tabs and carriage returns are refused there too.
"""

from __future__ import annotations

import re
from typing import Any

from .errors import ReadError

# Exactly the code points of categories Cc (U+0000-U+001F, U+007F-U+009F) and Cs
# (U+D800-U+DFFF); tests compare this with unicodedata over every code point.
_UNTYPED = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
_UNTYPED_MULTILINE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def untyped(text: str, multiline: bool = False) -> str | None:
    """The first character of ``text`` that nobody types, or None when there is none.

    >>> untyped("Ann"), untyped("A\\udc00"), untyped("a\\nb"), untyped("a\\nb", multiline=True)
    (None, '\\udc00', '\\n', None)
    """
    found = (_UNTYPED_MULTILINE if multiline else _UNTYPED).search(text)
    return found.group() if found else None


def check_text(text: str, field: str, multiline: bool = False) -> str:
    """``text`` itself, or :class:`ReadError` naming ``field`` when it holds a character
    nobody types (see the module's docstring).

    >>> check_text("Ann", "name")
    'Ann'
    >>> check_text("A\\x00", "sides[0].name")
    Traceback (most recent call last):
    ...
    scorepad.rules.errors.ReadError: sides[0].name: holds U+0000, a control character; type it again without it
    """
    ch = untyped(text, multiline)
    if ch is not None:
        kind = "a lone surrogate, which is not text" if 0xD800 <= ord(ch) <= 0xDFFF else "a control character"
        raise ReadError(field, f"holds U+{ord(ch):04X}, {kind}; type it again without it")
    return text


def read_name(value: object, field: str, most: int) -> str:
    """A name: some text of at most ``most`` characters, runs of spaces made one.

    Spaces, tabs and line breaks at either end are dropped before the check; inside a name
    every character must be one a person types.

    >>> read_name("  Ann   Lee ", "name", 40)
    'Ann Lee'
    """
    if not isinstance(value, str) or not value.strip():
        raise ReadError(field, "must be a name (some text)")
    name = " ".join(check_text(value.strip(), field).split())
    if len(name) > most:
        raise ReadError(field, f"must be at most {most} characters")
    return name


def read_reason(value: object, field: str, most: int, ask: str = "must be the reason, some text") -> str:
    """A reason: some text of at most ``most`` characters, over several lines if need be.

    >>> read_reason(" we agreed\\nto let it stand ", "as_played.reason", 200)
    'we agreed\\nto let it stand'
    """
    if not isinstance(value, str) or not value.strip():
        raise ReadError(field, ask)
    if len(value) > most:
        raise ReadError(field, f"must be at most {most} characters")
    return check_text(value.strip(), field, multiline=True)


def readable(value: Any, multiline: bool = False) -> Any:  # Any: gives back the shape it is given
    """``value`` (text, or JSON lists and objects of it) with every character nobody types
    replaced by U+FFFD: how text stored before it was checked is read back, so the game
    still loads, shows and exports, and its names still match one another.

    >>> readable({"name": "A\\udc00", "players": ["B\\x00"]})
    {'name': 'A�', 'players': ['B�']}
    """
    if isinstance(value, str):
        return _readable_text(value, multiline)
    if isinstance(value, list):
        return [readable(item, multiline) for item in value]
    if isinstance(value, dict):
        return {_readable_text(key, multiline): readable(item, multiline) for key, item in value.items()}
    return value



def _readable_text(text: str, multiline: bool) -> str:
    return (_UNTYPED_MULTILINE if multiline else _UNTYPED).sub("\ufffd", text)


__all__ = ["check_text", "read_name", "read_reason", "readable", "untyped"]
