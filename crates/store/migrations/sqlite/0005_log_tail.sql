-- Log entries as they arrive, in arrival order (`seq`), before they are folded into
-- `match_log` in batches (see `matches/log_tail.rs`). Appending here puts every entry
-- of a commit into the same page or two; appending to `match_log` directly put each
-- entry into its own match's page. Readers take the union of both tables. No index on
-- `match_id`: it would cost a page per match again; the table stays short instead.
-- Keep in step with the other flavour.
CREATE TABLE match_log_tail (
    seq      INTEGER PRIMARY KEY,
    match_id INTEGER NOT NULL REFERENCES matches (id),
    idx      INTEGER NOT NULL,
    entry    TEXT    NOT NULL
);
