-- The status recorder rewrites a stream's row of a type whenever that type moves: every change
-- of an endpoint rewrites about one row per connected client. The index on last_seen_at, a column
-- every such write changes, made each of those updates insert a new entry into both indexes and
-- left the old ones for vacuum, where an update that changes no indexed column can stay on its
-- page as a heap-only tuple. No query uses the index: all() reads every row and sorts them.
DROP INDEX IF EXISTS client_status_last_seen_idx;
-- Room on each page for the next version of its rows, so those updates can stay on the page.
-- [jooq ignore start]
ALTER TABLE client_status SET (fillfactor = 70);
-- [jooq ignore stop]
