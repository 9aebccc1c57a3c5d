-- Epochs stored as deltas. Writing the whole state for every one-endpoint change cost O(state) per
-- epoch (multi-MB at 10,000 clusters); now most rows hold a delta envelope (SnapshotEnvelope.delta)
-- on their parent_epoch, and every so often a full checkpoint.
--
-- base_epoch is the full checkpoint the row's chain starts from: a row with base_epoch = epoch is
-- full; any other is a delta whose parent_epoch chain leads back to base_epoch, through rows that
-- all carry the same base_epoch. Rows written before this migration are all full.
ALTER TABLE epochs ADD COLUMN base_epoch BIGINT;
UPDATE epochs SET base_epoch = epoch;
ALTER TABLE epochs ALTER COLUMN base_epoch SET NOT NULL;
