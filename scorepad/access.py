"""Who may change a game: whoever holds its edit key.

A game has two links. The view link (``/games/<id>``) lets anyone watch. The edit link
(``/games/<id>/edit/<key>``) hands this browser the edit key, kept in the signed session
cookie, and redirects to the view link, so the key never stays in the address bar. The
JSON API takes the key as ``Authorization: Bearer <key>``.
"""

from __future__ import annotations

import hmac

from flask import Response, abort, request, session

from .rules.limits import MAX_GAME_ID, MAX_GAMES_REMEMBERED
from .storage import store
from .storage.store import DealRecord, GameRecord

NO_GAME = "There is no game at this address. Check the link, or ask the table for it again."


def game_or_404(game_id: str) -> GameRecord:
    """The game at this address, or a friendly 404."""
    game = store.load_game(game_id) if len(game_id) <= MAX_GAME_ID else None
    if game is None:
        abort(404, NO_GAME)
    return game


def deal_or_404(game: GameRecord, number: int) -> DealRecord:
    """Deal ``number`` of ``game``, or a friendly 404 when it is not recorded."""
    record = game.deal(number)
    if record is None:
        abort(404, f"Deal {number} of this game is not recorded.")
    return record


def _held() -> list[list[str]]:
    """This browser's edit keys as ``[game id, key]`` pairs, the game used most recently
    first. (A list: the session's JSON sorts an object's keys, which would order them by id.)"""
    held = session.get("edit", [])
    if isinstance(held, dict):  # a cookie from before the order of use was kept
        return [[game_id, key] for game_id, key in reversed(list(held.items()))]
    return held if isinstance(held, list) else []


def grant(game: GameRecord) -> None:
    """Remember in this browser that it may edit ``game``, as its most recently used game;
    past :data:`MAX_GAMES_REMEMBERED`, the game used least recently is forgotten."""
    held = [pair for pair in _held() if pair[0] != game.id]
    session["edit"] = [[game.id, game.edit_key], *held][:MAX_GAMES_REMEMBERED]


def used(game: GameRecord) -> None:
    """This browser opened or changed ``game``: it moves to the front of its games."""
    held = _held()
    if held and held[0][0] != game.id and can_edit(game):
        grant(game)


def key_matches(game: GameRecord, key: str | None) -> bool:
    # As bytes: compare_digest refuses str with non-ASCII characters (a TypeError, a 500).
    return bool(key) and hmac.compare_digest(str(key).encode("utf-8", "replace"), game.edit_key.encode())


def _key_held(game_id: str) -> str | None:
    return next((key for held_id, key in _held() if held_id == game_id), None)


def may_hold_key(game_id: str) -> bool:
    """Whether this browser holds some key for the game (checked by :func:`can_edit`)."""
    return _key_held(game_id) is not None


def can_edit(game: GameRecord) -> bool:
    """True when this browser holds the game's edit key."""
    return key_matches(game, _key_held(game.id))


def require_edit(game: GameRecord) -> None:
    """A 403 unless this browser may edit ``game``; when it may, the game counts as used."""
    if not can_edit(game):
        abort(403, "This is the view link: only the edit link can change the game.")
    used(game)


def keep_keys_private(response: Response) -> Response:
    """``Cache-Control: no-store`` on a response that sets a session cookie holding edit
    keys (the cookie is signed, not secret): no cache may keep a copy of it."""
    if session.modified and _held():
        response.headers["Cache-Control"] = "no-store"
    return response


def bearer_key() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, key = header.partition(" ")
    return key.strip() if scheme.lower() == "bearer" and key.strip() else None


def my_games() -> list[str]:
    """Ids of the games this browser may edit, the one used most recently first."""
    return [game_id for game_id, _ in _held()]
