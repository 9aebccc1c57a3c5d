-- Load reports (LRS), as each replica aggregates them: one row per replica, interval and cluster x
-- locality (x endpoint; '' for the locality as a whole), written once per interval and summed over
-- replicas by readers. Kept for an hour (deleted by every replica, see LoadReportStore.deleteBefore).
CREATE TABLE load_intervals (
  interval_start TIMESTAMP WITH TIME ZONE NOT NULL,
  replica        VARCHAR                  NOT NULL,
  cluster        VARCHAR                  NOT NULL,
  region         VARCHAR                  NOT NULL,
  zone           VARCHAR                  NOT NULL,
  sub_zone       VARCHAR                  NOT NULL,
  endpoint       VARCHAR                  NOT NULL,
  issued         BIGINT                   NOT NULL,
  succeeded      BIGINT                   NOT NULL,
  errored        BIGINT                   NOT NULL,
  in_flight      BIGINT                   NOT NULL,
  PRIMARY KEY (cluster, interval_start, replica, region, zone, sub_zone, endpoint)
);

-- Drops per replica, interval, cluster and category ('' for drops counted without one).
CREATE TABLE load_drops (
  interval_start TIMESTAMP WITH TIME ZONE NOT NULL,
  replica        VARCHAR                  NOT NULL,
  cluster        VARCHAR                  NOT NULL,
  category       VARCHAR                  NOT NULL,
  dropped        BIGINT                   NOT NULL,
  PRIMARY KEY (cluster, interval_start, replica, category)
);

-- One row per reporting client and replica, upserted each interval it reported: freshness, and its
-- clusters and work as the control plane encodes them (text lines).
CREATE TABLE load_clients (
  node_id         VARCHAR                  NOT NULL,
  replica         VARCHAR                  NOT NULL,
  last_report     TIMESTAMP WITH TIME ZONE NOT NULL,
  reporting_since TIMESTAMP WITH TIME ZONE NOT NULL,
  clusters        TEXT                     NOT NULL,
  work            TEXT                     NOT NULL,
  PRIMARY KEY (node_id, replica)
);

CREATE INDEX load_intervals_start_idx ON load_intervals (interval_start);
CREATE INDEX load_drops_start_idx ON load_drops (interval_start);
