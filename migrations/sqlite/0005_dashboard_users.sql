-- Dashboard sign-in: people (users) belong to accounts and sign in with a
-- password (Argon2id hash in PHC form); sessions live here so that every
-- process of a scale-out deployment accepts them. Only a session token's
-- SHA-256 is stored.
CREATE TABLE users (
    id            TEXT PRIMARY KEY,
    account_id    TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    email         TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    disabled      INTEGER NOT NULL DEFAULT 0,
    created_at    TEXT NOT NULL
);
CREATE INDEX users_account ON users (account_id);

CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    csrf       TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX sessions_expiry ON sessions (expires_at);

-- Keys made in the dashboard carry a name; last_used_at is refreshed at
-- most once a minute per key and process.
ALTER TABLE api_keys ADD COLUMN name TEXT NOT NULL DEFAULT '';
ALTER TABLE api_keys ADD COLUMN last_used_at TEXT;

-- The day (UTC, 2006-01-02) a reservation was made, for the dashboard's
-- words-per-day chart; '' for reservations made before this column.
ALTER TABLE usage_reservations ADD COLUMN reserved_on TEXT NOT NULL DEFAULT '';
