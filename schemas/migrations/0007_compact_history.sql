-- opticsd history in a compact layout, schema version 7 (issue 14).
--
-- One row per module per stored instant; every value of the module and its
-- lanes packed into `data` as integers at each quantity's register resolution
-- (daemon/store/packed_sample.hpp, value_codec.hpp), keyed by a small code per
-- catalogue key. A new catalogue metric gets the next code in metric_codes at
-- open: no migration. Rows are kept by exception (deadband.hpp): on a change
-- beyond a tolerance, on a state change, around a finding, and at a heartbeat.
--
-- The rows of module_samples/lane_samples (versions 1-6) are converted into
-- module_history by the writer at open, a chunk per transaction, with progress
-- in the log; the emptied tables stay so that later ALTERs on them still apply.

CREATE TABLE metric_codes (
  code INTEGER PRIMARY KEY AUTOINCREMENT,  -- 1, 2, 3 ... in order of first use, never reused
  key  TEXT NOT NULL UNIQUE  -- the catalogue key, e.g. rx_power_dbm
);

CREATE TABLE module_history (
  module_id INTEGER NOT NULL REFERENCES modules (id),
  ts_ms     INTEGER NOT NULL,
  kind      INTEGER NOT NULL,  -- why it was kept: 0 change, 1 heartbeat, 2 around a finding, 3 converted
  data      BLOB NOT NULL,
  PRIMARY KEY (module_id, ts_ms)
) WITHOUT ROWID;

-- Progress of long background work (downsampling tiers, the conversion), so a
-- restart resumes where it stopped instead of walking old rows again.
CREATE TABLE store_progress (
  name  TEXT PRIMARY KEY,
  value INTEGER NOT NULL
) WITHOUT ROWID;
