"""The knee: a third pile some sheets deal each player (``knee_size``), played after the hand and
before the foot, and what the referee checks of it.

A deal with a knee (``knee_size`` above 0 in that deal) records for each player whether the knee
was picked up (``knee_picked_up``; absent, as ``foot_picked_up``: a foot picked up means the knee
was) and, when it was not, the unopened knee's cards (``knee``), as the foot is recorded. An
unopened knee counts against its side as an unopened foot does (see :mod:`.lines`), and the player
who goes out must have played it (:func:`went_out_knee`).

>>> from scorepad.rules import Deal
>>> deal = Deal.from_json({"sheet": {"preset": "common", "knee_size": 13}, "deal": 1, "ending": "stock_out",
...     "sides": [{"name": "Ann", "players": [{"name": "Ann", "foot_picked_up": False, "knee_picked_up": False,
...                                            "knee": "K Q", "foot": "A A 10 10 10 8 8 7 6 5 JK"}]},
...               {"name": "Bea", "players": [{"name": "Bea", "foot_picked_up": True}]}]})
>>> [(p.code, p.player) for p in knee_problems(deal)]
[('knee.size', 'Ann')]
"""

from __future__ import annotations

from collections.abc import Iterator

from .deal import Deal, Player
from .problems import Problem


def knee_problems(deal: Deal) -> Iterator[Problem]:
    """Each player's knee against the deal's: none recorded where the deal has no knee; where it
    has one, not left behind once the foot is picked up, not listed once picked up, and an
    unopened one holding exactly the knee's cards."""
    size = deal.sheet.knee_at(deal.number)
    for i, j, player in deal.players():
        yield from _player_knee(deal.number, size, player, f"sides[{i}].players[{j}]", deal.sides[i].name)


def _player_knee(number: int, size: int, player: Player, here: str, side: str) -> Iterator[Problem]:
    name, knee = player.name, player.knee
    if min(knee.counts()) < 0:
        yield Problem("count.negative", f"{name}'s knee has a negative count.", None, f"{here}.knee", side, name,
                      field="knee")
    if size == 0:
        if knee:
            yield Problem("knee.size", f"Deal {number} deals no knee, so {name} has no unopened knee: leave it "
                          "out.", "knee_size", f"{here}.knee", side, name, field="knee")
        elif player.knee_picked_up is not None:
            yield Problem("knee.picked_up", f"Deal {number} deals no knee, so leave out whether {name} picked one "
                          "up.", "knee_size", f"{here}.knee_picked_up", side, name, field="knee_picked_up")
        return
    if player.foot_picked_up and player.knee_picked_up is False:
        yield Problem("knee.picked_up", f"{name} picked up the foot but not the knee; the knee is played before "
                      "the foot.", "knee_size", f"{here}.knee_picked_up", side, name, field="knee_picked_up")
    elif player.picked_knee:
        if knee:
            yield Problem("knee.picked_up", f"{name} picked up the knee, so it is not unopened: record what is "
                          "left of it as cards left.", None, f"{here}.knee", side, name, field="knee")
    elif knee.total != size:
        yield Problem("knee.size", f"{name}'s unopened knee holds {knee.total} cards; a knee is dealt {size} "
                      f"in deal {number} (or say it was picked up).", "knee_size", f"{here}.knee", side, name,
                      field="knee")


def went_out_knee(deal: Deal, i: int, j: int) -> Iterator[Problem]:
    """The player who went out (player ``j`` of side ``i``) never picked up the knee, in a deal
    with one, on a sheet where the foot is played before going out (``go_out_foot``): the knee
    comes before the foot."""
    player = deal.sides[i].players[j]
    if deal.sheet.go_out_foot and deal.sheet.knee_at(deal.number) and not player.picked_knee:
        yield Problem("went_out.cards_left", f"{player.name} went out without picking up the knee; the knee and "
                      "then the foot must be played first.", "go_out_foot", f"sides[{i}].players[{j}].knee_picked_up",
                      deal.sides[i].name, player.name, field="knee_picked_up")
