-- Log entries as they arrive, before they are folded into `match_log` (see
-- `matches/log_tail.rs`). PostgreSQL's log appends still go to `match_log` directly
-- (its heap is in arrival order already, and several nodes append at once), so this
-- table stays empty here; it exists so that readers take the same union on either
-- backend. Keep in step with the other flavour.
CREATE TABLE match_log_tail (
    seq      BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    match_id BIGINT NOT NULL REFERENCES matches (id),
    idx      BIGINT NOT NULL,
    entry    TEXT   NOT NULL
);
