-- Twin of migrations/sqlite/0007: what the bot has shown for a table, kept across restarts (the messages
-- it keeps up to date, and the table's outbox of result cards, final ranking and closing notice).

CREATE TABLE shown_messages (
    table_id   BIGINT  NOT NULL REFERENCES tables (table_id) ON DELETE CASCADE,
    role       TEXT    NOT NULL CHECK (role IN ('lobby', 'board', 'hand', 'dm_notice', 'creator_told')),
    user_id    BIGINT  NOT NULL DEFAULT 0,
    deal       INTEGER NOT NULL DEFAULT -1,
    channel_id BIGINT  NOT NULL DEFAULT 0,
    message_id BIGINT  NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, role, user_id)
);

CREATE TABLE table_outbox (
    table_id BIGINT NOT NULL REFERENCES tables (table_id) ON DELETE CASCADE,
    item     TEXT   NOT NULL,
    content  TEXT   NOT NULL DEFAULT '',
    shown_at BIGINT,
    PRIMARY KEY (table_id, item)
);

INSERT INTO table_outbox (table_id, item, shown_at)
SELECT table_id, 'end', updated_at FROM tables WHERE state IN ('finished', 'abandoned');

INSERT INTO table_outbox (table_id, item, shown_at)
SELECT table_id, 'result:' || (deal_number - 1), finished_at FROM deals
WHERE table_id IN (SELECT table_id FROM tables WHERE state IN ('open', 'playing'));
