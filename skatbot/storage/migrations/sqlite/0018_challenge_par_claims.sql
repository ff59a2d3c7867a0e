-- Who computes a challenge deal's par: one process at a time across the processes of one database. A process
-- claims the deal's row until `claimed_until` (milliseconds since the epoch) and computes the par; storing the
-- par deletes the row. Another process claims it only once that time has passed (its holder died), so a par is
-- computed once per deal and day.

CREATE TABLE challenge_par_claims (
    day           TEXT    NOT NULL CHECK (length(day) = 10),
    deal_number   INTEGER NOT NULL CHECK (deal_number BETWEEN 0 AND 11),
    claimed_until BIGINT  NOT NULL,
    PRIMARY KEY (day, deal_number)
);
