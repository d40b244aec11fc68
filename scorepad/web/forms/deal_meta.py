"""The small forms around a deal: its revision, idempotency key and as-played reason
(:class:`DealMetaForm`), and the confirmation of a delete or of replacing the edit link."""

from __future__ import annotations

from wtforms import HiddenField, StringField
from wtforms.validators import Optional, Regexp

from ...rules.limits import MAX_IDEMPOTENCY_KEY
from . import FlaskForm, PlainText


class DealMetaForm(FlaskForm):
    """The CSRF token, the game's revision, the form's idempotency key (a save sent twice is
    made once), the number of the new deal the form was opened for (a save is never moved to
    another), whether the table confirmed a deal the same as the one before it, and the
    as-played reason of a deal form."""

    revision = HiddenField()
    idempotency_key = HiddenField()
    deal_number = HiddenField()
    repeat = HiddenField()
    reason = StringField("Reason", [PlainText(multiline=True)])


class ConfirmForm(FlaskForm):
    revision = HiddenField()


class ReplaceLinkForm(ConfirmForm):
    """The confirmation of "Replace the edit link", with its idempotency key (1 to
    :data:`MAX_IDEMPOTENCY_KEY` printable ASCII characters, as the API's): sent again after
    its answer was lost, the form replaces the link once."""

    idempotency_key = HiddenField(validators=[Optional(), Regexp(f"^[ -~]{{1,{MAX_IDEMPOTENCY_KEY}}}$")])
