-- What the bot keeps about itself rather than about servers or games: one row per key. The first key is
-- the hash of the published slash commands, so that of several bot processes only one publishes, and
-- only when the command set changed.

CREATE TABLE bot_meta (
    key        TEXT   PRIMARY KEY,
    value      TEXT   NOT NULL,
    updated_at BIGINT NOT NULL
);
