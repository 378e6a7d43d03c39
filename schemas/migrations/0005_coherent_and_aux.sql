-- opticsd history, schema version 5: CMIS Aux TEC current and the coherent
-- line side (OIF C-CMIS VDM observables, or a switch's coherent optics MIB).
--
-- 400ZR/ZR+ modules carry the links between training halls; their health is
-- read from OSNR, dispersion and polarization figures, not from DOM alone.
-- Column names are the keys in drivers/measurement.hpp; NULL is "not reported".
ALTER TABLE module_samples ADD COLUMN tec_current_percent REAL;
ALTER TABLE lane_samples ADD COLUMN osnr_decibels REAL;
ALTER TABLE lane_samples ADD COLUMN chromatic_dispersion_ps_per_nm REAL;
ALTER TABLE lane_samples ADD COLUMN differential_group_delay_picoseconds REAL;
ALTER TABLE lane_samples ADD COLUMN sopmd_picoseconds_squared REAL;
ALTER TABLE lane_samples ADD COLUMN polarization_dependent_loss_decibels REAL;
ALTER TABLE lane_samples ADD COLUMN carrier_frequency_offset_megahertz REAL;
ALTER TABLE lane_samples ADD COLUMN rx_total_power_dbm REAL;
ALTER TABLE lane_samples ADD COLUMN rx_signal_power_dbm REAL;
ALTER TABLE lane_samples ADD COLUMN q_factor_decibels REAL;
ALTER TABLE lane_samples ADD COLUMN error_vector_magnitude_percent REAL;
ALTER TABLE lane_samples ADD COLUMN sop_rate_of_change_kiloradians_per_second REAL;
ALTER TABLE lane_samples ADD COLUMN modulator_bias_x_i_percent REAL;
ALTER TABLE lane_samples ADD COLUMN modulator_bias_x_q_percent REAL;
ALTER TABLE lane_samples ADD COLUMN modulator_bias_y_i_percent REAL;
ALTER TABLE lane_samples ADD COLUMN modulator_bias_y_q_percent REAL;
ALTER TABLE lane_samples ADD COLUMN modulator_bias_x_phase_percent REAL;
ALTER TABLE lane_samples ADD COLUMN modulator_bias_y_phase_percent REAL;
