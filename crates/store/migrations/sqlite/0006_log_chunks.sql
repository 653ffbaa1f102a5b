-- Entries folded out of `match_log_tail` (see `matches/log_tail.rs`), one row for each
-- match a fold moved: `entries` consecutive entries from `first_idx` on, their JSON
-- texts joined by newlines in `log` (compact JSON holds no raw newline). A fold so
-- inserts a row a match instead of a row an entry into a table keyed by match, where
-- each of a hundred running matches' rows split its own pages (most of a fold's time).
-- Readers take the union with `match_log` and the tail. A rowid table: new rows go to
-- its last page, and only the small index on the key is written in a match's place.
-- Keep in step with the other flavour.
CREATE TABLE match_log_chunk (
    match_id  INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    first_idx INTEGER NOT NULL,
    entries   INTEGER NOT NULL CHECK (entries > 0),
    log       TEXT    NOT NULL,
    PRIMARY KEY (match_id, first_idx)
);
