"""The web forms: what a player types, read into the JSON the store takes, and back.

Flask-WTF forms carry the CSRF token and the few fixed fields (a game's name, its preset, a
reason). The parts whose shape depends on the game are read by hand, one module each:

- :mod:`.sheet_editor`: every option of the rule sheet, as controls laid out from its schema (and
  the amend form);
- :mod:`.sides`: up to eight sides of up to four players (and the new-game form);
- :mod:`.deal`: a deal as the table records it on a phone, and the referee's problems placed
  back next to the field each one concerns (and the deal's revision, reason and delete forms).

Here: what they share, a validator for typed text and the presets to start from.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from wtforms import Field
from wtforms.validators import ValidationError

if TYPE_CHECKING:
    # flask_wtf ships no types: mypy reads its form and its file field as the wtforms classes
    # they extend (typed by types-WTForms), which is all of them the forms use.
    from wtforms import FileField
    from wtforms import Form as FlaskForm
else:
    from flask_wtf import FlaskForm
    from flask_wtf.file import FileField

__all__ = ["FileField", "FlaskForm", "PlainText", "preset_choices"]

from ...rules import PRESETS, ReadError
from ...rules.text import check_text


def preset_choices() -> list[tuple[str, str]]:
    """Every preset as (id, title), for a sheet chooser."""
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

