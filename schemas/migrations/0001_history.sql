-- opticsd history, schema version 1.
--
-- Applied by daemon/store (schema.cpp) in one transaction, which also records
-- the version in schema_version. Never edit a released migration: add the next
-- numbered file instead (NNNN_what.sql); the build embeds every file here.
--
-- Timestamps are UNIX milliseconds (UTC). A NULL value means "not reported"
-- by the module or device, never zero. Metric columns are named after the keys
-- in drivers/measurement.hpp; tests/unit/store checks that every key has one.

-- One row per (target, port): the place a module sits, stable across swaps.
CREATE TABLE modules (
  id     INTEGER PRIMARY KEY,
  target TEXT NOT NULL,
  port   TEXT NOT NULL,
  UNIQUE (target, port)
);

-- Identity history: a new row whenever what sits in the port changes (a swap
-- brings a new serial; a firmware upgrade a new firmware_version).
CREATE TABLE module_identities (
  id               INTEGER PRIMARY KEY,
  module_id        INTEGER NOT NULL REFERENCES modules (id),
  family           TEXT,
  form_factor      TEXT,
  media            TEXT,
  vendor           TEXT,
  vendor_oui       TEXT,
  part_number      TEXT,
  revision         TEXT,
  serial           TEXT,
  date_code        TEXT,
  connector        TEXT,
  firmware_version TEXT,
  spec_revision    TEXT,
  modulation       TEXT,
  wavelength_nm    REAL,
  cable_length_m   REAL,
  lane_rate_gbps   REAL,
  first_seen_ms    INTEGER NOT NULL,
  last_seen_ms     INTEGER NOT NULL
);
CREATE INDEX module_identities_by_module ON module_identities (module_id, first_seen_ms);

-- Module-level values, FEC counters and link state, one row per poll.
CREATE TABLE module_samples (
  module_id                      INTEGER NOT NULL REFERENCES modules (id),
  ts_ms                          INTEGER NOT NULL,
  present                        INTEGER NOT NULL,  -- 0: the port was empty
  temperature_celsius            REAL,
  supply_voltage_volts           REAL,
  laser_temperature_celsius      REAL,
  pre_fec_ber_ratio              REAL,
  post_fec_ber_ratio             REAL,
  laser_age_ratio                REAL,
  fec_corrected_blocks_total     INTEGER,
  fec_uncorrectable_blocks_total INTEGER,
  fec_corrected_bits_total       INTEGER,
  link_up                        INTEGER,
  link_down_events_total         INTEGER,
  link_speed_gbps                REAL
);
CREATE INDEX module_samples_by_module_time ON module_samples (module_id, ts_ms);

-- Per-lane values and status flags, one row per lane per poll. Lanes are
-- 1-based as modules number them.
CREATE TABLE lane_samples (
  module_id              INTEGER NOT NULL REFERENCES modules (id),
  lane                   INTEGER NOT NULL,
  ts_ms                  INTEGER NOT NULL,
  tx_bias_milliamperes   REAL,
  tx_power_dbm           REAL,
  rx_power_dbm           REAL,
  pre_fec_ber_ratio      REAL,
  pre_fec_ber_min_ratio  REAL,
  pre_fec_ber_max_ratio  REAL,
  pre_fec_ber_avg_ratio  REAL,
  host_pre_fec_ber_ratio REAL,
  errored_frames_ratio   REAL,
  esnr_decibels          REAL,
  ltp_decibels           REAL,
  rx_los                 INTEGER,
  tx_los                 INTEGER,
  rx_lol                 INTEGER,
  tx_lol                 INTEGER,
  tx_fault               INTEGER,
  tx_no_light            INTEGER,
  rx_no_light            INTEGER,
  data_path_state        INTEGER  -- CMIS data path state code, 4 = activated
);
CREATE INDEX lane_samples_by_module_time ON lane_samples (module_id, ts_ms);
