-- Sessions: a page stays signed in across reloads with a random token instead of
-- keeping the password. Only the token's SHA-256 is stored, so a leaked database
-- holds no usable token. Keep in step with the other flavour.
CREATE TABLE sessions (
    -- lowercase hex SHA-256 of the token
    token_hash TEXT    PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
);
CREATE INDEX sessions_by_expiry ON sessions (expires_at);
