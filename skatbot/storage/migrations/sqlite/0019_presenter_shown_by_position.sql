-- What a table owes its channel (result cards, the final ranking or the closing notice, its end) is shown
-- exactly once by its position in the table's log, no longer by name: "shown up to" is a position (seq, part):
-- everything the entries before `shown_up_to` owe is shown, and of entry `shown_up_to` the items before part
-- `shown_in` (0: its result card, 1: the ranking or closing notice). An ended table's end is the position
-- after its log. `draft` is the text of the item at that position, written before it is posted.
ALTER TABLE table_shown ADD COLUMN shown_in INTEGER NOT NULL DEFAULT 0;
ALTER TABLE table_shown ADD COLUMN draft TEXT;

-- Tables whose end a version before this one marked shown: shown up to the end of their log. (The named rows
-- of tables still playing, or that ended owing, are read once by the presenter to find their position.)
INSERT INTO table_shown (table_id, shown_up_to, shown_in)
SELECT o.table_id, COALESCE((SELECT MAX(l.seq) + 1 FROM table_log l WHERE l.table_id = o.table_id), 0), 0
FROM table_outbox o WHERE o.item = 'end' AND o.shown_at IS NOT NULL
ON CONFLICT (table_id) DO UPDATE SET shown_up_to = excluded.shown_up_to, shown_in = 0, draft = NULL;

DELETE FROM table_outbox WHERE table_id IN (SELECT table_id FROM table_outbox WHERE item = 'end' AND shown_at IS NOT NULL);
