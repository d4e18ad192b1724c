-- A sliding window replaces the fixed one-minute window (issue 15): one row
-- per request let through, at the Unix microsecond it passed. A request
-- passes while fewer than the limit passed in the 60 s before it.
DROP TABLE rate_limits;
CREATE TABLE rate_limit_hits (
    key TEXT NOT NULL,
    at  INTEGER NOT NULL
);
CREATE INDEX rate_limit_hits_key_at ON rate_limit_hits (key, at);
CREATE INDEX rate_limit_hits_at ON rate_limit_hits (at);
