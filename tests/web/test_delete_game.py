"""Deleting a game from its page (issue 21, item 7): only an editor is offered it, a page
asks first (never one tap), the deletion is based on the revision that page showed, and
every page of the game then answers 410 saying it was deleted and when."""

from __future__ import annotations

from tests.helpers import api_game, form_fields, grant, text_of, valid_deal


def test_only_an_editor_is_offered_delete_and_a_page_asks_before_anything_is_deleted(client, viewer):
    game_id, key = api_game(client, deals=[valid_deal(1)])
    assert "Delete this game" not in viewer.get(f"/games/{game_id}").get_data(as_text=True)
    assert viewer.get(f"/games/{game_id}/delete").status_code == 403
    grant(client, game_id, key)
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert f'href="/games/{game_id}/delete"' in page and "Delete this game" in page  # a link, not a form

    asked = client.get(f"/games/{game_id}/delete")
    assert asked.status_code == 200
    words = text_of(asked.get_data(as_text=True))
    assert "Delete “Friday”?" in words and "1 deal, their history" in words and "export it (JSON)" in words
    fields = form_fields(asked.get_data(as_text=True), f"/games/{game_id}/delete")
    assert fields["revision"] == "1"
    assert client.get(f"/api/v1/games/{game_id}").status_code == 200  # asking deleted nothing


def test_confirming_deletes_the_game_and_its_pages_then_answer_410_saying_when(client, viewer):
    game_id, key = api_game(client, deals=[valid_deal(1)])
    assert viewer.get(f"/games/{game_id}").status_code == 200  # the viewer's page, now cached
    grant(client, game_id, key)
    fields = form_fields(client.get(f"/games/{game_id}/delete").get_data(as_text=True), f"/games/{game_id}/delete")
    done = client.post(f"/games/{game_id}/delete", data=fields)
    assert done.status_code == 303 and done.headers["Location"] == "/"
    home = text_of(client.get("/").get_data(as_text=True))
    assert "“Friday” was deleted, with its 1 deal and their history." in home

    for browser in (viewer, client):
        for path in (f"/games/{game_id}", f"/games/{game_id}/deals/1", f"/games/{game_id}/history",
                     f"/games/{game_id}/deals/new", f"/games/{game_id}/sheet", f"/games/{game_id}/export.json",
                     f"/games/{game_id}/scores.csv", f"/games/{game_id}/sheet.pdf", f"/games/{game_id}/referee",
                     f"/games/{game_id}/edit/{key}"):
            answer = browser.get(path)
            assert answer.status_code == 410, (path, answer.status_code)
            words = text_of(answer.get_data(as_text=True))
            assert "This game was deleted by its editor on 20" in words and "UTC" in words, (path, words[:300])
    assert client.get("/games/NeverMadeAnyGameAtAll0").status_code == 404


def test_a_deletion_from_a_page_opened_before_another_phone_wrote_is_refused(client):
    game_id, key = api_game(client)
    grant(client, game_id, key)
    fields = form_fields(client.get(f"/games/{game_id}/delete").get_data(as_text=True), f"/games/{game_id}/delete")
    other = client.application.test_client()
    grant(other, game_id, key)
    assert other.post(f"/api/v1/games/{game_id}/deals", json=valid_deal(1),
                      headers={"Authorization": f"Bearer {key}"}).status_code == 201
    refused = client.post(f"/games/{game_id}/delete", data=fields, follow_redirects=True)
    assert refused.status_code == 200
    words = text_of(refused.get_data(as_text=True))
    assert "Not deleted: the game changed since you loaded it. Deal 1 was recorded" in words
    assert client.get(f"/api/v1/games/{game_id}").status_code == 200


def test_a_deal_saved_on_a_form_opened_before_the_game_was_deleted_is_told_so(client):
    game_id, key = api_game(client)
    grant(client, game_id, key)
    form = client.get(f"/games/{game_id}/deals/new").get_data(as_text=True)
    fields = form_fields(form, f"/games/{game_id}/deals/new")
    assert client.delete(f"/api/v1/games/{game_id}", headers={"Authorization": f"Bearer {key}"}).status_code == 200
    answer = client.post(f"/games/{game_id}/deals/new", data=fields)
    assert answer.status_code == 410
    assert "This game was deleted by its editor" in text_of(answer.get_data(as_text=True))


def test_two_phones_confirming_the_deletion_the_second_is_told_it_is_deleted_never_a_500(client):
    """Both phones had the asking page open: the first deletes; the second's confirmation finds
    no game (before it reads the game, or, in the moment between, in the store): the 410 page."""
    game_id, key = api_game(client, deals=[valid_deal(1)])
    other = client.application.test_client()
    for phone in (client, other):
        grant(phone, game_id, key)
    forms = [form_fields(phone.get(f"/games/{game_id}/delete").get_data(as_text=True), f"/games/{game_id}/delete")
             for phone in (client, other)]
    assert client.post(f"/games/{game_id}/delete", data=forms[0]).status_code == 303
    second = other.post(f"/games/{game_id}/delete", data=forms[1])
    assert second.status_code == 410
    assert "This game was deleted by its editor on 20" in text_of(second.get_data(as_text=True))
