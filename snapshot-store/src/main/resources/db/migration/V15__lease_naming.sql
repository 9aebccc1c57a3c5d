-- What a registration may declare beyond its address (issue 44), as endpoint files can: its
-- hostname (gRFC A81), its ring-hash key (gRFC A76) and its other IP addresses on the same port
-- (gRFC A61). Leases stored before V15 declared none: empty, as a registration without them.
ALTER TABLE registry_leases ADD COLUMN hostname VARCHAR NOT NULL DEFAULT '';
ALTER TABLE registry_leases ADD COLUMN hash_key VARCHAR NOT NULL DEFAULT '';
-- A JSON array of strings, in the registration's order (as metadata is a JSON object).
ALTER TABLE registry_leases ADD COLUMN additional_addresses JSONB NOT NULL DEFAULT '[]';
-- The bound of validation's EndpointRules.MAX_HASH_KEY_LENGTH: every write is checked there first;
-- this keeps a key no release would accept out of the table.
ALTER TABLE registry_leases ADD CONSTRAINT registry_leases_hash_key CHECK (char_length(hash_key) <= 256);
-- jOOQ's DDL parser (code generation) cannot read the JSONB function; the constraint changes no column.
-- [jooq ignore start]
ALTER TABLE registry_leases ADD CONSTRAINT registry_leases_additional_addresses
  CHECK (jsonb_typeof(additional_addresses) = 'array');
-- [jooq ignore stop]
