"""Issue 24's share box, through Flask's test client: the view link and its QR code sit near
the top of the game page, before the next deal and the score, for whoever holds the page;
a watcher (the view link's page) can share the view link too, and never sees the edit link;
the watchers' page, kept in the cache without a host, is sent with its view link filled in, so each host's page links to
itself."""

from __future__ import annotations

from tests.helpers import api_game, grant, valid_deal


def share_box(page: str) -> str:
    start = page.index('<details class="share"')
    return page[start:page.index("</details>\n", page.index('id="share-title"')) + 10]


def test_the_share_box_comes_before_the_next_deal_and_the_score(client):
    game, key = api_game(client)
    grant(client, game, key)
    page = client.get(f"/games/{game}").get_data(as_text=True)
    share = page.index('<details class="share"')
    assert share < page.index('id="next-title"') < page.index('id="score-title"')
    assert page.index("<h1>") < share


def test_a_watcher_shares_the_view_link_and_its_qr_code_never_the_edit_link(app, client):
    game, key = api_game(client)
    watcher = app.test_client()
    response = watcher.get(f"/games/{game}")
    page = response.get_data(as_text=True)
    box = share_box(page)
    assert f"http://localhost/games/{game}</a>" in box
    assert 'alt="QR code: the view link"' in box
    assert key not in page and "QR code: the edit link" not in page and 'id="edit-link"' not in page
    assert response.headers["Cache-Control"] == "no-cache"  # still the cached, revalidated page


def test_the_owner_s_share_box_holds_both_links(client):
    game, key = api_game(client)
    grant(client, game, key)
    box = share_box(client.get(f"/games/{game}").get_data(as_text=True))
    assert 'alt="QR code: the view link"' in box and 'aria-label="QR code: the edit link"' in box
    assert f"/games/{game}/edit/{key}" in box


def test_the_share_box_is_open_until_the_first_deal_then_a_tap_away(app, client):
    game, key = api_game(client)
    watcher = app.test_client()
    assert share_box(watcher.get(f"/games/{game}").get_data(as_text=True)).startswith(
        '<details class="share" id="share" open>')
    api_game_deal = client.post(f"/api/v1/games/{game}/deals", json=valid_deal(1),
                                headers={"Authorization": f"Bearer {key}"})
    assert api_game_deal.status_code == 201, api_game_deal.get_data(as_text=True)
    assert share_box(watcher.get(f"/games/{game}").get_data(as_text=True)).startswith(
        '<details class="share" id="share">')


def test_the_watchers_cached_page_links_to_the_host_it_was_asked_from(app, client):
    game, _ = api_game(client)
    first = app.test_client().get(f"/games/{game}", base_url="http://table-a.example").get_data(as_text=True)
    second = app.test_client().get(f"/games/{game}", base_url="http://table-b.example").get_data(as_text=True)
    assert f"http://table-a.example/games/{game}</a>" in share_box(first)
    assert f"http://table-b.example/games/{game}</a>" in share_box(second)
