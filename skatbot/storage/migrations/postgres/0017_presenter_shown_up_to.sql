-- "Shown up to seq N": for each table, the number of its log entries whose owed messages (result cards, the
-- final ranking, the closing notice) the bot has shown. A restart, or a process that finds a refused post
-- owed, replays the table's log and shows what the entries from N on owe, in the order of the log. It is
-- written in the transaction that marks an outbox item shown, and only moves forward. No row: 0 (the whole
-- log is read; the outbox marks still say which items were shown, so a table from before this version
-- shows nothing twice).

CREATE TABLE table_shown (
    table_id    BIGINT  NOT NULL PRIMARY KEY REFERENCES tables (table_id) ON DELETE CASCADE,
    shown_up_to INTEGER NOT NULL DEFAULT 0
);
