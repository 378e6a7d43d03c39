-- opticsd rules engine: each module's own Tx bias baseline, schema version 3.
--
-- The bias_drift rule compares a laser's bias with what it drew when opticsd
-- first saw the module. Kept here so that a restarted daemon does not learn
-- its baseline again from a module that has already drifted. Written by
-- daemon/rules/findings_store.cpp from its writer thread; read once at start.

-- One row per lane; a port's rows are replaced together when a (new) module's
-- baseline is learned. serial is the module it was learned on: after a swap
-- the stored rows do not apply and the new module learns its own.
CREATE TABLE bias_baselines (
  target     TEXT NOT NULL,
  port       TEXT NOT NULL,
  lane       INTEGER NOT NULL,  -- 1-based
  serial     TEXT NOT NULL,
  bias_ma    REAL NOT NULL,     -- mean Tx bias over the module's first polls, milliamperes
  learned_ms INTEGER NOT NULL,  -- UNIX milliseconds
  PRIMARY KEY (target, port, lane)
);
