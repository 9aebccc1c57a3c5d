-- Who registered each lease (the admin token's name, or 'anonymous'): endpoint origins name it,
-- and they must say the same after a restart. V1's registry_leases had no column for it.
ALTER TABLE registry_leases ADD COLUMN registered_by VARCHAR NOT NULL DEFAULT '';
