-- Twin of migrations/sqlite/0014: skill ratings per identity and server, every rated event once in the
-- order it was rated, and each identity's rating after each event. Ratings are doubles, as SQLite's REAL,
-- so a rebuild reproduces them bit for bit.

CREATE TABLE ratings (
    server_id  BIGINT           NOT NULL,
    rated_id   BIGINT           NOT NULL,
    mu         DOUBLE PRECISION NOT NULL,
    sigma      DOUBLE PRECISION NOT NULL CHECK (sigma > 0),
    series     INTEGER          NOT NULL CHECK (series >= 0),
    days       INTEGER          NOT NULL CHECK (days >= 0),
    updated_at BIGINT           NOT NULL,
    PRIMARY KEY (server_id, rated_id)
);

CREATE TABLE rating_events (
    server_id BIGINT  NOT NULL,
    seq       INTEGER NOT NULL CHECK (seq >= 1),
    kind      TEXT    NOT NULL CHECK (kind IN ('series', 'challenge')),
    event_key BIGINT  NOT NULL,
    results   TEXT    NOT NULL,
    rated_at  BIGINT  NOT NULL,
    PRIMARY KEY (server_id, seq),
    UNIQUE (server_id, kind, event_key)
);

CREATE TABLE rating_history (
    server_id BIGINT           NOT NULL,
    rated_id  BIGINT           NOT NULL,
    seq       INTEGER          NOT NULL,
    mu        DOUBLE PRECISION NOT NULL,
    sigma     DOUBLE PRECISION NOT NULL,
    rated_at  BIGINT           NOT NULL,
    PRIMARY KEY (server_id, rated_id, seq)
);
