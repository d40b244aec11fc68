"""Writes made once per idempotency key, the doors' side (the pages' deal form and edit-link
form, the API's ``Idempotency-Key``): what a key may be (:data:`KEY`), a request in a digest
(:func:`digest_of`), and a door's write made once on the request's route (:func:`make_once`).
Storage keeps the key with what the write made (:mod:`scorepad.storage.idempotency`); each
door answers a replay from that fact as it answered the first request, and says what a key
kept for another request, or one still being written, means to it.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from typing import TypeVar

from flask import request

from .rules.limits import MAX_IDEMPOTENCY_KEY
from .storage import idempotency
from .storage.idempotency import KeyTaken, Made, Once

T = TypeVar("T")

KEY = re.compile(f"[ -~]{{1,{MAX_IDEMPOTENCY_KEY}}}")  # 1 to 255 printable ASCII characters, such as a UUID


def is_key(sent: str) -> bool:
    """Whether ``sent`` may be an idempotency key (:data:`KEY`)."""
    return KEY.fullmatch(sent) is not None


def digest_of(parts: object, compact: bool = False) -> str:
    """What a request sent, in a SHA-256 digest (hex) of its JSON, keys sorted (so their order
    does not count). ``compact`` writes the JSON without spaces, as the API always has: a key
    kept before is still matched by the same request."""
    text = json.dumps(parts, sort_keys=True, separators=(",", ":") if compact else None)
    return hashlib.sha256(text.encode()).hexdigest()


def make_once(game_id: str, key: str, digest: str, client: str, write: Callable[[Once[T]], T]) -> T | Made | KeyTaken:
    """``write``, made at most once per ``key`` of ``client`` on this request's route (its
    endpoint) and game (``""`` for a new one), the request standing as ``digest``
    (:func:`scorepad.storage.idempotency.once`): what it returns, or what the first request
    with the key made (:class:`~scorepad.storage.idempotency.Made`), or why neither."""
    keyed: Once[T] = Once(request.endpoint or request.path, game_id, key, digest, client=client)
    return idempotency.once(keyed, write)
