"""A hand-written minimal scorer for ``bench/engine.py``'s deal: a measuring aid only, never
used by the product. It scores a parsed deal under the ``common`` sheet's prices written out
by hand (no options, no validation, no labels) and gives each side's line points, in the
judge's order, and its total; ``bench/engine.py`` checks them against the judge's before it
times both, so the floor is the least work that reproduces the same numbers.

Not a scorer for other sheets or deals: red threes in hand and the other sheets' lines are
left out on purpose.
"""

from __future__ import annotations

from scorepad.rules import Deal, Player

_RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4")
_PRICE = {"A": 20, "K": 10, "Q": 10, "J": 10, "10": 10, "9": 10, "8": 10,
          "7": 5, "6": 5, "5": 5, "4": 5, "2": 20, "JK": 50, "3B": 5}
_GROUPS = (50, 20, 10, 5)  # cards left are grouped by price, dearest first


def _left(lines: list[tuple[str, int]], code: str, counts: dict[str, int]) -> None:
    by_price = dict.fromkeys(_GROUPS, 0)
    for card, n in counts.items():
        if card != "3R":
            by_price[_PRICE[card]] += n
    for price in _GROUPS:
        if by_price[price]:
            lines.append((code, -price * by_price[price]))


def _player(lines: list[tuple[str, int]], player: Player, went_out: str | None) -> None:
    if player.name == went_out:
        lines.append(("going_out", 100))
    _left(lines, "cards_left", player.cards_left.to_json())
    if not player.foot_picked_up:
        foot = player.foot.to_json()
        _left(lines, "foot", foot)
        if "3R" in foot:
            lines.append(("red_threes.foot", 0))


def floor(deal: Deal) -> list[tuple[str, list[tuple[str, int]], int]]:
    """Each side's name, its lines as (code, points) and its total."""
    out = []
    for side in deal.sides:
        naturals = dict.fromkeys(_RANKS, 0)
        twos = jokers = clean = dirty = 0
        for meld in side.melds:
            naturals[meld.rank.value] += meld.naturals
            twos += meld.twos
            jokers += meld.jokers
            if meld.naturals + meld.twos + meld.jokers >= 7:
                if meld.twos or meld.jokers:
                    dirty += 1
                else:
                    clean += 1
        lines = [("melds.cards", _PRICE[rank] * n) for rank, n in naturals.items() if n]
        if twos:
            lines.append(("melds.cards", 20 * twos))
        if jokers:
            lines.append(("melds.cards", 50 * jokers))
        if clean:
            lines.append(("books.clean", 500 * clean))
        if dirty:
            lines.append(("books.dirty", 300 * dirty))
        if side.red_threes:
            lines.append(("red_threes.laid", 100 * side.red_threes))
        for player in side.players:
            _player(lines, player, deal.went_out)
        out.append((side.name, lines, sum(points for _, points in lines)))
    return out
