-- Tables play in the channel where /skat new was used unless a server chooses a thread per table
-- (/skat settings tables:). Version 1 defaulted channel_policy to 'thread', which nothing read and no
-- admin could choose, so every stored row becomes 'channel' (what servers have seen all along), and the
-- column default becomes 'channel' for rows written with defaults (a server's first table).
-- SQLite cannot change a column default in place: the table is rebuilt. Foreign keys from `tables` are
-- checked at COMMIT (defer_foreign_keys), when every server row is back.

PRAGMA defer_foreign_keys = ON;

CREATE TABLE servers_before_0004 AS SELECT * FROM servers;

DROP TABLE servers;

CREATE TABLE servers (
    server_id        INTEGER PRIMARY KEY,
    rule_preset      TEXT    NOT NULL DEFAULT 'official',
    rules_json       TEXT    NOT NULL DEFAULT '{}',
    turn_seconds     INTEGER NOT NULL DEFAULT 60 CHECK (turn_seconds > 0),
    warning_seconds  INTEGER NOT NULL DEFAULT 15 CHECK (warning_seconds >= 0),
    deck_style       TEXT    NOT NULL DEFAULT 'french' CHECK (deck_style IN ('french', 'german')),
    language         TEXT    NOT NULL DEFAULT 'en',
    channel_policy   TEXT    NOT NULL DEFAULT 'channel' CHECK (channel_policy IN ('thread', 'channel')),
    allowed_channels TEXT    NOT NULL DEFAULT '[]',
    updated_at       INTEGER NOT NULL
);

INSERT INTO servers (server_id, rule_preset, rules_json, turn_seconds, warning_seconds, deck_style, language,
                     channel_policy, allowed_channels, updated_at)
SELECT server_id, rule_preset, rules_json, turn_seconds, warning_seconds, deck_style, language, 'channel',
       allowed_channels, updated_at
FROM servers_before_0004;

DROP TABLE servers_before_0004;
