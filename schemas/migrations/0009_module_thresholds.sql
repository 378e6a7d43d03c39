-- opticsd history: the alarm and warning thresholds each module advertises,
-- schema version 8 (issue 29).
--
-- Rules judge some values against the module's own limits where it has them
-- (module_alarm; alarm_forecast extrapolates Rx power and temperature toward
-- them), so history without them cannot replay what the daemon judged live.
-- They are constants of the module's memory: a row when a module's table
-- differs from the last one recorded for its port, kept from first_seen_ms
-- until the next row (or a new identity, module_identities) replaces it.
-- A poll that reports no thresholds records nothing.
--
-- `data` is packed as module_history.data (daemon/store/packed_sample.hpp),
-- each limit at its metric's resolution: the metric's key code, and as the
-- "lane" which limit it is, 1-4 for a module metric (high alarm, high
-- warning, low warning, low alarm), 5-8 the same for a lane metric (its
-- limits apply to every lane). daemon/store/threshold_rows.hpp.
CREATE TABLE module_thresholds (
  module_id     INTEGER NOT NULL REFERENCES modules (id),
  first_seen_ms INTEGER NOT NULL,
  data          BLOB NOT NULL,
  PRIMARY KEY (module_id, first_seen_ms)
) WITHOUT ROWID;
