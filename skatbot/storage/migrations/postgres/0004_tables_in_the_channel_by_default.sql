-- Twin of migrations/sqlite/0004: tables play in the channel unless a server chooses a thread per table.

ALTER TABLE servers ALTER COLUMN channel_policy SET DEFAULT 'channel';
UPDATE servers SET channel_policy = 'channel';
