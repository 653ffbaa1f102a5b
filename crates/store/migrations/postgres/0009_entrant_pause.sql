-- An arena entrant may pause: not paired again until they resume (1), while staying in
-- the standings. Keep in step with the other flavour.
ALTER TABLE tournament_entrants ADD COLUMN paused BIGINT NOT NULL DEFAULT 0;
