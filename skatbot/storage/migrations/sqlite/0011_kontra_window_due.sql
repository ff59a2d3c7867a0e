-- The end of the Kontra window becomes a due step ('kontra'), so that every process sees it: a human leader's
-- first card waits while other humans may still say Kontra or Re, whichever process serves the card. SQLite
-- cannot change a CHECK constraint in place: table_due is rebuilt with its rows.

CREATE TABLE table_due_0011 (
    table_id      INTEGER NOT NULL REFERENCES tables (table_id) ON DELETE CASCADE,
    seq           INTEGER NOT NULL CHECK (seq >= 0),
    kind          TEXT    NOT NULL CHECK (kind IN ('ai', 'warn', 'timeout', 'follow', 'kontra')),
    due_at        INTEGER NOT NULL,
    claimed_until INTEGER NOT NULL,
    PRIMARY KEY (table_id, seq, kind)
);

INSERT INTO table_due_0011 (table_id, seq, kind, due_at, claimed_until)
    SELECT table_id, seq, kind, due_at, claimed_until FROM table_due;

DROP TABLE table_due;

ALTER TABLE table_due_0011 RENAME TO table_due;

CREATE INDEX table_due_claimable ON table_due (claimed_until);
