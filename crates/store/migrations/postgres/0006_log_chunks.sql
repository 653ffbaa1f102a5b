-- Entries folded out of SQLite's log tail, a row for each match a fold moved (see
-- `matches/log_tail.rs`). PostgreSQL appends to `match_log` directly, so this table
-- stays empty here; it exists so that readers take the same union on either backend.
-- Keep in step with the other flavour.
CREATE TABLE match_log_chunk (
    match_id  BIGINT NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    first_idx BIGINT NOT NULL,
    entries   BIGINT NOT NULL CHECK (entries > 0),
    log       TEXT   NOT NULL,
    PRIMARY KEY (match_id, first_idx)
);
