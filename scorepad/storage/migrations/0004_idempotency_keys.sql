-- Idempotency keys: a write sent with a key is made once. The key is kept with the first
-- answer, written in the write's own transaction, so the same request sent again within 24
-- hours gets the same answer and writes nothing (scorepad.storage.idempotency.once).
CREATE TABLE idempotency_key (
    route       TEXT NOT NULL,             -- what the write does, as the door names it
    game_id     TEXT NOT NULL,             -- the game written to; '' for a new game
    key         TEXT NOT NULL,             -- the client's key
    digest      TEXT NOT NULL,             -- of the request: the key sent with another request is refused
    status      INTEGER NOT NULL,          -- the first answer: its status and body (JSON text)
    body        TEXT NOT NULL,
    at          TEXT NOT NULL,             -- when it was written (UTC); older than 24 hours, it is forgotten
    PRIMARY KEY (route, game_id, key)
);

CREATE INDEX idempotency_key_by_time ON idempotency_key (at);
