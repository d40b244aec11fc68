"""Issue 25: pages, API bodies, PDFs and static files sent compressed when the client asks
(scorepad/web/content_codings.py, replay.py, static_files.py): the coding the client's
Accept-Encoding takes, each coded body exactly the plain one once decompressed, each
representation's own ETag and 304, Vary: Accept-Encoding on every answer that could have
been coded otherwise; and never a body with a secret in it (BREACH)."""

from __future__ import annotations

import gzip
from pathlib import Path

import brotli
import pytest

from scorepad.web.static_files import StaticFiles
from tests.helpers import api_game, grant, valid_deal

DECODE = {"br": brotli.decompress, "gzip": gzip.decompress, None: lambda body: body}
STATIC = Path(__file__).resolve().parents[2] / "static"


def a_game(app) -> str:
    game, _ = api_game(app.test_client(), deals=[valid_deal(1)])
    return game


@pytest.mark.parametrize(("accepted", "coding"), [
    ("gzip, deflate, br", "br"), ("br", "br"), ("gzip", "gzip"), ("x-gzip", "gzip"),
    ("br;q=0, gzip", "gzip"), ("gzip;q=1, br;q=0.5", "gzip"), ("gzip;q=0.5, br;q=0.5", "br"),
    ("*", "br"), ("*;q=0.2, br;q=0", "gzip"), ("deflate", None), ("identity", None), ("", None),
    ("br;q=0, gzip;q=0", None), ("*;q=0", None), ("gzip;q=2, br;q=nope", None), ("GZIP;Q=0.3", "gzip"),
])
@pytest.mark.parametrize("replayed", [False, True], ids=["the route's answer", "replayed"])
def test_the_coding_sent_is_the_one_the_client_s_q_values_take_br_first(make_app, accepted, coding, replayed):
    app = make_app()
    game = a_game(app)
    plain = app.test_client().get(f"/api/v1/games/{game}").get_data()
    if not replayed:
        app = make_app()  # nothing kept: the route answers
    sent = app.test_client().get(f"/api/v1/games/{game}", headers={"Accept-Encoding": accepted})
    assert sent.headers.get("Content-Encoding") == coding
    assert DECODE[coding](sent.get_data()) == plain
    assert int(sent.headers["Content-Length"]) == len(sent.get_data())
    assert "Accept-Encoding" in sent.headers["Vary"]


SHARED = ["/games/{g}", "/games/{g}/history", "/games/{g}/sheet", "/games/{g}/scores.csv",
          "/games/{g}/results.pdf", "/api/v1/games/{g}", "/api/v1/games/{g}/history"]


@pytest.mark.parametrize("path", SHARED)
@pytest.mark.parametrize("coding", ["br", "gzip"])
def test_each_coded_shared_answer_is_the_plain_one_decompressed_with_its_own_etag(make_app, path, coding):
    app = make_app()
    url = path.format(g=a_game(app))
    phone = app.test_client()
    first = phone.get(url, headers={"Accept-Encoding": coding})  # the route's answer, coded at once
    plain = phone.get(url)
    again = phone.get(url, headers={"Accept-Encoding": coding})  # replayed
    for sent in (first, again):
        assert sent.headers["Content-Encoding"] == coding
        assert sent.headers["ETag"] == f'{plain.headers["ETag"][:-1]}-{coding}"'
        assert DECODE[coding](sent.get_data()) == plain.get_data()
    assert first.get_data() == again.get_data()


def test_the_plain_answers_and_their_304s_say_they_vary_on_accept_encoding(make_app):
    app = make_app()
    game = a_game(app)
    phone = app.test_client()
    first = phone.get(f"/games/{game}")  # the route's
    replayed = phone.get(f"/games/{game}")
    assert "Content-Encoding" not in first.headers and "Content-Encoding" not in replayed.headers
    assert first.headers["Vary"] == replayed.headers["Vary"] == "Cookie, Accept-Encoding"
    held = {"If-None-Match": first.headers["ETag"]}
    assert phone.get(f"/games/{game}", headers=held).headers["Vary"] == "Cookie, Accept-Encoding"  # replayed
    routed = make_app().test_client().get(f"/games/{game}", headers=held)
    assert routed.status_code == 304 and routed.headers["Vary"] == "Cookie, Accept-Encoding"


@pytest.mark.parametrize("held", ["plain", "br", "gzip"])
@pytest.mark.parametrize("asking", ["br", "gzip", None])
def test_a_304_for_any_representation_held_with_the_etag_of_the_one_asked_for(make_app, held, asking):
    app = make_app()
    game = a_game(app)
    phone = app.test_client()
    tags = {coding: phone.get(f"/games/{game}", headers={"Accept-Encoding": coding or ""}).headers["ETag"]
            for coding in ("br", "gzip", None)}
    tags["plain"] = tags[None]
    answer = phone.get(f"/games/{game}", headers={"If-None-Match": tags[held], "Accept-Encoding": asking or ""})
    assert answer.status_code == 304 and answer.get_data() == b""
    assert answer.headers["ETag"] == tags[asking] and answer.headers["Vary"] == "Cookie, Accept-Encoding"
    assert "Content-Encoding" not in answer.headers


def test_another_revision_s_coded_etag_is_no_304(make_app):
    app = make_app()
    owner = app.test_client()
    game, key = api_game(owner)
    old = owner.get(f"/games/{game}/history", headers={"Accept-Encoding": "br"}).headers["ETag"]
    assert owner.post(f"/api/v1/games/{game}/deals", json=valid_deal(1),
                      headers={"Authorization": f"Bearer {key}"}).status_code == 201
    answer = owner.get(f"/games/{game}/history", headers={"If-None-Match": old, "Accept-Encoding": "br"})
    assert answer.status_code == 200 and answer.headers["ETag"] == f'"{game}.1-br"'


@pytest.mark.parametrize("page", ["/games/{g}", "/games/{g}/deals/new", "/games/{g}/sheet", "/"])
def test_a_page_with_a_secret_in_it_is_never_compressed(make_app, page):
    """An editor's pages carry the form's CSRF token and the game's edit link beside what
    the table typed (BREACH): sent as they are, even to a client that asks for brotli (the
    home page lists this browser's games)."""
    app = make_app()
    editor = app.test_client()
    game, key = api_game(editor)
    grant(editor, game, key)
    for _ in range(3):
        sent = editor.get(page.format(g=game), headers={"Accept-Encoding": "br, gzip"})
        assert sent.status_code == 200 and "Content-Encoding" not in sent.headers


def test_a_new_game_s_edit_key_in_the_api_s_answer_is_never_compressed(make_app):
    client = make_app().test_client()
    made = client.post("/api/v1/games", json={"name": "Friday", "sheet": "common",
                                             "sides": [{"name": "Ann", "players": ["Ann"]},
                                                       {"name": "Bea", "players": ["Bea"]}]},
                       headers={"Accept-Encoding": "br, gzip"})
    assert made.status_code == 201 and "Content-Encoding" not in made.headers and made.get_json()["edit_key"]


# -- the static files, the service worker and the manifest -----------------------------------------

TEXT_FILES = sorted(p.name for p in STATIC.iterdir() if p.suffix in (".css", ".js", ".svg"))


@pytest.mark.parametrize("name", TEXT_FILES)
@pytest.mark.parametrize("coding", ["br", "gzip"])
def test_each_static_text_file_is_sent_coded_and_decompresses_to_the_file(make_app, name, coding):
    client = make_app().test_client()
    plain = client.get(f"/static/{name}")
    sent = client.get(f"/static/{name}", headers={"Accept-Encoding": coding})
    assert plain.get_data() == (STATIC / name).read_bytes() and "Content-Encoding" not in plain.headers
    assert plain.headers["Vary"] == sent.headers["Vary"] == "Cookie, Accept-Encoding"
    if len(sent.get_data()) == len(plain.get_data()):  # favicon.svg: too small to be worth it
        assert "Content-Encoding" not in sent.headers and sent.headers["ETag"] == plain.headers["ETag"]
        return
    assert sent.headers["Content-Encoding"] == coding and DECODE[coding](sent.get_data()) == plain.get_data()
    assert int(sent.headers["Content-Length"]) == len(sent.get_data()) < 0.9 * len(plain.get_data())
    assert sent.headers["ETag"] == f'{plain.headers["ETag"][:-1]}-{coding}"'
    for header in ("Last-Modified", "Cache-Control", "Content-Type"):
        assert sent.headers[header] == plain.headers[header]
    assert "Accept-Ranges" not in sent.headers


@pytest.mark.parametrize("path", ["/sw.js", "/manifest.webmanifest"])
def test_the_service_worker_and_the_manifest_are_sent_coded(make_app, path):
    client = make_app().test_client()
    plain = client.get(path)
    sent = client.get(path, headers={"Accept-Encoding": "gzip, br"})
    assert sent.headers["Content-Encoding"] == "br" and brotli.decompress(sent.get_data()) == plain.get_data()
    assert sent.headers["Cache-Control"] == plain.headers["Cache-Control"] == "no-cache"
    assert "Accept-Encoding" in plain.headers["Vary"]


def test_the_worker_s_precached_files_are_each_answered_coded_or_as_they_are(make_app):
    """Every URL the worker caches as it installs answers 200 to a browser asking for brotli,
    its body once decoded the one sent plain."""
    client = make_app().test_client()
    worker = client.get("/sw.js").get_data(as_text=True)
    shell = [url.strip('"') for url in worker.split("SHELL = [", 1)[1].split("]", 1)[0].split(", ")]
    assert "/static/deal.js" in shell and "/static/icon-192.png" in shell
    for url in shell:
        sent = client.get(url, headers={"Accept-Encoding": "gzip, deflate, br"})
        assert sent.status_code == 200, url
        assert DECODE[sent.headers.get("Content-Encoding")](sent.get_data()) == client.get(url).get_data()


@pytest.mark.parametrize("held", ["plain", "br", "gzip"])
@pytest.mark.parametrize("asking", ["br", "gzip", None])
def test_a_static_file_s_304_for_any_representation_held(make_app, held, asking):
    client = make_app().test_client()
    tags = {coding: client.get("/static/deal.js", headers={"Accept-Encoding": coding or ""}).headers["ETag"]
            for coding in ("br", "gzip", None)}
    tags["plain"] = tags[None]
    answer = client.get("/static/deal.js", headers={"If-None-Match": tags[held], "Accept-Encoding": asking or ""})
    assert answer.status_code == 304 and answer.get_data() == b""
    assert answer.headers["ETag"] == tags[asking] and "Accept-Encoding" in answer.headers["Vary"]


def test_a_static_file_s_304_by_its_date_and_a_changed_file_s_coded_etag_is_no_304(make_app):
    client = make_app().test_client()
    sent = client.get("/static/app.css", headers={"Accept-Encoding": "br"})
    dated = client.get("/static/app.css", headers={"Accept-Encoding": "br",
                                                    "If-Modified-Since": sent.headers["Last-Modified"]})
    assert dated.status_code == 304 and dated.headers["ETag"] == sent.headers["ETag"]
    stale = client.get("/static/app.css", headers={"Accept-Encoding": "br", "If-None-Match": '"1-2-3-br"'})
    assert stale.status_code == 200 and brotli.decompress(stale.get_data()) == (STATIC / "app.css").read_bytes()


def test_an_image_already_compressed_and_a_range_are_sent_as_they_are(make_app):
    client = make_app().test_client()
    icon = client.get("/static/icon-512.png", headers={"Accept-Encoding": "br, gzip"})
    assert "Content-Encoding" not in icon.headers and icon.get_data() == (STATIC / "icon-512.png").read_bytes()
    assert "Accept-Encoding" not in icon.headers.get("Vary", "")
    part = client.get("/static/deal.js", headers={"Accept-Encoding": "br", "Range": "bytes=0-99"})
    assert part.status_code == 206 and "Content-Encoding" not in part.headers
    assert part.get_data() == (STATIC / "deal.js").read_bytes()[:100]


def test_a_static_file_is_coded_once_in_each_coding_within_the_bounds(make_app):
    app = make_app()
    layer = app.wsgi_app
    while not isinstance(layer, StaticFiles):
        layer = layer.app
    client = app.test_client()
    for _ in range(3):
        for coding in ("br", "gzip"):
            for name in TEXT_FILES:
                client.get(f"/static/{name}", headers={"Accept-Encoding": coding})
    assert len(layer.kept) == 2 * len(TEXT_FILES)
    assert layer.bytes == sum(len(plain) + len(packed or b"") for plain, packed in layer.kept.values())
    before = dict(layer.kept)
    client.get("/static/deal.js", headers={"Accept-Encoding": "br"})
    assert all(layer.kept[key][1] is before[key][1] for key in before)  # none made again
