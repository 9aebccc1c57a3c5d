-- Operator intent that must outlive the process (DESIGN "Operator intent is durable"): the freeze,
-- quarantined resources (what an automatic or operator rollback holds back), and confirmations of
-- held updates. Overrides (drain, eject, weight) were durable from V1. Every change to any of these
-- tables, overrides included, bumps intent_revision in the same transaction, so a writer that holds
-- a copy of the intent knows when to read it again (another replica may have written it).

CREATE TABLE intent_revision (
  id       INTEGER NOT NULL PRIMARY KEY,
  revision BIGINT  NOT NULL,
  CONSTRAINT intent_revision_single_row CHECK (id = 1)
);
INSERT INTO intent_revision (id, revision) VALUES (1, 0);

-- At most one row: present while frozen.
CREATE TABLE publish_freeze (
  id        INTEGER                  NOT NULL PRIMARY KEY,
  actor     VARCHAR                  NOT NULL,
  reason    VARCHAR                  NOT NULL DEFAULT '',
  frozen_at TIMESTAMP WITH TIME ZONE NOT NULL,
  CONSTRAINT publish_freeze_single_row CHECK (id = 1)
);

-- While translation still yields rejected_version of (type, name), the writer serves that
-- resource as it was in restore_epoch. An entry is deleted when its input changes.
CREATE TABLE quarantine (
  type             VARCHAR(16)              NOT NULL,
  name             VARCHAR                  NOT NULL,
  rejected_version VARCHAR                  NOT NULL,
  restore_epoch    BIGINT                   NOT NULL,
  reason           VARCHAR                  NOT NULL DEFAULT '',
  actor            VARCHAR                  NOT NULL,
  created_at       TIMESTAMP WITH TIME ZONE NOT NULL,
  PRIMARY KEY (type, name),
  CONSTRAINT quarantine_type CHECK (type IN ('LISTENER', 'ROUTE', 'CLUSTER', 'ENDPOINT'))
);

-- An operator let the held update of a cluster through: it applies while the cluster's update
-- still has this fingerprint.
CREATE TABLE held_confirmations (
  cluster      VARCHAR                  NOT NULL PRIMARY KEY,
  fingerprint  VARCHAR                  NOT NULL,
  actor        VARCHAR                  NOT NULL,
  confirmed_at TIMESTAMP WITH TIME ZONE NOT NULL
);
