-- The tables of a channel or thread, newest first: `/skat list` and the other read-only commands look up the
-- last table that played where they are used, by the channel for a table that plays in it and by the thread
-- for one in a thread of its own (`last_in`). Without these indexes each lookup read every table the bot ever
-- hosted. Partial: a table is found by its thread when it has one, else by its channel.

CREATE INDEX tables_by_channel ON tables (channel_id, table_id) WHERE thread_id IS NULL;

CREATE INDEX tables_by_thread ON tables (thread_id, table_id) WHERE thread_id IS NOT NULL;
