"""Who may change a game: whoever holds its edit key.

A game has two links. The view link (``/games/<id>``) lets anyone watch. The edit link
(``/games/<id>/edit/<key>``) hands this browser the edit key, kept in the signed session
cookie, and redirects to the view link, so the key never stays in the address bar. The
JSON API takes the key as ``Authorization: Bearer <key>``.

The session is permanent (it outlasts the browser, for ``PERMANENT_SESSION_LIFETIME``) and
holds this browser's games in order of use, those it may edit and those it watches, capped
so that the cookie stays under a browser's 4 KB.

A game's edit key may be replaced (``writing.replace_edit_key``): a browser still holding the
old one, in its session or in an edit link, is told so and given the view link, and the
game stays among its games as one it watches.
"""

from __future__ import annotations

import hmac
import secrets
from typing import NoReturn

from flask import Response, abort, make_response, render_template, request, session

from .rules.limits import MAX_GAMES_REMEMBERED, MAX_GAMES_WATCHED
from .storage import reading
from .storage.reading import DealRecord, GameRecord

NO_GAME = "There is no game at this address. Check the link, or ask the table for it again."


def game_or_404(game_id: str) -> GameRecord:
    """The game at this address, or a friendly 404 (410 when it was deleted: :func:`missing`)."""
    game = reading.load_game(game_id)
    if game is None:
        missing(game_id)
    return game


def missing(game_id: str) -> NoReturn:
    """There is no game at this address: a 410 saying when it was deleted, else a 404."""
    deleted = reading.gone(game_id)
    if deleted is not None:
        abort(410, f"{deleted.sentence.replace('The game', 'This game', 1)} Its deals and history went with it.")
    abort(404, NO_GAME)


def deal_or_404(game: GameRecord, number: int) -> DealRecord:
    """Deal ``number`` of ``game``, or a friendly 404 when it is not recorded."""
    record = game.deal(number)
    if record is None:
        abort(404, f"Deal {number} of this game is not recorded.")
    return record


def _games() -> list[list[str]]:
    """This browser's games, the one used most recently first: ``[game id, key]`` for a game
    it may edit, ``[game id]`` for one it watches. (A list: the session's JSON sorts an
    object's keys, which would order them by id.)"""
    games = session.get("games", session.get("edit", []))
    if isinstance(games, dict):  # a cookie from before the order of use was kept: {id: key}
        return [[game_id, key] for game_id, key in reversed(list(games.items()))]
    return [entry for entry in games if isinstance(entry, list) and entry] if isinstance(games, list) else []


def _held() -> list[list[str]]:
    """This browser's edit keys as ``[game id, key]`` pairs, the game used most recently first."""
    return [entry for entry in _games() if len(entry) == 2]


def _remember(first: list[str]) -> None:
    """Put ``first`` at the front of this browser's games, keeping at most
    :data:`MAX_GAMES_REMEMBERED` edit keys and :data:`MAX_GAMES_WATCHED` watched games (the
    ones used least recently go), in a permanent session: the cookie lasts
    ``PERMANENT_SESSION_LIFETIME``, not only until the browser closes."""
    kept, keys, watched = [first], int(len(first) == 2), int(len(first) == 1)
    for entry in _games():
        if entry[0] == first[0]:
            continue
        if len(entry) == 2 and keys < MAX_GAMES_REMEMBERED:
            keys += 1
            kept.append(entry)
        elif len(entry) == 1 and watched < MAX_GAMES_WATCHED:
            watched += 1
            kept.append(entry)
    session.pop("edit", None)  # the name before watched games were kept
    session["games"] = kept
    session.permanent = True


def grant(game: GameRecord) -> None:
    """Remember in this browser that it may edit ``game``, as its most recently used game;
    past :data:`MAX_GAMES_REMEMBERED`, the game used least recently is forgotten."""
    _remember([game.id, game.edit_key])


def used(game: GameRecord) -> None:
    """This browser opened or changed ``game``: it moves to the front of its games."""
    games = _games()
    if not games or games[0][0] != game.id:
        if can_edit(game):
            grant(game)
        else:
            watched(game.id)


def watched(game_id: str) -> None:
    """This browser opened the game ``game_id`` (which exists) without its edit key: it
    moves to the front of its games, as one it watches (home lists it)."""
    games = _games()
    if not games or games[0] != [game_id]:
        _remember([game_id])


def _same(key: str, expected: str) -> bool:
    # As bytes: compare_digest refuses str with non-ASCII characters (a TypeError, a 500).
    return hmac.compare_digest(key.encode("utf-8", "replace"), expected.encode())


def key_matches(game: GameRecord, key: str | None) -> bool:
    """Whether ``key`` is the game's edit key, or the organiser's key of the club night the game
    is a table of (which grants every right on the event's games: looked up only when the key
    is not the game's own)."""
    if not key:
        return False
    if _same(str(key), game.edit_key):
        return True
    organiser = reading.organiser_key_of(game.id) if game.event_id is not None else None
    return organiser is not None and _same(str(key), organiser)


def event_keys() -> list[list[str]]:
    """The club nights this browser organises: ``[event id, organiser key]``, the latest first."""
    held = session.get("events", [])
    return [entry for entry in held if isinstance(entry, list) and len(entry) == 2] if isinstance(held, list) else []


def grant_event(event_id: str, key: str) -> None:
    """This browser holds the organiser's key of the event (at most MAX_GAMES_REMEMBERED kept)."""
    session["events"] = [[event_id, key], *[e for e in event_keys() if e[0] != event_id]][:MAX_GAMES_REMEMBERED]
    session.permanent = True


def organises(event_id: str, organiser_key: str) -> bool:
    """Whether this browser holds the event's organiser key."""
    return any(held_id == event_id and _same(key, organiser_key) for held_id, key in event_keys())


def _key_held(game_id: str) -> str | None:
    return next((key for held_id, key in _held() if held_id == game_id), None)


def key_held(game_id: str) -> str | None:
    """The edit key this browser holds for the game (perhaps one replaced since), or None."""
    return _key_held(game_id)


def may_hold_key(game_id: str) -> bool:
    """Whether this browser holds some key for the game (checked by :func:`can_edit`)."""
    return _key_held(game_id) is not None


def can_edit(game: GameRecord) -> bool:
    """True when this browser holds the game's edit key, or organises the club night the game is
    a table of."""
    held = _key_held(game.id)
    if held is not None and _same(held, game.edit_key):
        return True
    if game.event_id is None or not event_keys():
        return False
    organiser = reading.organiser_key_of(game.id)
    return organiser is not None and any(_same(key, organiser) for _, key in event_keys())


def replaced_key(game: GameRecord) -> str | None:
    """When the edit key this browser holds for ``game`` was replaced; None when it holds the
    game's key, none, or one that never was the game's. A replaced key is forgotten: the game
    stays among this browser's games, as one it watches."""
    held = _key_held(game.id)
    if held is None or key_matches(game, held):
        return None
    at = reading.replaced_at(game.id, held)
    if at is not None:
        _remember([game.id])
    return at


def time_words(at: str) -> str:
    """A time as the database keeps it (UTC), as the pages say times: ``2026-12-01 22:36 UTC``."""
    return f"{at.replace('T', ' ').removesuffix('+00:00')[:16]} UTC"


def key_replaced_page(game: GameRecord, at: str, opened: bool = False) -> Response:
    """The 403 page of an edit key the game no longer has: when it was replaced, and the view
    link. ``opened``: the key came in an edit link opened now, not from this browser's
    session; then the page says whether this phone can still edit (it holds the new key)."""
    return make_response(render_template("games/key_replaced.html", game=game, at=at, when=time_words(at),
                                         opened=opened, can_edit=opened and can_edit(game)), 403)


def require_edit(game: GameRecord) -> None:
    """A 403 unless this browser may edit ``game`` (saying so, with the view link, when its
    key was replaced); when it may, the game counts as used."""
    if not can_edit(game):
        at = replaced_key(game)
        if at is not None:
            abort(key_replaced_page(game, at))
        abort(403, "This is the view link: only the edit link can change the game.")
    used(game)


def session_client() -> str | None:
    """This browser's own random id, kept in its session (:func:`know_client`), or None when
    the request's session holds none: what its idempotency keys for new games are scoped by
    (:func:`scorepad.api.http.client_scope`, which falls back to the address). Never made
    here, inside a write: were its answer lost, the cookie with the new id would be lost with
    it, and the retry would be another client's, making a second game."""
    token = session.get("client")
    return token if isinstance(token, str) and token else None


def know_client() -> None:
    """Give this browser its own random id (:func:`session_client`) when its session has none:
    when it is served a page whose form creates a game (a new game, an import), so the id is
    in its cookie before any create it scopes."""
    if session_client() is None:
        session["client"] = secrets.token_urlsafe(16)


def keep_keys_private(response: Response) -> Response:
    """``Cache-Control: no-store`` on a response that sets a session cookie holding edit
    keys or this browser's own id (the cookie is signed, not secret): no cache may keep a
    copy of it."""
    if session.modified and (_held() or session_client()):
        response.headers["Cache-Control"] = "no-store"
    return response


def bearer_key() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, key = header.partition(" ")
    return key.strip() if scheme.lower() == "bearer" and key.strip() else None


def my_games() -> list[str]:
    """Ids of the games this browser may edit or watches, the one used most recently first."""
    return [entry[0] for entry in _games()]
