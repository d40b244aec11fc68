"""The view link's QR code as an image of its own (issue 25): the game page shows it as an
``<img>`` (with alt text) whose address names the link it encodes (``?link=``, a digest), so
a phone keeps it for ever and the server draws it once per game and link, not once per
page. The image is the view link of the request's own link base, as the page's link is;
asked under another link's digest (or none) it is revalidated instead of kept; an unknown
game is a 404, a deleted one a 410, as the game's page."""

from __future__ import annotations

import re

from scorepad.web.common import link_tag, qr, qr_image
from tests.helpers import api_game, grant

FOR_EVER = "public, max-age=31536000, immutable"
IMG = re.compile(r'<img class="qr" src="([^"]+)" alt="QR code: the view link" width="192" height="192">')


def view_qr_src(page: str) -> str:
    """The address of the view link's QR code image on a game page (there is exactly one)."""
    found = IMG.findall(page)
    assert len(found) == 1, found
    return found[0].replace("&amp;", "&")


def view_qr_of(client, page: str, headers: dict[str, str] | None = None) -> bytes:
    """The view link's QR code image a game page shows, fetched as its phone would."""
    response = client.get(view_qr_src(page), headers=headers or {})
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    return response.data


def test_a_watcher_s_page_shows_the_view_link_s_qr_code_as_an_image_kept_for_ever(app, client):
    game, _ = api_game(client)
    watcher = app.test_client()
    page = watcher.get(f"/games/{game}").get_data(as_text=True)
    src = view_qr_src(page)
    view = f"http://localhost/games/{game}"
    assert src == f"/games/{game}/view-link.svg?link={link_tag(view)}"
    response = watcher.get(src)
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("image/svg+xml")
    assert response.headers["Cache-Control"] == FOR_EVER
    assert response.headers["ETag"] == f'"{link_tag(view)}"'
    assert response.data == qr_image(view, "the view link")
    assert response.data.startswith(b'<svg xmlns="http://www.w3.org/2000/svg"')
    assert b"<title>QR code: the view link</title>" in response.data
    assert "Set-Cookie" not in response.headers
    again = watcher.get(src, headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""


def test_the_editor_s_page_shows_the_same_image_and_the_edit_link_s_code_inline(app, client):
    game, key = api_game(client)
    grant(client, game, key)
    page = client.get(f"/games/{game}").get_data(as_text=True)
    assert view_qr_of(client, page) == qr_image(f"http://localhost/games/{game}", "the view link")
    with app.test_request_context():
        edit_code = str(qr(f"http://localhost/games/{game}/edit/{key}", "the edit link"))
    assert page.count('<svg role="img" aria-label="QR code: the edit link"') == 1 and edit_code in page
    assert edit_code in client.get(f"/games/{game}").get_data(as_text=True)  # kept: the same code again


def test_each_host_s_page_names_its_own_link_and_gets_its_own_code(app, client):
    game, _ = api_game(client)
    watcher = app.test_client()
    for host in ("club.example", "192.168.1.20:8000"):
        page = watcher.get(f"/games/{game}", headers={"Host": host}).get_data(as_text=True)
        view = f"http://{host}/games/{game}"
        assert view_qr_src(page).endswith(f"?link={link_tag(view)}")
        assert view_qr_of(watcher, page, {"Host": host}) == qr_image(view, "the view link")


def test_asked_under_another_link_s_digest_or_none_the_image_is_revalidated_not_kept(client):
    game, _ = api_game(client)
    view = f"http://localhost/games/{game}"
    for query in ("", "?link=0123456789abcdef", f"?link={link_tag('http://other.example/games/' + game)}"):
        response = client.get(f"/games/{game}/view-link.svg{query}")
        assert response.status_code == 200, query
        assert response.headers["Cache-Control"] == "no-cache", query
        assert response.headers["ETag"] == f'"{link_tag(view)}"'
        assert response.data == qr_image(view, "the view link")


def test_an_unknown_game_s_image_is_a_404_and_a_deleted_one_s_a_410(client):
    assert client.get("/games/no-such-game/view-link.svg").status_code == 404
    game, key = api_game(client)
    src = f"/games/{game}/view-link.svg?link={link_tag(f'http://localhost/games/{game}')}"
    assert client.get(src).status_code == 200
    deleted = client.delete(f"/api/v1/games/{game}", headers={"Authorization": f"Bearer {key}"})
    assert deleted.status_code in (200, 204), deleted.data
    gone = client.get(src)
    assert gone.status_code == 410
    assert "immutable" not in gone.headers.get("Cache-Control", "")
