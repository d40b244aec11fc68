"""The table's phones entering one deal together (issue 24 §1, §2), as the server answers them,
without scripts: each phone says once per game which side it enters and whose phone it is
(kept in its own session); a side's part saves through the open deal and the page then shows
every part's progress; the part that completes a clean deal writes it; a completed deal with
problems is not written, each phone seeing its own side's; a part another phone entered is
never overwritten silently; with ``confirm`` set, an opponent's phone confirms each part.
The same in a real Chromium, two phones at once: tests/web/test_parts_browser.py."""

from __future__ import annotations

import pytest

from tests.helpers import form_fields, sql, text_of
from tests.web.test_counted import BENCH_FORM

US = {k: v for k, v in BENCH_FORM.items() if k.startswith("s0-") or k == "ending"}  # Ann went out
THEM = {k: v for k, v in BENCH_FORM.items() if k.startswith("s1-")}


def new_game(client, confirm: bool = False) -> str:
    """A common-preset game made on the New game page: Us (Ann, Cal) v Them (Bea, Dan)."""
    data = form_fields(client.get("/new?preset=common").get_data(as_text=True), "/new")
    data.update({"name": "Friday", "side-0-p0": "Ann", "side-0-p1": "Cal", "side-0-name": "Us",
                 "side-1-p0": "Bea", "side-1-p1": "Dan", "side-1-name": "Them"})
    if confirm:
        data["confirm"] = "y"
    response = client.post("/new", data=data)
    assert response.status_code == 303
    return response.headers["Location"].split("/games/")[1].split("/")[0].split("#")[0]


def second_phone(app, client, game_id: str):
    """Another phone at the table, given the edit link."""
    [(key,)] = sql(app.config["DATABASE"], "SELECT edit_key FROM game WHERE id = ?", (game_id,))
    other = app.test_client()
    assert other.get(f"/games/{game_id}/edit/{key}").status_code == 303
    return other


def choose(client, game_id: str, side: str, owner: str):
    page = client.get(f"/games/{game_id}/phone").get_data(as_text=True)
    data = form_fields(page, f"/games/{game_id}/phone")
    data.update(side=side, owner=owner)
    return client.post(f"/games/{game_id}/phone", data=data)


def part_form(client, game_id: str, number: int = 1) -> dict[str, str]:
    url = f"/games/{game_id}/deals/{number}/part"
    return form_fields(client.get(url).get_data(as_text=True), url)


def save_part(client, game_id: str, fields: dict[str, str], number: int = 1, action: str = "save"):
    data = dict(part_form(client, game_id, number), **fields, action=action)
    return client.post(f"/games/{game_id}/deals/{number}/part", data=data)


@pytest.fixture
def table(app, client):
    """A game and its two phones: Ann's enters Us, Bea's enters Them."""
    game_id = new_game(client)
    other = second_phone(app, client, game_id)
    assert choose(client, game_id, "0", "Ann").status_code == 303
    assert choose(other, game_id, "1", "Bea").status_code == 303
    return game_id, client, other


def test_a_phone_says_once_per_game_which_side_it_enters_and_whose_it_is(table):
    game_id, ann, bea = table
    new = ann.get(f"/games/{game_id}/deals/new")
    assert new.status_code == 303 and new.headers["Location"].endswith(f"/games/{game_id}/deals/1/part")
    page = text_of(ann.get(f"/games/{game_id}/deals/1/part").get_data(as_text=True))
    assert "This phone enters Us’s part · Ann’s phone · Change" in page
    assert "Them: waiting" in page and "Us: waiting" in page
    fields = part_form(ann, game_id)
    assert "s0-points" in fields and "s1-points" not in fields  # Us's boxes only, and the ending
    assert "Them’s part" in text_of(bea.get(f"/games/{game_id}/deals/1/part").get_data(as_text=True))


def test_a_phone_entering_one_side_must_say_whose_phone_it_is(app, client):
    game_id = new_game(client)
    refused = choose(client, game_id, "0", "")
    assert refused.status_code == 400 and "Say whose phone this is" in text_of(refused.get_data(as_text=True))
    assert client.get(f"/games/{game_id}/deals/new").status_code == 200  # still every side, today's form


def test_every_side_stays_the_one_phone_form(app, client):
    game_id = new_game(client)
    assert choose(client, game_id, "all", "Cal").status_code == 303
    page = client.get(f"/games/{game_id}/deals/new").get_data(as_text=True)
    assert "This phone enters every side · Cal’s phone" in text_of(page)
    fields = form_fields(page, f"/games/{game_id}/deals/new")
    assert "s0-points" in fields and "s1-points" in fields


def test_each_side_saves_its_part_and_the_second_writes_the_deal(table):
    game_id, ann, bea = table
    first = save_part(ann, game_id, US)
    assert first.status_code == 303 and first.headers["Location"].endswith("/deals/1/part")
    page = text_of(ann.get(f"/games/{game_id}/deals/1/part").get_data(as_text=True))
    assert "Us’s part saved." in page and "Us: entered by Ann’s phone, 2,970" in page
    assert "Them: waiting" in page and "The ending: Ann went out (Ann’s phone)" in page
    assert "Us: entered by Ann’s phone" in text_of(bea.get(f"/games/{game_id}/deals/1/part").get_data(as_text=True))
    second = save_part(bea, game_id, THEM)
    assert second.status_code == 303 and second.headers["Location"].endswith(f"/games/{game_id}#main")
    assert "Deal 1 was written by Ann’s phone and Bea’s phone." in text_of(
        bea.get(f"/games/{game_id}").get_data(as_text=True))
    totals = {s["name"]: s["total"] for s in bea.get(f"/api/v1/games/{game_id}").get_json()["standings"]}
    assert totals == {"Us": 2970, "Them": 1150}
    late = ann.get(f"/games/{game_id}/deals/1/part")  # Ann's phone, a moment later
    assert late.status_code == 303 and "Deal 1 was written" in text_of(ann.get(late.headers["Location"])
                                                                       .get_data(as_text=True))


def test_a_part_another_phone_entered_is_kept_or_replaced_never_overwritten(app, table):
    game_id, ann, bea = table
    cal = second_phone(app, ann, game_id)
    assert choose(cal, game_id, "0", "Cal").status_code == 303
    form = part_form(cal, game_id)  # opened before Ann's phone saved
    assert save_part(ann, game_id, US).status_code == 303
    mine = dict(US, **{"s0-points": "515"})
    taken = cal.post(f"/games/{game_id}/deals/1/part", data=dict(form, **mine, action="save"))
    assert taken.status_code == 409
    page = taken.get_data(as_text=True)
    said = text_of(page)
    assert "Not saved: Us’s part was entered by Ann’s phone first." in said
    assert "Ann’s phone Yours Us 2,970 3,070" in said
    assert "Keep theirs" in said and "Replace it with mine" in said
    kept = cal.get(f"/games/{game_id}/deals/1/part")  # "Keep theirs": the part as Ann's phone entered it
    assert part_form(cal, game_id)["s0-points"] == "415" and kept.status_code == 200


def test_replace_it_with_mine_saves_the_later_phones_part(app, table):
    game_id, ann, bea = table
    cal = second_phone(app, ann, game_id)
    assert choose(cal, game_id, "0", "Cal").status_code == 303
    form = part_form(cal, game_id)
    assert save_part(ann, game_id, US).status_code == 303
    mine = dict(US, **{"s0-points": "515"})
    taken = cal.post(f"/games/{game_id}/deals/1/part", data=dict(form, **mine, action="save"))
    again = dict(form_fields(taken.get_data(as_text=True), f"/games/{game_id}/deals/1/part"), action="replace")
    replaced = cal.post(f"/games/{game_id}/deals/1/part", data=again)
    assert replaced.status_code == 303
    page = text_of(bea.get(f"/games/{game_id}/deals/1/part").get_data(as_text=True))
    assert "Us: entered by Cal’s phone, 3,070" in page


def test_a_completed_deal_with_problems_is_not_written_and_each_phone_sees_its_own(table):
    game_id, ann, bea = table
    short = dict(US, **{"s0-b-clean": "0"})  # Ann went out without the clean book going out needs
    assert save_part(ann, game_id, short).status_code == 303
    assert save_part(bea, game_id, THEM).status_code == 303
    assert bea.get(f"/api/v1/games/{game_id}/deals/1").status_code == 404  # nothing written
    ours = ann.get(f"/games/{game_id}/deals/1/part").get_data(as_text=True)
    theirs = bea.get(f"/games/{game_id}/deals/1/part").get_data(as_text=True)
    assert "Not written: the referee found 1 problem on this phone’s part, below." in text_of(ours)
    assert "Not written: the referee found problems on Us’s part, for its phone to correct." in text_of(theirs)
    assert 'id="problems"' in ours  # Us's problem on Us's form, in place
    assert 'id="problems"' not in theirs and "the referee found" in text_of(theirs)
    assert "Save as played" in text_of(theirs)  # for the whole table
    data = dict(form_fields(theirs, f"/games/{game_id}/deals/1/part"), reason="Agreed at the table",
                action="as_played")
    played = bea.post(f"/games/{game_id}/deals/1/part", data=data)
    assert played.status_code == 303 and played.headers["Location"].endswith("#main")
    assert bea.get(f"/api/v1/games/{game_id}/deals/1").get_json()["as_played"] == "Agreed at the table"


def test_with_confirm_an_opponents_phone_confirms_each_part(app, client):
    game_id = new_game(client, confirm=True)
    bea = second_phone(app, client, game_id)
    choose(client, game_id, "0", "Ann")
    choose(bea, game_id, "1", "Bea")
    assert save_part(client, game_id, US).status_code == 303
    assert save_part(bea, game_id, THEM).status_code == 303
    assert client.get(f"/api/v1/games/{game_id}/deals/1").status_code == 404  # waiting for confirmations
    seen = bea.get(f"/games/{game_id}/deals/1/part").get_data(as_text=True)
    assert "Us: entered by Ann’s phone, 2,970 · waiting for another side to confirm" in text_of(seen)
    assert "Us’s score, line by line" in text_of(seen) and "Melded card points 1 × 415 415" in text_of(seen)
    confirm = form_fields(seen, f"/games/{game_id}/deals/1/confirm")
    assert confirm["part"] == "1"
    own = dict(confirm, part="2")  # Bea's phone confirming Them's own part
    refused = bea.post(f"/games/{game_id}/deals/1/confirm", data=own, follow_redirects=True)
    assert "Not confirmed: a side does not confirm its own part" in text_of(refused.get_data(as_text=True))
    assert bea.post(f"/games/{game_id}/deals/1/confirm", data=confirm).status_code == 303
    after = text_of(client.get(f"/games/{game_id}/deals/1/part").get_data(as_text=True))
    assert "Us: entered by Ann’s phone, 2,970 · confirmed by Bea’s phone" in after
    theirs = form_fields(client.get(f"/games/{game_id}/deals/1/part").get_data(as_text=True),
                         f"/games/{game_id}/deals/1/confirm")
    done = client.post(f"/games/{game_id}/deals/1/confirm", data=theirs)
    assert done.status_code == 303 and done.headers["Location"].endswith("#main")
    assert client.get(f"/api/v1/games/{game_id}/deals/1").status_code == 200


def test_a_changed_confirmed_part_needs_confirming_again(app, client):
    game_id = new_game(client, confirm=True)
    bea = second_phone(app, client, game_id)
    choose(client, game_id, "0", "Ann")
    choose(bea, game_id, "1", "Bea")
    save_part(client, game_id, US)
    seen = bea.get(f"/games/{game_id}/deals/1/part").get_data(as_text=True)
    bea.post(f"/games/{game_id}/deals/1/confirm", data=form_fields(seen, f"/games/{game_id}/deals/1/confirm"))
    assert "confirmed by Bea’s phone" in text_of(client.get(f"/games/{game_id}/deals/1/part").get_data(as_text=True))
    save_part(client, game_id, dict(US, **{"s0-points": "515"}))
    page = text_of(client.get(f"/games/{game_id}/deals/1/part").get_data(as_text=True))
    assert "Us: entered by Ann’s phone, 3,070 · waiting for another side to confirm" in page


def test_the_progress_box_alone_follows_the_open_counter(table):
    game_id, ann, bea = table
    before = ann.get(f"/api/v1/games/{game_id}/revision").get_json()
    save_part(bea, game_id, THEM)
    after = ann.get(f"/api/v1/games/{game_id}/revision").get_json()
    assert after["open"] > before["open"] and after["revision"] == before["revision"]
    box = ann.get(f"/games/{game_id}/deals/1/progress").get_data(as_text=True)
    assert box.lstrip().startswith("<section") or 'id="progress"' in box
    assert "Them: entered by Bea’s phone" in text_of(box)


def test_an_ending_another_phone_said_is_kept_or_replaced_never_passed_over(table):
    game_id, ann, bea = table
    form = part_form(bea, game_id)  # Bea's phone opened the form before Ann's phone saved
    assert save_part(ann, game_id, US).status_code == 303  # Ann went out
    taken = bea.post(f"/games/{game_id}/deals/1/part", data=dict(form, **THEM, ending="s1-p1", action="save"))
    assert taken.status_code == 409
    said = text_of(taken.get_data(as_text=True))
    assert "Not saved: The ending was entered by Ann’s phone first." in said
    assert "Ann’s phone Yours The ending Ann went out Dan went out" in said
    assert bea.get(f"/api/v1/games/{game_id}/deals/1").status_code == 404  # Them's part not saved either
    kept = dict(form_fields(taken.get_data(as_text=True), f"/games/{game_id}/deals/1/part"), action="keep")
    written = bea.post(f"/games/{game_id}/deals/1/part", data=kept)
    assert written.status_code == 303 and written.headers["Location"].endswith("#main")
    assert bea.get(f"/api/v1/games/{game_id}/deals/1").get_json()["deal"]["went_out"] == "Ann"


def test_a_parts_live_preview_scores_its_side_in_the_deal_as_the_other_parts_make_it(table):
    game_id, ann, bea = table
    form = part_form(bea, game_id)
    alone = text_of(bea.post(f"/games/{game_id}/deals/1/part/preview", data=dict(form, **THEM))
                    .get_data(as_text=True))
    assert "Live score: Them 1,150" in alone and "Us" not in alone  # Them's side alone
    assert "Say which player went out." not in alone  # the ending, not said yet by any phone, is progress
    assert "The ending: not said yet (any phone may say it)." in alone
    save_part(ann, game_id, US)  # Ann went out
    merged = text_of(bea.post(f"/games/{game_id}/deals/1/part/preview", data=dict(form, **THEM))
                     .get_data(as_text=True))
    assert "Live score: Them 1,150" in merged and "The ending: not said yet" not in merged  # Ann's phone said


def test_a_phone_entering_every_side_sees_an_open_deal_and_may_abandon_its_parts(app, table):
    game_id, ann, bea = table
    cal = second_phone(app, ann, game_id)  # Cal's phone: every side, the one-phone form
    assert save_part(ann, game_id, US).status_code == 303
    page = cal.get(f"/games/{game_id}/deals/new").get_data(as_text=True)
    assert "Deal 1 is being entered part by part" in text_of(page) and "Other phones saved 2 parts" in text_of(page)
    whole = dict(form_fields(page, f"/games/{game_id}/deals/new"), **BENCH_FORM, action="save")
    refused = cal.post(f"/games/{game_id}/deals/new", data=whole)
    assert refused.status_code == 409 and "being entered part by part" in text_of(refused.get_data(as_text=True))
    abandon = form_fields(page, f"/games/{game_id}/deals/1/abandon")
    done = cal.post(f"/games/{game_id}/deals/1/abandon", data=abandon, follow_redirects=True)
    assert "Deal 1’s entry abandoned: 2 parts dropped, nothing written." in text_of(done.get_data(as_text=True))
    assert "Us: waiting" in text_of(ann.get(f"/games/{game_id}/deals/1/part").get_data(as_text=True))
    assert cal.post(f"/games/{game_id}/deals/new", data=whole).status_code == 303  # whole, on one phone


def test_the_phone_that_entered_a_part_cannot_confirm_it(app, client):
    game_id = new_game(client, confirm=True)
    bea = second_phone(app, client, game_id)
    choose(client, game_id, "0", "Ann")
    choose(bea, game_id, "1", "Bea")
    save_part(bea, game_id, THEM)
    choose(bea, game_id, "0", "Bea")  # Bea's phone now says it enters Us: still the phone that entered Them's part
    page = bea.get(f"/games/{game_id}/deals/1/part").get_data(as_text=True)
    assert "/deals/1/confirm" not in page  # not offered
    data = {"csrf_token": form_fields(page, f"/games/{game_id}/deals/1/part").get("csrf_token", ""),
            "part": "2", "version": "1"}
    refused = bea.post(f"/games/{game_id}/deals/1/confirm", data=data, follow_redirects=True)
    assert "Not confirmed: Bea’s phone entered this part, so it cannot confirm it" in text_of(
        refused.get_data(as_text=True))


def test_the_editors_game_page_says_which_parts_of_the_next_deal_are_in_and_a_watchers_never(app, table):
    game_id, ann, bea = table
    watcher = app.test_client()
    assert "being entered part by part" not in text_of(bea.get(f"/games/{game_id}").get_data(as_text=True))
    save_part(ann, game_id, US)  # Ann went out
    page = text_of(bea.get(f"/games/{game_id}").get_data(as_text=True))
    assert ("Deal 1 is being entered part by part: Us: entered by Ann’s phone, 2,970 Them: waiting "
            "The ending: Ann went out (Ann’s phone)") in page  # as the part forms' progress box says it
    assert "Go on with deal 1" in page and "Record deal 1" not in page
    assert "being entered" not in text_of(watcher.get(f"/games/{game_id}").get_data(as_text=True))
    save_part(bea, game_id, THEM)  # the deal is written
    page = text_of(bea.get(f"/games/{game_id}").get_data(as_text=True))
    assert "being entered" not in page and "Record deal 2" in page


@pytest.mark.parametrize("digit", ["²", "٣", "x"])
def test_a_confirmation_whose_part_or_version_is_no_ascii_number_is_refused_never_a_500(client, digit):
    """'²'.isdigit() is true yet int('²') fails: what the fuzz found."""
    game_id = new_game(client, confirm=True)
    for field in ("part", "version"):
        data = {"part": "1", "version": "1", field: digit}
        response = client.post(f"/games/{game_id}/deals/1/confirm", data=data)
        assert 400 <= response.status_code < 500 or response.status_code == 303, response.status_code
