-- When each node's current process started (Unix milliseconds): the oldest live node
-- holds the deployment's lobby, so a node that joins later never splits the queue, and
-- a node that restarts is a new one (its lobby did not survive). Keep in step with the
-- other flavour.
ALTER TABLE nodes ADD COLUMN started_at INTEGER NOT NULL DEFAULT 0;
