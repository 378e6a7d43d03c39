-- opticsd history, schema version 4: the host side of CMIS VDM per lane.
--
-- Version 1 kept only the host side's current pre-FEC BER. The host input's
-- BER statistics, errored frames, eSNR and LTP tell a bad host SerDes or
-- electrical channel (the NIC or switch ASIC side) from a bad optical path.
-- Column names are the keys in drivers/measurement.hpp; NULL is "not reported".
ALTER TABLE lane_samples ADD COLUMN host_pre_fec_ber_min_ratio REAL;
ALTER TABLE lane_samples ADD COLUMN host_pre_fec_ber_max_ratio REAL;
ALTER TABLE lane_samples ADD COLUMN host_pre_fec_ber_avg_ratio REAL;
ALTER TABLE lane_samples ADD COLUMN host_errored_frames_ratio REAL;
ALTER TABLE lane_samples ADD COLUMN host_esnr_decibels REAL;
ALTER TABLE lane_samples ADD COLUMN host_ltp_decibels REAL;
