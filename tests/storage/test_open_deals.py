"""A deal entered part by part (issue 24 §1 and §2), as storage keeps it: each side's part and
the ending saved on their own, by whichever phone enters them, in the database (so a restart
or another server sees them); the deal written once, as a whole deal is, when its last part
makes it complete and clean; nothing written while it has problems; a part another phone
entered replaced only by a save naming its version; with ``confirm: opponents``, a side's part
final only once a phone of another side confirms it. Each test on SQLite and on PostgreSQL.

``valid_deal`` scores Ann 1,060 and Bea 5: Ann goes out with a clean and a dirty book.
"""

from __future__ import annotations

import json

import pytest

from scorepad.rules.choices import Confirm
from scorepad.rules.deal import Ending
from scorepad.storage import backends, checks, db, idempotency, open_deals, reading
from scorepad.storage import writing as storage_writing
from scorepad.storage.errors import (
    ConfirmRefused,
    DealOpen,
    Full,
    Invalid,
    NotNext,
    PartEntered,
    RuleViolations,
    SameAsPrevious,
)
from scorepad.storage.idempotency import Kind, Made, Once
from scorepad.storage.open_deals import OpenDeal
from scorepad.storage.parts import EndingPart
from scorepad.storage.reading import DealRecord
from tests import json_writes as writing
from tests.helpers import ANN_BEA, valid_deal
from tests.storage.test_ended_games import race

pytestmark = pytest.mark.backends  # each test on a database of its own: on SQLite and on PostgreSQL

DAN, EVE, FAY = "Dan's phone", "Eve's phone", "Fay's phone"
ANN_OUT = {"ending": "went_out", "went_out": "Ann"}


def new_game(confirm: Confirm = Confirm.NONE) -> str:
    sheet = checks.read_sheet("common")
    return storage_writing.create_game("Friday", sheet, checks.read_sides(ANN_BEA, sheet), confirm=confirm).id


def side(game_id: str, position: int, data: object = None) -> object:
    game = reading.load_game(game_id)
    return open_deals.read_side(game, position, data or valid_deal()["sides"][position - 1])


def ending(game_id: str, data: object = None) -> object:
    return open_deals.read_ending(reading.load_game(game_id), data or ANN_OUT)


def save(game_id: str, part: int | str, phone: str, data: object = None, number: int = 1,
         replaces: int | None = None, once: Once[object] | None = None) -> OpenDeal | DealRecord:
    """Save one part (a side's position, or "ending") of deal ``number`` as ``phone``."""
    if part == "ending":
        return open_deals.save_ending(game_id, number, ending(game_id, data), phone, replaces, once)
    return open_deals.save_side(game_id, number, int(part), side(game_id, int(part), data), phone, replaces, once)


def test_parts_are_saved_one_by_one_and_the_last_writes_the_deal_with_the_phones_that_entered_it(database):
    with db.using(database):
        game_id = new_game()
        first = save(game_id, 1, DAN)
        assert isinstance(first, OpenDeal) and first.missing == ("2", "ending")
        assert isinstance(save(game_id, "ending", DAN), OpenDeal)
        assert reading.load_game(game_id).deals == [] and reading.revision(game_id)[0] == 0
        recorded = save(game_id, 2, EVE)
        assert isinstance(recorded, DealRecord) and recorded.number == 1 and recorded.revision == 1
        assert recorded.verdict.breakdown.totals() == {"Ann": 1060, "Bea": 5}
        game = reading.load_game(game_id)
        assert [d.number for d in game.deals] == [1] and game.revision == 1 and game.next_number == 2
        entries = reading.history(game_id)
        assert [(e["action"], e["deal_number"]) for e in entries] == [("record", 1)]
        assert entries[0]["entered_by"] == {"1": {"phone": DAN, "confirmed_by": None},
                                            "2": {"phone": EVE, "confirmed_by": None},
                                            "ending": {"phone": DAN, "confirmed_by": None}}
        assert open_deals.read_open(game_id).number == 2 and open_deals.read_open(game_id).parts == ()
        writing.record_deal(game_id, valid_deal(2), repeat=True)  # sent whole: no phones to name
        assert reading.entered_by(game_id) == {1: {"1": reading.PartEntry(DAN, None), "2": reading.PartEntry(EVE, None),
                                                   "ending": reading.PartEntry(DAN, None)}}


def test_a_deal_written_from_its_parts_is_stored_as_the_same_deal_sent_whole_would_be(database):
    with db.using(database):
        by_parts, whole = new_game(), new_game()
        for part, phone in ((1, DAN), (2, EVE), ("ending", FAY)):
            save(by_parts, part, phone)
        writing.record_deal(whole, valid_deal(1))
        stored = [db.one("deals_of_game", game_id)["body"] for game_id in (by_parts, whole)]
        assert json.loads(stored[0]) == json.loads(stored[1])


def test_saving_parts_moves_the_open_counter_and_not_the_revision(database):
    with db.using(database):
        game_id = new_game()
        counters = [reading.moved(game_id).open]
        for part in (1, "ending"):
            save(game_id, part, DAN)
            counters.append(reading.moved(game_id).open)
        assert counters == [0, 1, 2] and reading.revision(game_id)[0] == 0
        assert open_deals.read_open(game_id).counter == 2


def test_a_complete_deal_with_violations_writes_nothing_and_says_why_until_a_part_is_put_right(database):
    with db.using(database):
        game_id = new_game()
        save(game_id, 1, DAN, {"melds": ["J J J"], "players": [{"name": "Ann", "foot_picked_up": True}]})
        save(game_id, 2, EVE)
        refused = save(game_id, "ending", EVE)  # Ann went out without the books the sheet asks for
        assert isinstance(refused, OpenDeal) and isinstance(refused.refused, RuleViolations)
        assert refused.refused.problems and refused.refused.may_save_as_played
        assert reading.load_game(game_id).deals == [] and reading.revision(game_id)[0] == 0
        assert isinstance(open_deals.read_open(game_id).refused, RuleViolations)  # every phone sees it
        recorded = save(game_id, 1, DAN)  # Ann's phone puts its part right
        assert isinstance(recorded, DealRecord) and recorded.verdict.ok


def test_an_ending_with_a_reason_saves_a_deal_with_violations_as_played(database):
    with db.using(database):
        game_id = new_game()
        save(game_id, 1, DAN, {"melds": ["J J J"], "players": [{"name": "Ann", "foot_picked_up": True}]})
        save(game_id, 2, EVE)
        recorded = save(game_id, "ending", EVE, {**ANN_OUT, "as_played": {"reason": "we let it stand"}})
        assert isinstance(recorded, DealRecord) and recorded.as_played == "we let it stand"
        assert reading.load_game(game_id).deal(1).as_played == "we let it stand"


def test_a_deal_the_same_as_the_one_before_is_not_written_unless_the_ending_says_it_was_played_again(database):
    with db.using(database):
        game_id = new_game()
        writing.record_deal(game_id, valid_deal(1))
        save(game_id, 1, DAN, number=2)
        save(game_id, 2, EVE, number=2)
        same = save(game_id, "ending", DAN, number=2)
        assert isinstance(same, OpenDeal) and isinstance(same.refused, SameAsPrevious)
        assert same.refused.problem.code == "deal.same_as_previous" and len(reading.load_game(game_id).deals) == 1
        again = save(game_id, "ending", DAN, {**ANN_OUT, "repeat": True}, number=2)
        assert isinstance(again, DealRecord) and again.number == 2


def test_a_part_another_phone_entered_is_replaced_only_naming_its_version(database):
    with db.using(database):
        game_id = new_game()
        save(game_id, 1, DAN)
        other = {"melds": ["K K K K K K K"], "players": [{"name": "Ann", "foot_picked_up": True}]}
        with pytest.raises(PartEntered) as err:
            save(game_id, 1, EVE, other)
        assert err.value.field == "version" and err.value.part.phone == DAN and err.value.part.version == 1
        assert err.value.part.side.melds == side(game_id, 1).melds  # the later phone sees the earlier's numbers
        with pytest.raises(PartEntered):
            save(game_id, 1, EVE, other, replaces=2)  # a version that is not the part's
        replaced = save(game_id, 1, EVE, other, replaces=1)
        part = replaced.part("1")
        assert (part.phone, part.version, len(part.side.melds)) == (EVE, 2, 1)
        mine = save(game_id, 1, EVE)  # a phone changes its own part without naming the version
        assert mine.part("1").version == 3


def test_a_side_or_deal_not_of_the_game_is_refused_naming_it(database):
    with db.using(database):
        game_id = new_game()
        writing.record_deal(game_id, valid_deal(1))
        game = reading.load_game(game_id)
        with pytest.raises(Invalid) as err:
            open_deals.read_side(game, 3, valid_deal()["sides"][0])
        assert err.value.field == "side"
        with pytest.raises(Invalid) as err:
            open_deals.read_side(game, 1, {"name": "Bea", "melds": [], "players": []})
        assert err.value.field == "name"
        with pytest.raises(NotNext) as recorded:
            save(game_id, 1, DAN, number=1)
        assert recorded.value.recorded and recorded.value.field == "deal"
        with pytest.raises(NotNext) as further:
            save(game_id, 1, DAN, number=3)
        assert not further.value.recorded and further.value.next_number == 2
        with pytest.raises(Invalid) as err:
            open_deals.read_phone_label("x" * 41)
        assert err.value.field == "phone"


def test_a_whole_deal_sent_for_an_open_deal_is_refused_naming_it(database):
    with db.using(database):
        game_id = new_game()
        save(game_id, 2, EVE)
        with pytest.raises(DealOpen) as err:
            writing.record_deal(game_id, valid_deal(1))
        assert (err.value.number, err.value.parts, err.value.field) == (1, 1, "deal")
        assert reading.load_game(game_id).deals == [] and open_deals.read_open(game_id).parts


def test_abandoning_an_open_deal_removes_its_parts_and_lets_a_whole_deal_be_sent(database):
    with db.using(database):
        game_id = new_game()
        save(game_id, 1, DAN)
        save(game_id, "ending", DAN)
        assert open_deals.abandon(game_id, 1) == 2
        assert open_deals.read_open(game_id).parts == () and reading.moved(game_id).open == 3
        assert reading.revision(game_id)[0] == 0
        assert writing.record_deal(game_id, valid_deal(1)).number == 1


def test_deleting_a_game_removes_its_open_deal(database):
    with db.using(database):
        game_id = new_game()
        save(game_id, 1, DAN)
        storage_writing.delete_game(game_id)
        assert db.query("open_parts", game_id, 1) == []


def test_with_opponents_confirming_a_part_is_final_only_once_another_sides_phone_confirms_it(database):
    with db.using(database):
        game_id = new_game(Confirm.OPPONENTS)
        for part, phone in ((1, DAN), (2, EVE), ("ending", DAN)):
            waiting = save(game_id, part, phone)
        assert isinstance(waiting, OpenDeal) and waiting.unconfirmed == ("1", "2") and not waiting.complete
        assert reading.load_game(game_id).deals == []
        with pytest.raises(ConfirmRefused) as own_side:
            open_deals.confirm_part(game_id, 1, 1, FAY, by_side=1, version=1)
        with pytest.raises(ConfirmRefused) as own_phone:
            open_deals.confirm_part(game_id, 1, 1, DAN, by_side=2, version=1)
        with pytest.raises(ConfirmRefused) as stale:
            open_deals.confirm_part(game_id, 1, 1, EVE, by_side=2, version=2)
        assert (own_side.value.field, own_phone.value.field, stale.value.field) == ("side", "phone", "version")
        confirmed = open_deals.confirm_part(game_id, 1, 1, EVE, by_side=2, version=1)
        assert confirmed.part("1").confirmed_by == EVE and confirmed.unconfirmed == ("2",)
        changed = save(game_id, 1, DAN)  # a changed part needs confirming again
        assert (changed.part("1").version, changed.part("1").confirmed_by) == (1, EVE)  # unchanged: stays confirmed
        changed = save(game_id, 1, DAN, {"melds": ["K K K K K K K", "Q Q Q Q Q 2 2", "J J J"],
                                         "players": [{"name": "Ann", "foot_picked_up": True}]})
        assert changed.part("1").confirmed_by is None and changed.part("1").version == 2
        open_deals.confirm_part(game_id, 1, 1, EVE, by_side=2, version=2)
        recorded = open_deals.confirm_part(game_id, 1, 2, DAN, by_side=1, version=1)
        assert isinstance(recorded, DealRecord) and recorded.number == 1
        assert reading.history(game_id)[0]["entered_by"]["1"] == {"phone": DAN, "confirmed_by": EVE}


def test_a_game_asking_for_no_confirmation_refuses_one(database):
    with db.using(database):
        game_id = new_game()
        save(game_id, 1, DAN)
        with pytest.raises(ConfirmRefused) as err:
            open_deals.confirm_part(game_id, 1, 1, EVE, by_side=2, version=1)
        assert err.value.field == "confirm"


def test_a_part_saved_with_an_idempotency_key_is_saved_once(database):
    with db.using(database):
        game_id = new_game()
        once: Once[object] = Once("api.save_part", game_id, "part-1", "digest", "client")
        first = idempotency.once(once, lambda keyed: save(game_id, 1, DAN, once=keyed))
        again = idempotency.once(once, lambda keyed: save(game_id, 1, DAN, once=keyed))
        assert isinstance(first, OpenDeal) and again == Made(Kind.PART_SAVED, game_id, 1, 0)
        assert reading.moved(game_id).open == 1
        last: Once[object] = Once("api.save_part", game_id, "part-2", "digest", "client")
        save(game_id, "ending", DAN)
        idempotency.once(last, lambda keyed: save(game_id, 2, EVE, once=keyed))
        assert idempotency.once(last, lambda keyed: save(game_id, 2, EVE, once=keyed)) == \
            Made(Kind.DEAL_RECORDED, game_id, 1, 1)


def test_an_open_deal_survives_a_restart(database_setting):
    with db.using(backends.database(database_setting)) as before:
        game_id = new_game()
        save(game_id, 1, DAN)
        before.close()
    with db.using(backends.database(database_setting)) as after:  # another server, or this one restarted
        found = open_deals.read_open(game_id)
        assert [(p.part, p.phone) for p in found.parts] == [("1", DAN)]
        save(game_id, 2, EVE)
        assert isinstance(save(game_id, "ending", EVE), DealRecord)
        after.close()


def test_parts_saved_through_one_server_are_completed_through_another(database_setting):
    one, other = backends.database(database_setting), backends.database(database_setting)
    try:
        with db.using(one):
            game_id = new_game()
            save(game_id, 1, DAN)
            save(game_id, "ending", DAN)
            assert reading.load_game(game_id).revision == 0  # cached by this server at revision 0
        with db.using(other):
            assert isinstance(save(game_id, 2, EVE), DealRecord)
        with db.using(one):  # its cache still holds the game at revision 0, before deal 1
            opened = open_deals.save_ending(game_id, 2, EndingPart(Ending.STOCK_OUT), DAN)
            assert isinstance(opened, OpenDeal) and opened.number == 2
            game = reading.load_game(game_id)
            assert [d.number for d in game.deals] == [1] and open_deals.read_open(game_id).number == 2
            assert [p.part for p in open_deals.read_open(game_id).parts] == ["ending"]
            with pytest.raises(NotNext):
                save(game_id, 1, DAN, number=1)
    finally:
        one.close()
        other.close()


@pytest.mark.parametrize("round_", range(5))
def test_two_servers_saving_the_last_two_parts_at_once_write_the_deal_once(database, database_setting, round_):
    with db.using(database):
        game_id = new_game()
        save(game_id, 1, DAN)
    answers = race(database_setting, lambda: save(game_id, 2, EVE), lambda: save(game_id, "ending", FAY))
    assert sorted(type(a).__name__ for a in answers) == ["DealRecord", "OpenDeal"], answers
    with db.using(database):
        game = reading.load_game(game_id)
        assert [d.number for d in game.deals] == [1] and game.revision == 1
        assert [e["action"] for e in reading.history(game_id)] == ["record"]
        assert db.query("open_parts", game_id, 1) == []


@pytest.mark.parametrize("round_", range(3))
def test_two_servers_saving_the_same_last_part_at_once_write_one_deal_and_refuse_the_other(database,
                                                                                          database_setting, round_):
    with db.using(database):
        game_id = new_game()
        save(game_id, 1, DAN)
        save(game_id, 2, EVE)
    answers = race(database_setting, lambda: save(game_id, "ending", DAN), lambda: save(game_id, "ending", FAY))
    recorded = [a for a in answers if isinstance(a, DealRecord)]
    assert len(recorded) == 1 and all(isinstance(a, (DealRecord, NotNext, PartEntered, Full)) for a in answers)
    with db.using(database):
        assert [e["action"] for e in reading.history(game_id)] == ["record"]


def test_the_phones_of_a_deal_are_those_of_its_latest_writing_so_one_sent_whole_since_names_none(database):
    with db.using(database):
        game_id = new_game()
        for part, phone in ((1, DAN), (2, EVE), ("ending", DAN)):
            save(game_id, part, phone)
        assert set(reading.entered_by(game_id)) == {1}
        storage_writing.delete_deal(game_id, 1)
        assert reading.entered_by(game_id) == {}  # deleted: nobody's deal
        writing.record_deal(game_id, valid_deal(1))  # recorded again, sent whole
        assert reading.entered_by(game_id) == {}
        storage_writing.delete_deal(game_id, 1)
        for part, phone in ((1, EVE), (2, DAN), ("ending", EVE)):
            save(game_id, part, phone)
        assert reading.entered_by(game_id) == {1: {"1": reading.PartEntry(EVE, None), "2": reading.PartEntry(DAN, None),
                                                   "ending": reading.PartEntry(EVE, None)}}
        corrected = valid_deal(1)
        corrected["sides"][1]["red_threes"] = 1
        writing.update_deal(game_id, 1, corrected)  # corrected whole: the phones no longer stand for it
        assert reading.entered_by(game_id) == {}
