-- Who may enter a tournament: an account is a bot (1) or a person (0, every account
-- made before), and a tournament takes people, bots or both. Keep in step with the
-- other flavour.
ALTER TABLE accounts ADD COLUMN is_bot INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN entry TEXT NOT NULL DEFAULT 'both'
    CHECK (entry IN ('people', 'bots', 'both'));
