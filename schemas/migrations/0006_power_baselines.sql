-- opticsd rules engine: each module's own Rx and Tx power baseline per lane,
-- schema version 6.
--
-- rx_power_drop / tx_power_drop compare a lane with the best of its window
-- and with what it received and sent when opticsd first saw the module, so a
-- loss that stays (a lane that sagged 4 dB and stopped) is still flagged once
-- the window has moved past the fall, and after a restart. Learned and
-- replaced with the bias baseline of the same rows (same serial, same time).
-- NULL: no baseline for that lane (dark while learned, or written before
-- version 6).
ALTER TABLE bias_baselines ADD COLUMN rx_dbm REAL;  -- mean Rx power over the module's first polls, dBm
ALTER TABLE bias_baselines ADD COLUMN tx_dbm REAL;  -- mean Tx power over the module's first polls, dBm
