"""Entering a deal on one phone with few touches (issue 24), as the server answers it: the player
who went out has no points-left box and holds no points; Enter without the script checks the
deal; the live score shows a side with a refused box as "?"; a save lands at the top of the game
page (what was saved, the standings and "Record deal N+1"), a correction on its result banner;
the counted-entry caveat shows on a game's first deal only, in amber in the live score. The keys
and the live total in a real Chromium are tests/web/test_deal_keys_browser.py."""

from __future__ import annotations

import re

from tests.helpers import form_fields, text_of
from tests.web.test_counted import BENCH_FORM, counted_game, new_form

CAVEAT = "are counted, not listed"  # the counted.unchecked warning's words


def pts_box(page: str, key: str) -> str:
    """The paragraph holding a counted player's points-left box, as the page has it."""
    found = re.search(rf'<p class="pts"[^>]*><label>Points left<span class="vh"> in hand</span>'
                      rf'<input[^>]*name="{key}-pts"[^>]*>', page)
    assert found, f"no points-left box for {key}"
    return found.group(0)


def checked(client, game_id: str, **fields: str) -> str:
    """The deal form as Check answers it for the bench deal, with ``fields`` changed."""
    data = dict(new_form(client, game_id), **BENCH_FORM, action="check")
    data.update(fields)
    return client.post(f"/games/{game_id}/deals/new", data=data).get_data(as_text=True)


def test_the_player_who_went_out_has_no_points_left_box(client):
    game_id = counted_game(client)
    data = dict(new_form(client, game_id), **BENCH_FORM, action="check")
    page = client.post(f"/games/{game_id}/deals/new", data=data).get_data(as_text=True)
    ann = pts_box(page, "s0-p0")  # Ann went out
    assert " hidden>" in ann and "disabled" in ann
    for key in ("s0-p1", "s1-p0", "s1-p1"):
        assert "hidden" not in pts_box(page, key) and "disabled" not in pts_box(page, key)
    assert "s0-p0-pts" not in form_fields(page, f"/games/{game_id}/deals/new")  # a browser sends nothing for it


def test_a_deal_sent_without_the_went_out_players_box_counts_no_points_left_for_them(client):
    game_id = counted_game(client)
    data = dict(new_form(client, game_id), **BENCH_FORM, action="save")
    data.pop("s0-p0-pts", None)
    assert client.post(f"/games/{game_id}/deals/new", data=data).status_code == 303
    deal = client.get(f"/api/v1/games/{game_id}/deals/1").get_json()["deal"]
    assert deal["sides"][0]["players"][0] == {"name": "Ann", "foot_picked_up": True, "cards_left_points": 0}


def test_the_went_out_players_box_stays_while_it_holds_points_so_the_referee_can_say_so(client):
    game_id = counted_game(client)
    page = checked(client, game_id, **{"s0-p0-pts": "20"})
    assert "hidden" not in pts_box(page, "s0-p0") and 'value="20"' in pts_box(page, "s0-p0")
    assert "Ann went out but still holds cards" in text_of(page)


def test_enter_without_the_script_checks_the_deal_and_never_itemises_a_side(client):
    game_id = counted_game(client)
    page = client.get(f"/games/{game_id}/deals/new").get_data(as_text=True)
    form = page[page.index('id="deal-form"'):]
    first = re.search(r"<button[^>]*>", form).group(0)  # the form's default button: what Enter sends
    assert 'value="check"' in first and 'tabindex="-1"' in first


def test_a_saved_deal_lands_at_the_top_of_the_game_page_with_the_next_deal_in_view(client):
    game_id = counted_game(client)
    response = client.post(f"/games/{game_id}/deals/new", data=dict(new_form(client, game_id), **BENCH_FORM,
                                                                    action="save"))
    assert response.status_code == 303 and response.headers["Location"] == f"/games/{game_id}#main"
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    main = page[page.index('<main id="main">'):]
    order = [main.index(s) for s in ("Deal 1 saved.", 'class="standings', "Record deal 2", 'id="deal-1"')]
    assert order == sorted(order)  # the banner, the standings, the next deal; the score's rows below


def test_a_correction_lands_on_its_result_banner(client):
    game_id = counted_game(client)
    client.post(f"/games/{game_id}/deals/new", data=dict(new_form(client, game_id), **BENCH_FORM, action="save"))
    edit = f"/games/{game_id}/deals/1/edit"
    form = dict(form_fields(client.get(edit).get_data(as_text=True), edit), **{"s0-points": "420"}, action="save")
    response = client.post(edit, data=form)
    assert response.status_code == 303 and response.headers["Location"] == f"/games/{game_id}#main"
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    main = page[page.index('<main id="main">'):]
    assert main.index("Deal 1 corrected.") < main.index('class="standings')


def test_the_counted_caveat_shows_on_a_games_first_deal_only(client):
    game_id = counted_game(client)
    first = checked(client, game_id)
    assert CAVEAT in first
    preview = client.post(f"/games/{game_id}/deals/1/preview", data=dict(new_form(client, game_id), **BENCH_FORM))
    assert re.search(rf'<li class="live-warn">[^<]*<a[^>]*>Worth a look: The melds of Us {CAVEAT}',
                     preview.get_data(as_text=True))
    client.post(f"/games/{game_id}/deals/new", data=dict(new_form(client, game_id), **BENCH_FORM, action="save"))
    second = checked(client, game_id)
    assert "Deal 2" in second and CAVEAT not in second
    preview = client.post(f"/games/{game_id}/deals/2/preview", data=dict(new_form(client, game_id), **BENCH_FORM))
    assert "Live score" in preview.get_data(as_text=True) and CAVEAT not in preview.get_data(as_text=True)


def test_the_other_warnings_still_show_on_every_deal(client):
    game_id = counted_game(client)
    client.post(f"/games/{game_id}/deals/new", data=dict(new_form(client, game_id), **BENCH_FORM, action="save"))
    page = checked(client, game_id, **{"s1-b-clean": "", "s1-b-dirty": "", "s1-points": "", "s1-red_threes": ""})
    assert "Worth a look" in page and CAVEAT not in page  # Them melded nothing: still worth a look


def test_the_live_score_shows_a_side_with_a_negative_or_unreadable_box_as_a_question_mark(client):
    game_id = counted_game(client)
    for refused in ("-35", "35x"):
        data = dict(new_form(client, game_id), **BENCH_FORM)
        data["s1-points"] = refused
        live = client.post(f"/games/{game_id}/deals/1/preview", data=data).get_data(as_text=True)
        assert re.search(r"Live score: Us 2,970 · Them \?", live), live[:300]
        assert '<span>Us <strong>2,970</strong></span> · <span>Them <strong>?</strong></span>' in live
    data = dict(new_form(client, game_id), **BENCH_FORM)
    live = client.post(f"/games/{game_id}/deals/1/preview", data=data).get_data(as_text=True)
    assert "Live score: Us 2,970 · Them 1,150" in live
