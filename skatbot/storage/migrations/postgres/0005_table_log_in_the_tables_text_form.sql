-- Twin of migrations/sqlite/0005: the table log holds the tables layer's own text entries under the
-- table's own sequence number, and the table size is a column. No PostgreSQL database ever held the old
-- (kind, payload) rows (the backend arrived with this version), so the old log table is replaced, not
-- converted; a PostgreSQL database gets an existing server's data through `python -m skatbot.storage copy`.

ALTER TABLE tables ADD COLUMN size INTEGER NOT NULL DEFAULT 3 CHECK (size IN (3, 4));

DROP TABLE table_log;

CREATE TABLE table_log (
    table_id BIGINT  NOT NULL REFERENCES tables (table_id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL CHECK (seq >= 0),
    entry    TEXT    NOT NULL,
    at       BIGINT  NOT NULL,
    PRIMARY KEY (table_id, seq)
);
