"""Never lose a deal (issue 12, section 1), without a browser: the deal form's idempotency key
makes a save sent twice one save, whether the second comes from the no-script form (its hidden
``idempotency_key`` field) or the script (the ``Idempotency-Key`` header); and the installable
app's own files: the service worker at the site root, the manifest, the offline page.

The browser side (drafts, retries, the worker at work) is ``test_offline_browser.py``."""

from __future__ import annotations

import json
import sqlite3
import struct
from typing import Any

from tests.helpers import api_game, bearer, db_state, form_fields, grant, text_of
from tests.web.test_counted import BENCH_FORM, counted_game, new_form


def deals_and_history(app, game_id: str) -> tuple[int, int]:
    conn = sqlite3.connect(app.config["DATABASE"])
    try:
        deals = conn.execute("SELECT COUNT(*) FROM deal WHERE game_id = ?", (game_id,)).fetchone()[0]
        history = conn.execute("SELECT COUNT(*) FROM history WHERE game_id = ?", (game_id,)).fetchone()[0]
        return deals, history
    finally:
        conn.close()


def save_form(client, game_id: str, **extra: str) -> dict[str, str]:
    return {**new_form(client, game_id), **BENCH_FORM, "action": "save", **extra}


def test_the_deal_form_carries_a_new_idempotency_key_each_time_it_is_opened(client):
    game_id = counted_game(client)
    keys = [new_form(client, game_id)["idempotency_key"] for _ in range(2)]
    assert all(len(k) == 36 for k in keys) and keys[0] != keys[1]


def test_a_form_sent_again_with_its_key_is_saved_once_and_ends_on_the_saved_deal(client, app):
    """The answer to the first save was lost; the phone sends the same form again."""
    game_id = counted_game(client)
    form = save_form(client, game_id)
    first = client.post(f"/games/{game_id}/deals/new", data=form)
    assert first.status_code == 303
    saved = db_state(app)
    again = client.post(f"/games/{game_id}/deals/new", data=form, follow_redirects=True)
    assert again.status_code == 200 and "Deal 1 saved." in text_of(again.get_data(as_text=True))
    assert again.request.path == f"/games/{game_id}"  # the game, with the deal: not a conflict
    assert db_state(app) == saved  # nothing written twice
    assert deals_and_history(app, game_id) == (1, 1)


def test_the_scripts_header_key_is_the_same_protection(client, app):
    game_id = counted_game(client)
    form = save_form(client, game_id, idempotency_key="")
    headers = {"Idempotency-Key": "draft-7f1c"}
    answers = [client.post(f"/games/{game_id}/deals/new", data=form, headers=headers) for _ in range(3)]
    assert [a.status_code for a in answers] == [303, 303, 303]
    assert {a.headers["Location"] for a in answers} == {f"/games/{game_id}#main"}
    assert deals_and_history(app, game_id) == (1, 1)


def test_without_a_key_the_form_saves_as_before_and_a_second_send_is_a_conflict(client, app):
    game_id = counted_game(client)
    form = save_form(client, game_id, idempotency_key="")
    assert client.post(f"/games/{game_id}/deals/new", data=form).status_code == 303
    again = client.post(f"/games/{game_id}/deals/new", data=form)
    assert again.status_code == 409 and "Deal 1 is already saved" in again.get_data(as_text=True)
    assert deals_and_history(app, game_id) == (1, 1)


def test_a_changed_form_sent_with_a_key_already_saved_is_refused_with_the_deal_as_saved(client, app):
    """The form saved deal 1, then was changed and sent again with its key: never saved as
    deal 2, but shown beside deal 1 as saved, to keep or to replace it with (a correction)."""
    game_id = counted_game(client)
    form = save_form(client, game_id)
    assert client.post(f"/games/{game_id}/deals/new", data=form).status_code == 303
    saved = db_state(app)
    changed = dict(form, **{"s0-points": "420"})
    refused = client.post(f"/games/{game_id}/deals/new", data=changed)
    page = refused.get_data(as_text=True)
    assert refused.status_code == 409 and "<h1>Record deal 1</h1>" in page
    assert "Not saved: deal 1 was already saved a moment ago" in text_of(page)
    assert db_state(app) == saved
    again = form_fields(page, f"/games/{game_id}/deals/new")
    assert again["s0-points"] == "420"  # what was typed is kept
    assert again["idempotency_key"] not in ("", form["idempotency_key"])  # with a new key
    assert (again["revision"], again["deal_number"]) == ("1", "1")  # deal 1 as it now stands
    replace = f"/games/{game_id}/deals/1/edit"
    assert f'formaction="{replace}">Replace it with mine' in page
    assert client.post(replace, data=dict(again, action="save")).status_code == 303
    assert deals_and_history(app, game_id) == (1, 2)


def test_a_refused_save_keeps_no_key_so_the_corrected_form_saves_with_it(client, app):
    game_id = counted_game(client)
    form = save_form(client, game_id, ending="")  # nobody went out: unreadable, not saved
    assert client.post(f"/games/{game_id}/deals/new", data=form).status_code == 400
    assert client.post(f"/games/{game_id}/deals/new", data=dict(form, ending="s0-p0")).status_code == 303
    assert deals_and_history(app, game_id) == (1, 1)


def test_a_correction_sent_twice_is_made_once(client, app):
    game_id = counted_game(client)
    assert client.post(f"/games/{game_id}/deals/new", data=save_form(client, game_id)).status_code == 303
    edit = f"/games/{game_id}/deals/1/edit"
    form = dict(form_fields(client.get(edit).get_data(as_text=True), edit), action="save", **{"s0-points": "420"})
    answers = [client.post(edit, data=form, follow_redirects=True) for _ in range(2)]
    assert ["Deal 1 corrected." in text_of(a.get_data(as_text=True)) for a in answers] == [True, True]
    assert deals_and_history(app, game_id) == (1, 2)


def test_an_unchanged_correction_keeps_no_key_so_the_form_may_still_be_changed_and_saved(client, app):
    game_id = counted_game(client)
    assert client.post(f"/games/{game_id}/deals/new", data=save_form(client, game_id)).status_code == 303
    edit = f"/games/{game_id}/deals/1/edit"
    form = dict(form_fields(client.get(edit).get_data(as_text=True), edit), action="save")
    answers = [client.post(edit, data=form, follow_redirects=True) for _ in range(2)]
    assert all("Deal 1 unchanged" in text_of(a.get_data(as_text=True)) for a in answers)
    assert deals_and_history(app, game_id) == (1, 1)
    changed = client.post(edit, data={**form, "s0-points": "420"}, follow_redirects=True)  # back, then changed
    assert "Deal 1 corrected." in text_of(changed.get_data(as_text=True))
    assert deals_and_history(app, game_id) == (1, 2)


def test_a_forms_key_is_scoped_to_its_page_and_game_never_the_apis(client, app):
    """The same key on the API, and on another game's form, is another write."""
    game_id, key = api_game(client)
    grant(client, game_id, key)
    other_id, other_key = api_game(client)
    grant(client, other_id, other_key)
    api = client.post(f"/api/v1/games/{game_id}/deals", json={**_api_deal(), "revision": 0},
                      headers={**bearer(key), "Idempotency-Key": "shared-key"})
    assert api.status_code == 201
    for gid in (game_id, other_id):
        new = f"/games/{gid}/deals/new"
        form = dict(form_fields(client.get(new).get_data(as_text=True), new), action="save", ending="stock",
                    idempotency_key="shared-key")
        assert client.post(new, data=form).status_code == 303, gid
    assert deals_and_history(app, game_id) == (2, 2) and deals_and_history(app, other_id) == (1, 1)


def _api_deal() -> dict[str, Any]:
    from tests.helpers import valid_deal

    return valid_deal(None)


def test_an_unreadable_key_is_a_400_page_and_nothing_is_saved(client, app):
    game_id = counted_game(client)
    before = db_state(app)
    response = client.post(f"/games/{game_id}/deals/new", data=save_form(client, game_id, idempotency_key="x" * 256))
    assert response.status_code == 400 and "idempotency key" in text_of(response.get_data(as_text=True))
    assert db_state(app) == before


# -- the installable app ----------------------------------------------------------------------------


def test_the_service_worker_is_served_from_the_site_root_as_javascript_and_revalidated(client):
    response = client.get("/sw.js")
    assert response.status_code == 200 and response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "no-cache"  # a new deploy is found at once
    body = response.get_data(as_text=True)
    assert "no-store" in body and "/offline" in body and "/static/app.css" in body
    assert "__VERSION__" not in body and "__SHELL__" not in body


def test_the_workers_cache_version_follows_the_static_files(client, app, tmp_path):
    """A deploy that changes a static file (or the offline page) changes the worker's bytes, so
    browsers install it (and its new cache) and drop the old one."""
    from scorepad.web import installable

    before = installable.version(app.static_folder)
    assert installable.version(app.static_folder) == before
    folder = tmp_path / "static"
    folder.mkdir()
    (folder / "app.css").write_text("a{}")
    one = installable.version(str(folder))
    (folder / "app.css").write_text("a{color:red}")
    assert installable.version(str(folder)) != one
    assert installable.version(str(folder), b"<h1>No connection</h1>") != installable.version(str(folder), b"<h1>Off")


def test_the_manifest_makes_the_app_installable(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200 and response.mimetype == "application/manifest+json"
    manifest = json.loads(response.get_data(as_text=True))
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    assert manifest["name"] and manifest["short_name"] and len(manifest["short_name"]) <= 12
    assert manifest["theme_color"].startswith("#") and manifest["background_color"].startswith("#")
    sizes = {}
    for icon in manifest["icons"]:
        png = client.get(icon["src"])
        assert png.status_code == 200 and png.mimetype == "image/png" and icon["type"] == "image/png"
        data = png.get_data()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = struct.unpack(">II", data[16:24])
        assert icon["sizes"] == f"{width}x{height}"
        sizes[width] = len(data)
    assert set(sizes) == {192, 512}


def test_every_page_links_the_manifest_and_the_theme_colour_and_loads_the_worker(client):
    page = client.get("/").get_data(as_text=True)
    manifest = json.loads(client.get("/manifest.webmanifest").get_data(as_text=True))
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert f'<meta name="theme-color" content="{manifest["theme_color"]}">' in page
    assert 'src="/static/install.js"' in page and 'data-worker="/sw.js"' in page


def test_the_offline_page_says_what_to_do_and_keeps_no_state(client):
    response = client.get("/offline")
    assert response.status_code == 200
    words = text_of(response.get_data(as_text=True))
    assert "cannot reach the scorepad server" in words and "A deal you were typing is kept" in words
    assert "Set-Cookie" not in response.headers


def test_an_editors_game_page_the_worker_must_not_keep_is_marked_no_store(client):
    game_id, key = api_game(client)
    grant(client, game_id, key)
    response = client.get(f"/games/{game_id}")
    assert key in response.get_data(as_text=True)  # the edit link and its QR code
    assert response.headers["Cache-Control"] == "no-store"
