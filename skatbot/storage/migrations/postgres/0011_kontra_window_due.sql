-- Twin of migrations/sqlite/0011: the end of the Kontra window becomes a due step ('kontra'), so that every
-- process sees it (a human leader's first card waits while other humans may still say Kontra or Re).

ALTER TABLE table_due DROP CONSTRAINT table_due_kind_check;

ALTER TABLE table_due ADD CONSTRAINT table_due_kind_check
    CHECK (kind IN ('ai', 'warn', 'timeout', 'follow', 'kontra'));
