-- The names each stream subscribes to, per type, as its requests said: `config <client>` and the
-- fleet list show what a client actually asked for, on every replica, instead of deriving it from
-- what the client holds. A client that subscribes to the whole type (an LDS/CDS wildcard) is marked
-- by a first line `*`; every other line is one name, escaped (see SubscribedColumn). Rows written
-- before this column read as "not known" until the stream's next change rewrites them.
ALTER TABLE client_status ADD COLUMN subscribed VARCHAR NOT NULL DEFAULT '';
