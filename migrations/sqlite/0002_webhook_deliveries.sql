-- One row per (event, webhook): the payload is fixed at enqueue time so that
-- every attempt sends the same bytes. attempts counts attempts started;
-- leased marks one in flight, whose lease ends at next_at.
CREATE TABLE webhook_deliveries (
    id         TEXT PRIMARY KEY,
    webhook_id TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    account_id TEXT NOT NULL,
    event_id   TEXT NOT NULL,
    event      TEXT NOT NULL,
    payload    TEXT NOT NULL,
    state      TEXT NOT NULL DEFAULT 'pending',
    attempts   INTEGER NOT NULL DEFAULT 0,
    leased     INTEGER NOT NULL DEFAULT 0,
    next_at    TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (event_id, webhook_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (state, next_at);
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id);

-- The history: one row per attempt, written when the attempt starts and
-- completed with its result.
CREATE TABLE webhook_attempts (
    delivery_id TEXT NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    attempt     INTEGER NOT NULL,
    webhook_id  TEXT NOT NULL,
    started_at  TEXT NOT NULL,
    state       TEXT NOT NULL,
    status_code INTEGER NOT NULL DEFAULT 0,
    latency_us  INTEGER NOT NULL DEFAULT 0,
    error       TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (delivery_id, attempt)
);
CREATE INDEX webhook_attempts_webhook ON webhook_attempts (webhook_id, started_at);
