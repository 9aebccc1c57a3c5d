-- Checkpoints as additional full copies. Until V4 a checkpoint rewrote the newest row in place
-- (base_epoch := epoch) under the epoch counter's row lock, so the next append waited for a
-- multi-MB write, and the checkpoint was dropped whenever an append landed first. Now a
-- checkpoint writes the full envelope of an already stored delta row into full_envelope, leaving
-- the row's delta envelope and base_epoch (its chain) untouched and taking no counter lock: a
-- load starts from the nearest row of the chain that holds a full copy (the base row's envelope,
-- or any full_envelope) and applies only the deltas after it. NULL: the row has no full copy.
ALTER TABLE epochs ADD COLUMN full_envelope BYTEA;

-- jOOQ's DDL parser (code generation) cannot read SET STORAGE, and it changes no column type.
-- [jooq ignore start]
-- STORAGE EXTERNAL: out of line but uncompressed. pglz compresses a 12.7 MB envelope (10,000
-- clusters x 10 endpoints) to ~2.7 MB but takes 124-171 ms to write it; uncompressed it takes
-- 43-78 ms and 13 MB (lz4 is not compiled into the embedded PostgreSQL binaries). The trade-off:
-- ~5x more disk for full rows for ~2.5x faster writes; a delta row is a few KB either way, and
-- retention keeps few full rows. Applies to values written from now on: rows stored compressed
-- stay as they are and read the same.
ALTER TABLE epochs ALTER COLUMN full_envelope SET STORAGE EXTERNAL;
ALTER TABLE epochs ALTER COLUMN envelope SET STORAGE EXTERNAL;
-- [jooq ignore stop]
