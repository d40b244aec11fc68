"""The cache counts what it holds (issue 21, item 9): pages were counted by their length in
UTF-8, but Python holds a text with one character past U+FFFF at 4 bytes a character, so
pages naming a side "🂡 Ann" held up to 4 × CACHE_BYTES. Pages are now kept as the bytes
sent, and anything measured is counted at what it takes in memory (``sys.getsizeof``)."""

from __future__ import annotations

import sys

from scorepad.app import create_app
from scorepad.storage.cache import ByteCache
from tests.helpers import api_game, valid_deal

ACE = "\U0001F0A1"  # 🂡, the ace of spades: a character past U+FFFF


def _held(values: list[object]) -> int:
    """What the pages and bodies among ``values`` take in memory, as Python reports it."""
    return sum(sys.getsizeof(value) for value in values if isinstance(value, (bytes, str)))


def test_a_text_with_a_character_past_u_ffff_is_counted_at_what_it_holds():
    kept = ByteCache(1_000_000)
    for i in range(40):
        kept.put(i, f"<p>{ACE}</p>" + "x" * 50_000 + str(i))  # 50 kB as UTF-8, 200 kB held
    values = kept.values()
    assert 0 < len(values) < 40  # it had to evict
    assert _held(values) <= kept.used <= kept.budget


def test_pages_naming_sides_past_u_ffff_keep_the_cache_within_its_budget(tmp_path):
    budget = 1_000_000
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "s.sqlite"), "SECRET_KEY": "t",
                      "CACHE_BYTES": budget})
    client = app.test_client()
    ann, bea = f"{ACE} Ann", f"Bea {ACE}"
    sides = [{"name": ann, "players": [ann]}, {"name": bea, "players": [bea]}]
    viewer = app.test_client()  # no edit key: the pages every viewer is sent, kept
    for i in range(16):
        game_id, _ = api_game(client, name=f"{ACE} Friday {i}", sides=sides,
                              deals=[valid_deal(1, ann, bea), valid_deal(2, ann, bea)])
        for path in (f"/games/{game_id}", f"/games/{game_id}/rescore?sheet=pagat", f"/games/{game_id}/history"):
            page = viewer.get(path)
            assert page.status_code == 200 and ACE in page.get_data(as_text=True)
    kept = app.extensions["scorepad.cache"]
    values = kept.values()
    assert sum(isinstance(value, (bytes, str)) for value in values) >= 8  # full of pages, the rest evicted
    assert _held(values) <= kept.used <= budget
