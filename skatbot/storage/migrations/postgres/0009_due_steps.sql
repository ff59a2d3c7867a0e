-- Twin of migrations/sqlite/0009: timers and AI turns as rows any process may claim (FOR UPDATE SKIP
-- LOCKED), written with the log entry that makes them due; times in milliseconds since the epoch.

CREATE TABLE table_due (
    table_id      BIGINT  NOT NULL REFERENCES tables (table_id) ON DELETE CASCADE,
    seq           INTEGER NOT NULL CHECK (seq >= 0),
    kind          TEXT    NOT NULL CHECK (kind IN ('ai', 'warn', 'timeout', 'follow')),
    due_at        BIGINT  NOT NULL,
    claimed_until BIGINT  NOT NULL,
    PRIMARY KEY (table_id, seq, kind)
);

CREATE INDEX table_due_claimable ON table_due (claimed_until);
