-- Replicas on one PostgreSQL (DESIGN "Replicas"): one leader, fenced by a term that only grows;
-- followers serve the epochs the leader committed, released to the waves the leader released them
-- to; each replica's clients are in client_status, so any replica sees the whole fleet.

-- At most one row. The leader renews expires_at; another replica takes the row, with term + 1, only
-- once expires_at has passed. All times are the database's own (now()), never a replica's clock.
-- Every epoch append checks, in its own transaction, that its term still holds the lease.
CREATE TABLE leadership (
  id          INTEGER                  NOT NULL PRIMARY KEY,
  leader_id   VARCHAR                  NOT NULL,
  term        BIGINT                   NOT NULL,
  acquired_at TIMESTAMP WITH TIME ZONE NOT NULL,
  expires_at  TIMESTAMP WITH TIME ZONE NOT NULL,
  CONSTRAINT leadership_single_row CHECK (id = 1)
);

-- Which epoch each canary wave is served (the last wave is "everyone"); only grows.
CREATE TABLE wave_releases (
  wave  INTEGER NOT NULL PRIMARY KEY,
  epoch BIGINT  NOT NULL
);

-- Each replica's heartbeat: its role, the epoch it serves and how many clients it has. The
-- leader's row also carries what only the leader computes and every replica shows (held updates,
-- per-group last safe), as JSON the control plane writes and reads.
CREATE TABLE replicas (
  replica_id  VARCHAR                  NOT NULL PRIMARY KEY,
  role        VARCHAR(16)              NOT NULL,
  epoch       BIGINT                   NOT NULL,
  clients     INTEGER                  NOT NULL,
  started_at  TIMESTAMP WITH TIME ZONE NOT NULL,
  last_seen   TIMESTAMP WITH TIME ZONE NOT NULL,
  leader_view VARCHAR                  NOT NULL DEFAULT ''
);

-- A client's standing NACKs of a type ("name=version" lines): the leader rolls back what a
-- follower's clients refuse, too.
ALTER TABLE client_status ADD COLUMN refusing VARCHAR NOT NULL DEFAULT '';

-- The lease term of the leader that appended each epoch (0: a standalone writer): who wrote what,
-- and the proof that a deposed leader appended nothing after it lost its lease.
ALTER TABLE epochs ADD COLUMN term BIGINT NOT NULL DEFAULT 0;
