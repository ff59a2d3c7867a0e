-- What the bot has shown for a table, kept across restarts: the messages it keeps up to date (so a restart
-- edits them instead of posting again) and the table's outbox (result cards, the final ranking, the closing
-- notice). What a table must show follows from its log, written with the move; an outbox row holds the text
-- being posted (so a post Discord took just before a crash is found, not repeated) and when it was shown.

CREATE TABLE shown_messages (
    table_id   INTEGER NOT NULL REFERENCES tables (table_id) ON DELETE CASCADE,
    role       TEXT    NOT NULL CHECK (role IN ('lobby', 'board', 'hand', 'dm_notice', 'creator_told')),
    user_id    INTEGER NOT NULL DEFAULT 0,
    deal       INTEGER NOT NULL DEFAULT -1,
    channel_id INTEGER NOT NULL DEFAULT 0,
    message_id INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, role, user_id)
);

CREATE TABLE table_outbox (
    table_id INTEGER NOT NULL REFERENCES tables (table_id) ON DELETE CASCADE,
    item     TEXT    NOT NULL,
    content  TEXT    NOT NULL DEFAULT '',
    shown_at INTEGER,
    PRIMARY KEY (table_id, item)
);

-- Tables that ended before this version showed what they had to show then; the deals of running tables too.
INSERT INTO table_outbox (table_id, item, shown_at)
SELECT table_id, 'end', updated_at FROM tables WHERE state IN ('finished', 'abandoned');

INSERT INTO table_outbox (table_id, item, shown_at)
SELECT table_id, 'result:' || (deal_number - 1), finished_at FROM deals
WHERE table_id IN (SELECT table_id FROM tables WHERE state IN ('open', 'playing'));
