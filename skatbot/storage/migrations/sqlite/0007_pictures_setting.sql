-- Pictures per server (/skat settings pictures: on/off): the hand in DMs, the tricks under results and the
-- charts of the lists as images. On by default; servers that prefer text turn them off.
ALTER TABLE servers ADD COLUMN pictures INTEGER NOT NULL DEFAULT 1 CHECK (pictures IN (0, 1));
