-- The language a player's Discord client speaks (their direct messages are written in it), kept with the
-- player so that after a restart their hand is still in their language; NULL: not known yet (the server's).

ALTER TABLE players ADD COLUMN dm_language TEXT;
