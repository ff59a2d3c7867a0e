-- One log format: a table's log holds the tables layer's own text entries (`join 5 Anna`, `deal 0 1234`,
-- `act 0 1 bid 18`, see skatbot/tables/log.py) under the table's own sequence number, and only the
-- tables layer replays them. Version 4 rewrote them on the way in: a new deal as JSON (kind 'deal', its
-- seed and cards), an action as (kind 'action', seat, action text) with deal numbers counted from 1, a
-- first row `seats N` for the table size, and every later row one sequence number up. This converts
-- every stored row back to the text the tables layer wrote; the size becomes a column of `tables`
-- (older tables kept it in the rules as `_table_seats`). A deal row without a seed cannot be written as
-- the tables layer's `deal N SEED` and fails the migration (NOT NULL), leaving the database unchanged:
-- skatbot only ever stored seeded deals.

ALTER TABLE tables ADD COLUMN size INTEGER NOT NULL DEFAULT 3 CHECK (size IN (3, 4));

UPDATE tables SET size = CAST(json_extract(rules_json, '$._table_seats') AS INTEGER),
                  rules_json = json_remove(rules_json, '$._table_seats')
WHERE json_extract(rules_json, '$._table_seats') IS NOT NULL;

UPDATE tables SET size = (
    SELECT CAST(substr(payload, 7) AS INTEGER) FROM table_log
    WHERE table_log.table_id = tables.table_id AND seq = 0 AND kind = 'event' AND payload LIKE 'seats %')
WHERE EXISTS (SELECT 1 FROM table_log WHERE table_log.table_id = tables.table_id AND seq = 0 AND kind = 'event'
              AND payload LIKE 'seats %');

CREATE TABLE table_entries (
    table_id INTEGER NOT NULL REFERENCES tables (table_id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL CHECK (seq >= 0),
    entry    TEXT    NOT NULL,
    at       INTEGER NOT NULL,
    PRIMARY KEY (table_id, seq)
);

INSERT INTO table_entries (table_id, seq, entry, at)
SELECT l.table_id,
       l.seq - (SELECT COUNT(*) FROM table_log s WHERE s.table_id = l.table_id AND s.seq = 0 AND s.kind = 'event'
                AND s.payload LIKE 'seats %'),
       CASE l.kind
           WHEN 'deal' THEN 'deal ' || (l.deal_number - 1) || ' ' || CAST(json_extract(l.payload, '$.seed') AS INTEGER)
           WHEN 'action' THEN 'act ' || (l.deal_number - 1) || ' ' || COALESCE(CAST(l.seat AS TEXT), '-') || ' '
                              || l.payload
           ELSE l.payload
       END,
       l.at
FROM table_log l
WHERE NOT (l.seq = 0 AND l.kind = 'event' AND l.payload LIKE 'seats %');

DROP TABLE table_log;

ALTER TABLE table_entries RENAME TO table_log;
