-- skatbot schema, version 1. Portable SQL (SQLite and PostgreSQL): integer ids are Discord snowflakes
-- (or negative ids for AI players), timestamps are integer seconds since the epoch (UTC), booleans are
-- 0/1 integers, rule sets and settings lists are JSON text.

CREATE TABLE servers (
    server_id        INTEGER PRIMARY KEY,
    rule_preset      TEXT    NOT NULL DEFAULT 'official',
    rules_json       TEXT    NOT NULL DEFAULT '{}',
    turn_seconds     INTEGER NOT NULL DEFAULT 60 CHECK (turn_seconds > 0),
    warning_seconds  INTEGER NOT NULL DEFAULT 15 CHECK (warning_seconds >= 0),
    deck_style       TEXT    NOT NULL DEFAULT 'french' CHECK (deck_style IN ('french', 'german')),
    language         TEXT    NOT NULL DEFAULT 'en',
    channel_policy   TEXT    NOT NULL DEFAULT 'thread' CHECK (channel_policy IN ('thread', 'channel')),
    allowed_channels TEXT    NOT NULL DEFAULT '[]',
    updated_at       INTEGER NOT NULL
);

CREATE TABLE players (
    player_id    INTEGER PRIMARY KEY,
    display_name TEXT    NOT NULL,
    is_ai        INTEGER NOT NULL DEFAULT 0 CHECK (is_ai IN (0, 1)),
    updated_at   INTEGER NOT NULL
);

CREATE TABLE tables (
    table_id      INTEGER PRIMARY KEY,
    server_id     INTEGER NOT NULL REFERENCES servers (server_id),
    channel_id    INTEGER NOT NULL,
    thread_id     INTEGER,
    creator_id    INTEGER NOT NULL REFERENCES players (player_id),
    rule_preset   TEXT    NOT NULL,
    rules_json    TEXT    NOT NULL,
    series_length INTEGER NOT NULL CHECK (series_length > 0),
    state         TEXT    NOT NULL CHECK (state IN ('open', 'playing', 'finished', 'abandoned')),
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL
);
CREATE INDEX tables_by_state ON tables (state, table_id);
CREATE INDEX tables_by_server ON tables (server_id, created_at);

CREATE TABLE table_seats (
    table_id  INTEGER NOT NULL REFERENCES tables (table_id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    player_id INTEGER NOT NULL REFERENCES players (player_id),
    PRIMARY KEY (table_id, seat)
);

-- The truth about a running table: append-only, replayed on start-up.
CREATE TABLE table_log (
    table_id    INTEGER NOT NULL REFERENCES tables (table_id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL CHECK (seq >= 0),
    deal_number INTEGER NOT NULL CHECK (deal_number >= 1),
    kind        TEXT    NOT NULL CHECK (kind IN ('deal', 'action', 'event')),
    seat        INTEGER,
    payload     TEXT    NOT NULL,
    at          INTEGER NOT NULL,
    PRIMARY KEY (table_id, seq)
);

-- One row per finished deal; UNIQUE (table_id, deal_number) makes storing it exactly-once.
CREATE TABLE deals (
    deal_id         INTEGER PRIMARY KEY,
    table_id        INTEGER NOT NULL REFERENCES tables (table_id),
    deal_number     INTEGER NOT NULL CHECK (deal_number >= 1),
    server_id       INTEGER NOT NULL,
    declarer_id     INTEGER REFERENCES players (player_id),
    game            TEXT    NOT NULL,
    contract        TEXT    NOT NULL,
    hand            INTEGER NOT NULL,
    ouvert          INTEGER NOT NULL,
    bid             INTEGER NOT NULL,
    won             INTEGER NOT NULL,
    overbid         INTEGER NOT NULL,
    schneider       INTEGER NOT NULL,
    schwarz         INTEGER NOT NULL,
    matadors        INTEGER NOT NULL,
    declarer_points INTEGER NOT NULL,
    declarer_tricks INTEGER NOT NULL,
    multiplier      INTEGER NOT NULL,
    game_value      INTEGER NOT NULL,
    score           INTEGER NOT NULL,
    ending          TEXT    NOT NULL,
    kontra          INTEGER NOT NULL,
    re              INTEGER NOT NULL,
    bock            INTEGER NOT NULL DEFAULT 0,
    started_at      INTEGER NOT NULL,
    finished_at     INTEGER NOT NULL,
    UNIQUE (table_id, deal_number)
);
CREATE INDEX deals_by_server ON deals (server_id, finished_at);

-- The full records, kept apart so the deals table stays narrow for scans.
CREATE TABLE deal_records (
    deal_id     INTEGER PRIMARY KEY REFERENCES deals (deal_id) ON DELETE CASCADE,
    iss         TEXT    NOT NULL,
    record_json TEXT    NOT NULL
);

-- What each player was written for a deal. role: declarer, defender, ramsch, passed, out (dealer
-- sitting out at four). won: the player's side won (NULL when there was no game for them).
CREATE TABLE deal_scores (
    deal_id     INTEGER NOT NULL REFERENCES deals (deal_id) ON DELETE CASCADE,
    player_id   INTEGER NOT NULL REFERENCES players (player_id),
    seat        INTEGER,
    role        TEXT    NOT NULL CHECK (role IN ('declarer', 'defender', 'ramsch', 'passed', 'out')),
    won         INTEGER,
    score       INTEGER NOT NULL,
    seeger      INTEGER NOT NULL,
    server_id   INTEGER NOT NULL,
    finished_at INTEGER NOT NULL,
    PRIMARY KEY (deal_id, player_id)
);
CREATE INDEX deal_scores_by_player ON deal_scores (server_id, player_id, finished_at);
CREATE INDEX deal_scores_by_time ON deal_scores (server_id, finished_at, player_id, score, seeger, role, won);

-- Leaderboard summary: one row per (server, UTC day, player), kept in step by the deal writer.
CREATE TABLE player_days (
    server_id INTEGER NOT NULL,
    day       INTEGER NOT NULL,
    player_id INTEGER NOT NULL REFERENCES players (player_id),
    points    INTEGER NOT NULL,
    seeger    INTEGER NOT NULL,
    deals     INTEGER NOT NULL,
    declared  INTEGER NOT NULL,
    won       INTEGER NOT NULL,
    PRIMARY KEY (server_id, day, player_id)
);

-- The final ranking of a finished series (one series per table).
CREATE TABLE series_results (
    table_id    INTEGER NOT NULL REFERENCES tables (table_id),
    player_id   INTEGER NOT NULL REFERENCES players (player_id),
    server_id   INTEGER NOT NULL,
    place       INTEGER NOT NULL CHECK (place >= 1),
    total       INTEGER NOT NULL,
    seeger      INTEGER NOT NULL,
    deals       INTEGER NOT NULL,
    finished_at INTEGER NOT NULL,
    PRIMARY KEY (table_id, player_id)
);
CREATE INDEX series_results_by_server ON series_results (server_id, finished_at);
CREATE INDEX series_results_by_player ON series_results (server_id, player_id, total);
