"""The new-game page's "Opponents confirm each side's score" (issue 24 §2): ticked, the game's
``confirm`` is ``opponents`` (a side's part of a deal entered part by part counts once a phone
of another side confirms it); left alone, ``none``."""

from __future__ import annotations

import pytest

from scorepad.rules.choices import Confirm
from scorepad.storage import reading
from tests.helpers import form_fields


def made(app, client, **extra: str) -> Confirm:
    form = form_fields(client.get("/new").get_data(as_text=True), "/new")
    form.pop("confirm", None)  # an unticked box is not sent
    response = client.post("/new", data={**form, "name": "Porch", "side-0-p0": "Ann", "side-1-p0": "Bea", **extra})
    assert response.status_code == 303, response.get_data(as_text=True)[:500]
    with app.app_context():
        return reading.load_game(response.headers["Location"].rsplit("/", 1)[-1]).confirm


def test_the_new_game_page_offers_the_box_unticked(client):
    page = client.get("/new").get_data(as_text=True)
    assert "Opponents confirm each side&#39;s score" in page or "Opponents confirm each side's score" in page
    assert 'type="checkbox"' in page and 'name="confirm"' in page


@pytest.mark.parametrize(("extra", "confirm"), [({}, Confirm.NONE), ({"confirm": "y"}, Confirm.OPPONENTS)])
def test_ticking_it_makes_a_game_whose_opponents_confirm(app, client, extra, confirm):
    assert made(app, client, **extra) is confirm
