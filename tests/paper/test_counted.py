"""The results PDF of a game with a counted deal: its lines as scored, read back from the PDF's text."""

from __future__ import annotations

from tests.api.test_counted import bench_game
from tests.paper.test_pdf import get_pdf, text_of


def test_the_results_pdf_lists_a_counted_deals_lines(client):
    game_id, _ = bench_game(client)
    text = text_of(get_pdf(client, f"/games/{game_id}/results.pdf"))
    assert "Deal 1: Ann went out" in text
    for line in ("Melded card points 1 × 415 = 415", "Clean books 3 × 500 = 1,500", "Dirty books 2 × 300 = 600",
                 "Red threes laid 4 × 100 = 400", "Going out 1 × 100 = 100", "Cal's hand: points 1 × -45 = -45",
                 "Melded card points 1 × 235 = 235", "Bea's hand: points 1 × -30 = -30",
                 "Dan's hand: points 1 × -55 = -55"):
        assert line in text, line
    assert "Deal total 2,970" in text and "Deal total 1,150" in text
