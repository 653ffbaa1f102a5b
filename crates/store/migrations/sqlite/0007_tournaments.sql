-- Tournaments: their settings, entrants, pairings (one row a game, its match once
-- started, its ranks once decided) and byes. Everything a director needs to go on after
-- a restart is here: a round's pairings are written, in one transaction, before any of
-- its matches starts. Keep in step with the other flavour.
CREATE TABLE tournaments (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    name         TEXT    NOT NULL,
    ruleset      TEXT    NOT NULL,
    -- the full configuration (defaults filled in), JSON
    config       TEXT    NOT NULL,
    format       TEXT    NOT NULL CHECK (format IN ('swiss', 'arena', 'round_robin')),
    seats        INTEGER NOT NULL,
    -- Swiss: the number of rounds; arena: how long it runs; otherwise NULL
    rounds       INTEGER,
    duration_ms  INTEGER,
    -- when it starts (Unix milliseconds), and/or once this many have joined
    starts_at    INTEGER,
    start_when   INTEGER,
    deadline_ms  INTEGER NOT NULL,
    time_bank_ms INTEGER NOT NULL,
    rated        INTEGER NOT NULL,
    max_entrants INTEGER NOT NULL,
    -- active entrants now (kept by join and withdraw, guarded against max_entrants)
    entrants     INTEGER NOT NULL DEFAULT 0,
    created_by   INTEGER REFERENCES accounts (id),
    -- the server whose director runs it
    node         TEXT    NOT NULL,
    status       TEXT    NOT NULL CHECK (status IN ('open', 'running', 'finished', 'cancelled')),
    -- the latest round (or arena pairing wave) written; 0 before the first
    round        INTEGER NOT NULL DEFAULT 0,
    created_at   INTEGER NOT NULL,
    started_at   INTEGER,
    finished_at  INTEGER
);
CREATE INDEX tournaments_by_status ON tournaments (status, node);

CREATE TABLE tournament_entrants (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    account_id    INTEGER NOT NULL REFERENCES accounts (id),
    name          TEXT    NOT NULL,
    -- the rating when joining: the pairing's order among equal scores
    rating        REAL    NOT NULL,
    status        TEXT    NOT NULL CHECK (status IN ('active', 'withdrawn')),
    joined_at     INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, account_id)
);

CREATE TABLE tournament_games (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL,
    -- account ids in seat order, JSON
    seats         TEXT    NOT NULL,
    -- the match playing it (the latest, if an earlier one was aborted by a restart)
    match_id      INTEGER REFERENCES matches (id),
    -- ranks in seat order (1 = best), JSON, once decided
    ranks         TEXT,
    -- decided without play (a withdrawn entrant's pairing)
    forfeit       INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX tournament_games_by_round ON tournament_games (tournament_id, round);

CREATE TABLE tournament_byes (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL,
    account_id    INTEGER NOT NULL REFERENCES accounts (id),
    PRIMARY KEY (tournament_id, round, account_id)
);
