-- opticsd findings and straggler suspects, schema version 2.
--
-- Written by the rules engine (daemon/rules/findings_store.cpp) from its own
-- writer thread, never the polling thread. Timestamps are UNIX milliseconds.

-- One row per finding: raised at start_ms, cleared at end_ms (NULL while
-- active). value and detail are what triggered it when it was raised.
CREATE TABLE findings (
  id       INTEGER PRIMARY KEY,
  target   TEXT NOT NULL,
  port     TEXT NOT NULL,
  lane     INTEGER NOT NULL DEFAULT 0,  -- 1-based; 0: the module or port as a whole
  rule     TEXT NOT NULL,
  severity TEXT NOT NULL,               -- info, warning, critical
  start_ms INTEGER NOT NULL,
  end_ms   INTEGER,
  value    REAL,
  detail   TEXT NOT NULL DEFAULT '',
  UNIQUE (target, port, lane, rule, start_ms)
);
CREATE INDEX findings_by_end ON findings (end_ms);
CREATE INDEX findings_by_start ON findings (start_ms);

-- The latest straggler suspects, replaced per target after each poll that
-- changed them, with what sits behind the port when the topology knows it.
CREATE TABLE suspects (
  target     TEXT NOT NULL,
  port       TEXT NOT NULL,
  score      REAL NOT NULL,  -- 0..1
  reason     TEXT NOT NULL,
  host       TEXT,
  nic        TEXT,
  gpu        TEXT,
  rail       TEXT,
  updated_ms INTEGER NOT NULL,
  PRIMARY KEY (target, port)
);
