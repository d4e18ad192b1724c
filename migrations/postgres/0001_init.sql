-- Same tables as the SQLite schema; times are TIMESTAMPTZ (microseconds,
-- UTC in and out). JSON columns hold JSON text so both dialects share queries.

CREATE TABLE accounts (
    id                   TEXT PRIMARY KEY,
    name                 TEXT NOT NULL,
    plan                 TEXT NOT NULL,
    suspended            BOOLEAN NOT NULL DEFAULT FALSE,
    limit_words_override BIGINT,
    rpm_override         INTEGER,
    do_not_translate     TEXT NOT NULL DEFAULT '[]',
    created_at           TIMESTAMPTZ NOT NULL
);

CREATE TABLE api_keys (
    id         TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    hash       TEXT NOT NULL UNIQUE,
    hint       TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    revoked_at TIMESTAMPTZ
);
CREATE INDEX api_keys_account ON api_keys (account_id);

CREATE TABLE jobs (
    id            TEXT PRIMARY KEY,
    account_id    TEXT NOT NULL,
    status        TEXT NOT NULL,
    stage         TEXT NOT NULL,
    source_lang   TEXT NOT NULL DEFAULT '',
    detected_lang TEXT NOT NULL DEFAULT '',
    target_lang   TEXT NOT NULL DEFAULT '',
    mode          TEXT NOT NULL DEFAULT '',
    original_name TEXT NOT NULL DEFAULT '',
    format        TEXT NOT NULL DEFAULT '',
    words         BIGINT NOT NULL DEFAULT 0,
    engine        TEXT NOT NULL DEFAULT '',
    warnings      TEXT NOT NULL DEFAULT '[]',
    rtl           TEXT,
    metrics       TEXT NOT NULL DEFAULT '{}',
    fidelity_info TEXT NOT NULL DEFAULT '',
    error_message TEXT NOT NULL DEFAULT '',
    attempts      INTEGER NOT NULL DEFAULT 0,
    created_at    TIMESTAMPTZ NOT NULL,
    updated_at    TIMESTAMPTZ NOT NULL,
    completed_at  TIMESTAMPTZ,
    expired_at    TIMESTAMPTZ
);
CREATE INDEX jobs_account ON jobs (account_id, created_at);
CREATE INDEX jobs_status ON jobs (status, completed_at);
CREATE INDEX jobs_created ON jobs (created_at);

CREATE TABLE usage (
    account_id TEXT NOT NULL,
    period     TEXT NOT NULL,
    used_words BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (account_id, period)
);

-- A reservation that is kept is the charge; Release deletes it and refunds.
CREATE TABLE usage_reservations (
    job_id     TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    period     TEXT NOT NULL,
    words      BIGINT NOT NULL
);
CREATE INDEX usage_reservations_account ON usage_reservations (account_id, period);

-- Delivery history will be a separate table keyed by webhook id.
CREATE TABLE webhooks (
    id         TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    url        TEXT NOT NULL,
    events     TEXT NOT NULL DEFAULT '[]',
    secret_enc BYTEA NOT NULL,
    is_active  BOOLEAN NOT NULL DEFAULT TRUE,
    created_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX webhooks_account ON webhooks (account_id);

-- window_start is the Unix second the one-minute window began.
CREATE TABLE rate_limits (
    key          TEXT NOT NULL,
    window_start BIGINT NOT NULL,
    count        BIGINT NOT NULL,
    PRIMARY KEY (key, window_start)
);

CREATE TABLE translation_memory (
    engine     TEXT NOT NULL,
    mode       TEXT NOT NULL,
    src        TEXT NOT NULL,
    tgt        TEXT NOT NULL,
    hash       TEXT NOT NULL,
    target     TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (engine, mode, src, tgt, hash)
);
