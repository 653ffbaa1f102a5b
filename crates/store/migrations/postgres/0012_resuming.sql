-- Matches outlive their server: a match left running when its server went away (a
-- crash, a stop, a node lost) goes on from its stored log. Keep in step with the other
-- flavour.
-- The terms a match is played on (its clock, and the port whose clients play it), as
-- JSON, so that it goes on with the clock it started with. NULL for matches started
-- before this column: they go on with the queue's clock.
ALTER TABLE matches ADD COLUMN terms TEXT;
-- Each time a match went on from its log: after `step` entries, `down_ms` after its
-- server's last sign of life, on `node`.
CREATE TABLE match_resumptions (
    match_id   BIGINT NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    step       BIGINT NOT NULL,
    down_ms    BIGINT NOT NULL,
    resumed_at BIGINT NOT NULL,
    node       TEXT    NOT NULL
);
CREATE INDEX match_resumptions_by_match ON match_resumptions (match_id, resumed_at);
-- When a node stopped in order (NULL while it runs, or when it died): its matches were
-- down from then, and the others take them over at once rather than after the lease.
ALTER TABLE nodes ADD COLUMN stopped_at BIGINT;
