-- A registration's capacity (issue 31) in a column of its own. Until V10 the registry kept it in
-- the lease's metadata under the key 'signalbox.io/capacity-rps', which registrants were refused
-- so that theirs could not be read back as a capacity. NULL: the registration declared none.
ALTER TABLE registry_leases ADD COLUMN capacity_rps INTEGER;
-- The range of validation's AdmissionRules (MIN_RPS, MAX_RPS): every write is checked there first;
-- this keeps a value no release would accept out of the table.
ALTER TABLE registry_leases ADD CONSTRAINT registry_leases_capacity_rps
  CHECK (capacity_rps >= 1 AND capacity_rps <= 1000000);

-- Leases stored before V11 move their capacity from the metadata into the column, and the key
-- leaves the metadata: from now on it is a registrant's ordinary key. The previous release read a
-- value that is no capacity (never written: it wrote only checked ones) as none and left the key
-- out of the metadata it showed; so does this. jOOQ's DDL parser (code generation) cannot read the
-- JSONB operators, and the statement changes no schema.
-- [jooq ignore start]
UPDATE registry_leases
   SET capacity_rps = CASE
         WHEN btrim(metadata ->> 'signalbox.io/capacity-rps', E' \t\r\n') ~ '^0*[0-9]{1,7}$' THEN CASE
           WHEN btrim(metadata ->> 'signalbox.io/capacity-rps', E' \t\r\n')::integer BETWEEN 1 AND 1000000
             THEN btrim(metadata ->> 'signalbox.io/capacity-rps', E' \t\r\n')::integer
         END
       END,
       metadata = metadata - 'signalbox.io/capacity-rps'
 WHERE metadata - 'signalbox.io/capacity-rps' <> metadata;
-- [jooq ignore stop]
