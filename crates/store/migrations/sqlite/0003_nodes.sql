-- Servers sharing one database: each writes its heartbeat here, and a server whose
-- heartbeat has gone stale has died; the others end its running matches (their logs
-- kept). Keep in step with the other flavour.
CREATE TABLE nodes (
    name         TEXT    PRIMARY KEY,
    -- Unix milliseconds of the latest heartbeat
    heartbeat_at INTEGER NOT NULL
);
