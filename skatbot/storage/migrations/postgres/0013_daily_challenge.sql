-- The daily challenge (skatbot.challenge): the same deals for everyone on a UTC day. An attempt is one
-- player's (one per player and day, whichever server it was started on), stored like a table: its moves are an
-- append-only log replayed on a restart. A finished deal's result is written with the move that ended it: the
-- player's Seeger-Fabian score and the par (the strong AI's score in the same seat), per player, server, day
-- and deal; ratings read these rows. The pars are computed once per deal and day. The bot-wide secret the
-- deals are derived from is bot_meta's 'challenge.secret', made once and never shown.

CREATE TABLE challenge_attempts (
    day         TEXT    NOT NULL CHECK (length(day) = 10),
    player_id   BIGINT  NOT NULL,
    server_id   BIGINT  NOT NULL,
    name        TEXT    NOT NULL,
    deals       INTEGER NOT NULL CHECK (deals BETWEEN 1 AND 12),
    started_at  BIGINT  NOT NULL,
    finished_at BIGINT,
    PRIMARY KEY (day, player_id)
);
CREATE INDEX challenge_attempts_by_server ON challenge_attempts (server_id, day);

CREATE TABLE challenge_moves (
    day       TEXT    NOT NULL,
    player_id BIGINT  NOT NULL,
    seq       INTEGER NOT NULL CHECK (seq >= 0),
    entry     TEXT    NOT NULL,
    at        BIGINT  NOT NULL,
    PRIMARY KEY (day, player_id, seq),
    FOREIGN KEY (day, player_id) REFERENCES challenge_attempts (day, player_id) ON DELETE CASCADE
);

CREATE TABLE challenge_results (
    day         TEXT    NOT NULL,
    player_id   BIGINT  NOT NULL,
    server_id   BIGINT  NOT NULL,
    deal_number INTEGER NOT NULL CHECK (deal_number BETWEEN 0 AND 11),
    score       INTEGER NOT NULL,
    par         INTEGER NOT NULL,
    at          BIGINT  NOT NULL,
    PRIMARY KEY (day, player_id, deal_number),
    FOREIGN KEY (day, player_id) REFERENCES challenge_attempts (day, player_id) ON DELETE CASCADE
);
CREATE INDEX challenge_results_by_server ON challenge_results (server_id, day);

CREATE TABLE challenge_pars (
    day         TEXT    NOT NULL,
    deal_number INTEGER NOT NULL CHECK (deal_number BETWEEN 0 AND 11),
    par         INTEGER NOT NULL,
    line        TEXT    NOT NULL,
    at          BIGINT  NOT NULL,
    PRIMARY KEY (day, deal_number)
);

CREATE TABLE challenge_servers (
    server_id  BIGINT  PRIMARY KEY,
    deals      INTEGER NOT NULL CHECK (deals BETWEEN 3 AND 12),
    updated_at BIGINT  NOT NULL
);
