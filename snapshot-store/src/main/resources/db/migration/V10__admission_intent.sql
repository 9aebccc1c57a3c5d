-- Admission intent (issue 31): the operator's drops (EDS drop_overloads) and the ejection freeze.
-- Durable like the publish freeze (V6): a restart or a new leader keeps shedding and keeps holding
-- ejections. Every change bumps intent_revision in the same transaction.

-- At most one row: present while ejections are frozen.
CREATE TABLE ejection_freeze (
  id        INTEGER                  NOT NULL PRIMARY KEY,
  actor     VARCHAR                  NOT NULL,
  reason    VARCHAR                  NOT NULL DEFAULT '',
  frozen_at TIMESTAMP WITH TIME ZONE NOT NULL,
  CONSTRAINT ejection_freeze_single_row CHECK (id = 1)
);

-- One drop per cluster and category, in parts per million of the calls (FractionalPercent MILLION):
-- clients apply a cluster's categories in the order created_at gives.
CREATE TABLE operator_drops (
  cluster     VARCHAR                  NOT NULL,
  category    VARCHAR                  NOT NULL,
  per_million INTEGER                  NOT NULL,
  actor       VARCHAR                  NOT NULL,
  reason      VARCHAR                  NOT NULL DEFAULT '',
  created_at  TIMESTAMP WITH TIME ZONE NOT NULL,
  PRIMARY KEY (cluster, category),
  CONSTRAINT operator_drops_share CHECK (per_million > 0 AND per_million <= 1000000)
);
