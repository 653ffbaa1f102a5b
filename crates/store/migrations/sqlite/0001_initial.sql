-- Arbiter's schema, SQLite flavour. Keep in step with migrations/postgres: the same
-- tables, columns and meanings. Times are Unix milliseconds; JSON is stored as text.

CREATE TABLE accounts (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    name          TEXT    NOT NULL,
    -- the name lowercased: names are unique regardless of case
    name_key      TEXT    NOT NULL UNIQUE,
    password_hash TEXT    NOT NULL,
    created_at    INTEGER NOT NULL
);

CREATE TABLE matches (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    ruleset        TEXT    NOT NULL,
    config         TEXT    NOT NULL,
    -- the u64 seed in decimal
    seed           TEXT    NOT NULL,
    record_format  INTEGER NOT NULL,
    initial_digest TEXT    NOT NULL,
    -- NULL for an unrated match
    rating_system  TEXT    CHECK (rating_system IN ('elo', 'weng_lin')),
    -- the server that runs (or ran) the match
    node           TEXT    NOT NULL,
    status         TEXT    NOT NULL CHECK (status IN ('running', 'finished', 'aborted')),
    outcome        TEXT,
    end_reason     TEXT,
    created_at     INTEGER NOT NULL,
    finished_at    INTEGER
);
CREATE INDEX matches_by_ruleset ON matches (ruleset, id);
CREATE INDEX matches_by_status ON matches (status, node);

CREATE TABLE match_seats (
    match_id   INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    account_id INTEGER REFERENCES accounts (id),
    bot        TEXT,
    -- filled when the match finishes
    rank       INTEGER,
    score      INTEGER,
    ejected    TEXT,
    result     TEXT    CHECK (result IN ('win', 'draw', 'loss')),
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX match_seats_by_account ON match_seats (account_id, match_id);

-- One row per log entry, written as the match goes.
CREATE TABLE match_log (
    match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    idx      INTEGER NOT NULL,
    entry    TEXT    NOT NULL,
    PRIMARY KEY (match_id, idx)
) WITHOUT ROWID;

CREATE TABLE ratings (
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    ruleset    TEXT    NOT NULL,
    system     TEXT    NOT NULL CHECK (system IN ('elo', 'weng_lin')),
    -- Elo: mu is the rating, sigma 0. Weng-Lin: skill estimate and its uncertainty.
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    display    INTEGER NOT NULL,
    games      INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (account_id, ruleset)
);
CREATE INDEX ratings_by_display ON ratings (ruleset, display);

CREATE TABLE rating_history (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    ruleset    TEXT    NOT NULL,
    match_id   INTEGER REFERENCES matches (id),
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    display    INTEGER NOT NULL,
    at         INTEGER NOT NULL,
    -- a match moves each player's rating once
    UNIQUE (match_id, account_id)
);
CREATE INDEX rating_history_by_account ON rating_history (account_id, ruleset, id);
