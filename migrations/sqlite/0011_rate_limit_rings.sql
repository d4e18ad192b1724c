-- The sliding rate-limit window as a ring per key (issue 27): the last
-- `limit` requests let through, one slot each, and the slot to overwrite
-- next, which holds the oldest of them. A request passes when that slot
-- is empty or left the 60 s window, and then takes it: one point read and
-- one point write per request, where the log of 0003 read every hit of
-- the window (18,000 rows for an account allowed 300 requests a second).
-- The limit stays exact: a request is refused only when `limit` requests
-- passed in the 60 s before it.
DROP TABLE rate_limit_hits;
CREATE TABLE rate_limit_rings (
    key       TEXT PRIMARY KEY,
    slots     INTEGER NOT NULL,
    next_slot INTEGER NOT NULL
);
CREATE TABLE rate_limit_slots (
    key  TEXT NOT NULL,
    slot INTEGER NOT NULL,
    at   BIGINT NOT NULL,
    PRIMARY KEY (key, slot)
);
