"""A club's season ladder (scorepad.rules.ladder, issue 27): two small evenings of one club,
worked by hand. Two Anns told apart by their member numbers; Ben matched across evenings by
his name, whatever its case; Cat, numbered only the second evening, still one player.

Each deal on the common sheet: going out with a clean book of kings (7 x 10 + 500) and a
dirty book of queens (5 x 10 + 2 x 20 + 300) and the going-out bonus (100) scores 1,060, less
a partner's 4 still held (5): 1,055, two books. The side left with ``J J J`` (30) and an ace
(20) and a black three (5) in its hands scores 5, no book; with a clean book of jacks
(7 x 10 + 500) instead, 545, one book.
"""

from __future__ import annotations

from typing import Any

import pytest

from scorepad.rules import Deal, preset
from scorepad.rules.club_night import Entrant
from scorepad.rules.game import Game
from scorepad.rules.ladder import LadderEvent, LadderTable, ladder

COMMON = preset("common")
OUT_MELDS = ["K K K K K K K", "Q Q Q Q Q 2 2"]


def _side(name: str, players: tuple[str, str], melds: list[str], left: tuple[str, str]) -> dict[str, Any]:
    return {"name": name, "melds": melds,
            "players": [{"name": p, "foot_picked_up": True, "cards_left": held}
                        for p, held in zip(players, left, strict=True)]}


def _deal(number: int, out: tuple[str, str], other: tuple[str, str], other_melds: list[str]) -> dict[str, Any]:
    """``out[0]`` goes out for her side (her partner holds a 4); the other side melds
    ``other_melds`` and holds an ace and a black three."""
    return {"deal": number, "ending": "went_out", "went_out": out[0],
            "sides": [_side(" and ".join(out), out, OUT_MELDS, ("", "4")),
                      _side(" and ".join(other), other, other_melds, ("A", "3B"))]}


def _table(sides: tuple[tuple[str, str], ...], deals: list[dict[str, Any]], finished: bool = True) -> LadderTable:
    names = tuple(" and ".join(side) for side in sides)
    game = Game(COMMON, names, tuple(Deal.from_json(d, COMMON, number=d["deal"]) for d in deals))
    return LadderTable(game, sides, finished)


# First evening: Ann (member 101) and Ben beat Cat and Dan, 1,600 to 1,060 over two deals.
FIRST = LadderEvent(
    (Entrant("Ann", "101"), Entrant("Ben"), Entrant("Cat"), Entrant("Dan")),
    (_table((("Ann", "Ben"), ("Cat", "Dan")),
            [_deal(1, ("Ann", "Ben"), ("Cat", "Dan"), ["J J J"]),               # Ann out: 1,055 to 5
             _deal(2, ("Cat", "Dan"), ("Ann", "Ben"), ["J J J J J J J"])]),),   # Cat out: 1,055 to 545
)
# Second evening: another Ann (member 202) and "ben" lose to Cat (now member 303) and Eve, 5 to 1,055.
SECOND = LadderEvent(
    (Entrant("Ann", "202"), Entrant("ben"), Entrant("Cat", "303"), Entrant("Eve")),
    (_table((("Eve", "Cat"), ("Ann", "ben")), [_deal(1, ("Eve", "Cat"), ("Ann", "ben"), ["J J J"])]),),
)


def test_the_season_ladder_ranks_by_wins_then_average_deal_score_with_hand_worked_figures():
    rows = ladder([FIRST, SECOND])
    got = [(r.place, r.name, r.member, r.events, r.games, r.wins, r.deals, r.points, r.books, r.went_out)
           for r in rows]
    assert got == [
        (1, "Eve", None, 1, 1, 1, 1, 1055, 2, 1),   # average 1,055
        (2, "Ann", "101", 1, 1, 1, 2, 1600, 3, 1),  # 1,055 + 545: average 800
        (3, "Cat", "303", 2, 2, 1, 3, 2115, 4, 1),  # 5 + 1,055 + 1,055: average 705
        (4, "ben", None, 2, 2, 1, 3, 1605, 3, 0),   # 1,055 + 545 + 5: average 535
        (5, "Dan", None, 1, 1, 0, 2, 1060, 2, 0),   # 5 + 1,055: average 530
        (6, "Ann", "202", 1, 1, 0, 1, 5, 0, 0),     # the other Ann
    ]
    cat = rows[2]
    assert cat.average == 705 and cat.books_per_deal == pytest.approx(4 / 3)
    assert cat.went_out_share == pytest.approx(1 / 3)
    ann = rows[1]
    assert (ann.average, ann.books_per_deal, ann.went_out_share) == (800, 1.5, 0.5)
    assert rows[1].to_json() == {"place": 2, "name": "Ann", "member": "101", "events": 1, "games": 1, "wins": 1,
                                 "deals": 2, "points": 1600, "average_deal_score": 800.0, "books": 3,
                                 "books_per_deal": 1.5, "went_out": 1, "went_out_share": 0.5}


def test_a_member_number_under_another_spelling_is_the_same_player():
    renamed = LadderEvent((Entrant("Annie", "101"), Entrant("Ben"), Entrant("Cat"), Entrant("Dan")), ())
    rows = ladder([FIRST, renamed])
    assert [(r.name, r.member, r.events) for r in rows if r.member == "101"] == [("Annie", "101", 2)]


def test_an_ann_without_a_number_who_could_be_either_numbered_ann_is_listed_apart():
    unsure = LadderEvent((Entrant("Ann"), Entrant("Zed"), Entrant("Yan"), Entrant("Xia")), ())
    rows = ladder([FIRST, SECOND, unsure])
    assert sorted((r.member or "", r.events) for r in rows if r.name == "Ann") == [("", 1), ("101", 1), ("202", 1)]


def test_a_table_still_playing_counts_its_deals_but_no_win():
    playing = LadderEvent(FIRST.roster, (_table((("Ann", "Ben"), ("Cat", "Dan")),
                                                [_deal(1, ("Ann", "Ben"), ("Cat", "Dan"), ["J J J"])],
                                                finished=False),))
    rows = {r.name: r for r in ladder([playing])}
    assert (rows["Ann"].wins, rows["Ann"].deals, rows["Ann"].points) == (0, 1, 1055)
    assert [r.place for r in ladder([playing])] == [1, 1, 3, 3]  # equal on wins and average: one place
