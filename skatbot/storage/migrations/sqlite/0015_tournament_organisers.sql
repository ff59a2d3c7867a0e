-- A role whose members may organise tournaments (/tournament new, start, next, stop) besides members with
-- Manage Server; NULL: Manage Server only. Set with /skat settings organisers:@role.

ALTER TABLE servers ADD COLUMN organiser_role INTEGER;
