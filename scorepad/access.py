"""Who may change a game: whoever holds its edit key.

A game has two links. The view link (``/games/<id>``) lets anyone watch. The edit link
(``/games/<id>/edit/<key>``) hands this browser the edit key, kept in the signed session
cookie, and redirects to the view link, so the key never stays in the address bar. The
JSON API takes the key as ``Authorization: Bearer <key>``.
"""

from __future__ import annotations

import hmac

from flask import abort, request, session

from . import store
from .rules.limits import MAX_GAME_ID, MAX_GAMES_REMEMBERED
from .store import GameRecord

NO_GAME = "There is no game at this address. Check the link, or ask the table for it again."


def game_or_404(game_id: str) -> GameRecord:
    """The game at this address, or a friendly 404."""
    game = store.load_game(game_id) if len(game_id) <= MAX_GAME_ID else None
    if game is None:
        abort(404, NO_GAME)
    return game


def grant(game: GameRecord) -> None:
    """Remember in this browser that it may edit ``game``."""
    keys = dict(session.get("edit", {}))
    keys.pop(game.id, None)
    keys[game.id] = game.edit_key
    session["edit"] = dict(list(keys.items())[-MAX_GAMES_REMEMBERED:])


def key_matches(game: GameRecord, key: str | None) -> bool:
    # As bytes: compare_digest refuses str with non-ASCII characters (a TypeError, a 500).
    return bool(key) and hmac.compare_digest(str(key).encode("utf-8", "replace"), game.edit_key.encode())


def may_hold_key(game_id: str) -> bool:
    """Whether this browser holds some key for the game (checked by :func:`can_edit`)."""
    return game_id in session.get("edit", {})


def can_edit(game: GameRecord) -> bool:
    """True when this browser holds the game's edit key."""
    return key_matches(game, session.get("edit", {}).get(game.id))


def require_edit(game: GameRecord) -> None:
    if not can_edit(game):
        abort(403, "This is the view link: only the edit link can change the game.")


def bearer_key() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, key = header.partition(" ")
    return key.strip() if scheme.lower() == "bearer" and key.strip() else None


def my_games() -> list[str]:
    """Ids of the games this browser may edit, oldest first."""
    return list(session.get("edit", {}))
