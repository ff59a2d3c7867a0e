-- Skill ratings (OpenSkill, Plackett-Luce; skatbot.ratings): each identity's rating per server (a human by
-- their id, an AI level as -100 easy, -200 normal, -300 strong), every rated event (a finished series, a
-- challenge day) once, in the order it was rated (seq: a rebuild follows it), and each identity's rating
-- after each event (the chart of /skat scores stats). An event is written with its ratings in one
-- transaction; UNIQUE (server_id, kind, event_key) keeps it to once.

CREATE TABLE ratings (
    server_id  INTEGER NOT NULL,
    rated_id   INTEGER NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL CHECK (sigma > 0),
    series     INTEGER NOT NULL CHECK (series >= 0),
    days       INTEGER NOT NULL CHECK (days >= 0),
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (server_id, rated_id)
);

CREATE TABLE rating_events (
    server_id INTEGER NOT NULL,
    seq       INTEGER NOT NULL CHECK (seq >= 1),
    kind      TEXT    NOT NULL CHECK (kind IN ('series', 'challenge')),
    event_key INTEGER NOT NULL,
    results   TEXT    NOT NULL,
    rated_at  INTEGER NOT NULL,
    PRIMARY KEY (server_id, seq),
    UNIQUE (server_id, kind, event_key)
);

CREATE TABLE rating_history (
    server_id INTEGER NOT NULL,
    rated_id  INTEGER NOT NULL,
    seq       INTEGER NOT NULL,
    mu        REAL    NOT NULL,
    sigma     REAL    NOT NULL,
    rated_at  INTEGER NOT NULL,
    PRIMARY KEY (server_id, rated_id, seq)
);
