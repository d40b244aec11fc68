"""The results PDF of a game whose deals were entered part by part (issue 24), read back from
real PDFs as tests/paper/test_pdf.py does: under each deal written from its parts, one line
saying which phone entered each side (and the ending) and which phone confirmed it; nothing
more for a deal one phone entered whole. The PDF is still built once per revision and kept.

``valid_deal`` scores Ann 1,060 and Bea 5.
"""

from __future__ import annotations

from scorepad.storage import cache
from tests.api.test_open_deals import ANN, ANN_OUT, BEA, DAN, EVE, confirm, put
from tests.helpers import api_game, bearer, valid_deal
from tests.paper.test_pdf import API, get_pdf, page_count, text_of

ANN_BEA = [{"name": "Ann", "players": ["Ann"]}, {"name": "Bea", "players": ["Bea"]}]


def confirmed_game(client) -> tuple[str, str]:
    """A game whose opponents confirm each other's part, with deal 1 entered by Dan's phone
    (Ann and the ending) and Eve's (Bea), each side's part confirmed by the other phone."""
    made = client.post(f"{API}/games", json={"name": "Porch", "sheet": "common", "confirm": "opponents",
                                            "sides": ANN_BEA})
    game_id, key = made.get_json()["id"], made.get_json()["edit_key"]
    put(client, game_id, key, 1, ANN, DAN)
    put(client, game_id, key, 2, BEA, EVE)
    put(client, game_id, key, "ending", ANN_OUT, DAN)
    confirm(client, game_id, key, 1, 2, 1, EVE)
    assert confirm(client, game_id, key, 2, 1, 1, DAN).status_code == 201
    return game_id, key


def test_a_deal_entered_part_by_part_prints_who_entered_and_who_confirmed_each_side(client):
    game_id, _ = confirmed_game(client)
    text = text_of(get_pdf(client, f"/games/{game_id}/results.pdf"))
    assert ("Deal 1: Ann went out Ann: entered by Dan's phone, confirmed by Eve's phone; "
            "Bea: entered by Eve's phone, confirmed by Dan's phone; Ending: entered by Dan's phone.") in text


def test_parts_entered_without_confirmation_name_only_the_phones(client):
    game_id, key = api_game(client)
    put(client, game_id, key, 1, ANN, DAN)
    put(client, game_id, key, "ending", ANN_OUT, EVE)
    assert put(client, game_id, key, 2, BEA, EVE).status_code == 201
    text = text_of(get_pdf(client, f"/games/{game_id}/results.pdf"))
    assert ("Ann: entered by Dan's phone; Bea: entered by Eve's phone; Ending: entered by Eve's phone.") in text
    assert "confirmed by" not in text


def test_a_deal_one_phone_entered_prints_nothing_about_phones(client):
    game_id, key = api_game(client, deals=[valid_deal(1)])  # sent whole
    for part, body in ((1, ANN), (2, BEA), ("ending", {**ANN_OUT, "repeat": True})):  # every part by one phone
        put(client, game_id, key, part, body, DAN, number=2)
    assert client.get(f"{API}/games/{game_id}/revision").get_json()["revision"] == 2
    text = text_of(get_pdf(client, f"/games/{game_id}/results.pdf"))
    assert "Deal 2: Ann went out" in text and "entered by" not in text


def test_a_deal_corrected_whole_after_its_parts_no_longer_names_their_phones(client):
    game_id, key = confirmed_game(client)
    assert "entered by" in text_of(get_pdf(client, f"/games/{game_id}/results.pdf"))
    recount = valid_deal(1)
    recount["sides"][1]["red_threes"] = 1
    corrected = client.put(f"{API}/games/{game_id}/deals/1", json=recount, headers=bearer(key))
    assert corrected.status_code == 200, corrected.get_data(as_text=True)
    assert "entered by" not in text_of(get_pdf(client, f"/games/{game_id}/results.pdf"))


def test_four_deals_entered_part_by_part_still_print_on_as_few_pages(client):
    by_parts, whole = api_game(client), api_game(client, deals=[valid_deal(n) for n in range(1, 5)])
    game_id, key = by_parts
    for number in range(1, 5):
        put(client, game_id, key, 1, ANN, DAN, number)
        put(client, game_id, key, "ending", {**ANN_OUT, "repeat": True}, DAN, number)
        assert put(client, game_id, key, 2, BEA, EVE, number).status_code == 201
    printed = [get_pdf(client, f"/games/{g}/results.pdf") for g, _ in (by_parts, whole)]
    assert text_of(printed[0]).count("entered by Dan's phone") == 8
    assert page_count(printed[0]) == page_count(printed[1])


def test_the_results_of_a_game_entered_part_by_part_are_built_once_per_revision(client):
    game_id, key = confirmed_game(client)

    def kept() -> list[bytes]:
        with client.application.app_context():
            return [v.body for v in cache.current().values() if hasattr(v, "body")]
    first = get_pdf(client, f"/games/{game_id}/results.pdf")
    assert get_pdf(client, f"/games/{game_id}/results.pdf") == first and len(kept()) == 1
    put(client, game_id, key, 1, ANN, DAN, number=2)  # an open part moves no revision: the same PDF
    assert get_pdf(client, f"/games/{game_id}/results.pdf") == first and len(kept()) == 1
    client.delete(f"{API}/games/{game_id}/deals/2/open", headers=bearer(key))
    saved = client.post(f"{API}/games/{game_id}/deals", json={**valid_deal(2), "repeat": True}, headers=bearer(key))
    assert saved.status_code == 201, saved.get_data(as_text=True)
    assert "Deal 2" in text_of(get_pdf(client, f"/games/{game_id}/results.pdf")) and len(kept()) == 2
