-- Tournaments (club evenings): stored like tables. The row holds what the organiser chose (settings_json,
-- read by skatbot.tournaments) and where it runs; the log holds every accepted step (sign-ups, draws, the
-- tables it opened, the messages it keeps up to date, its end), replayed on a restart. Results are not
-- stored twice: they are the deal records of the tables the log names.

CREATE TABLE tournaments (
    tournament_id INTEGER PRIMARY KEY,
    server_id     INTEGER  NOT NULL,
    channel_id    INTEGER  NOT NULL,
    organiser_id  INTEGER  NOT NULL,
    name          TEXT    NOT NULL,
    settings_json TEXT    NOT NULL,
    state         TEXT    NOT NULL CHECK (state IN ('signup', 'playing', 'finished', 'stopped')),
    start_at      INTEGER,
    created_at    INTEGER  NOT NULL,
    updated_at    INTEGER  NOT NULL
);
CREATE INDEX tournaments_by_state ON tournaments (state, tournament_id);
CREATE INDEX tournaments_by_channel ON tournaments (channel_id, tournament_id);

CREATE TABLE tournament_log (
    tournament_id INTEGER  NOT NULL REFERENCES tournaments (tournament_id) ON DELETE CASCADE,
    seq           INTEGER NOT NULL CHECK (seq >= 0),
    entry         TEXT    NOT NULL,
    at            INTEGER  NOT NULL,
    PRIMARY KEY (tournament_id, seq)
);
