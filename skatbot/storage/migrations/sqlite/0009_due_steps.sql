-- Timers and AI turns as rows any process may claim. An entry that makes a step due (an AI seat's move, a
-- human's turn warning and expiry, the next deal) writes the table's rows in the same transaction as the
-- entry, replacing the table's earlier ones; the process that wrote them holds them (`claimed_until`, a
-- lease past `due_at`) and fires them itself, another process claims a row whose lease ran out. Times are
-- milliseconds since the epoch. Keyed by (table, sequence number, kind): a step fires at most once, and a
-- row whose table moved on is stale.

CREATE TABLE table_due (
    table_id      INTEGER NOT NULL REFERENCES tables (table_id) ON DELETE CASCADE,
    seq           INTEGER NOT NULL CHECK (seq >= 0),
    kind          TEXT    NOT NULL CHECK (kind IN ('ai', 'warn', 'timeout', 'follow')),
    due_at        INTEGER NOT NULL,
    claimed_until INTEGER NOT NULL,
    PRIMARY KEY (table_id, seq, kind)
);

CREATE INDEX table_due_claimable ON table_due (claimed_until);
