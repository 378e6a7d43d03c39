-- opticsd history: an index on the serial of module identities, schema
-- version 8 (issue 28).
--
-- The optic page asks "where was this serial seen before?" on every view.
-- Without an index that question scanned every identity row of the fleet
-- (64,000 rows, ~20 ms of CPU at 64,000 modules); with it, it is a lookup.
CREATE INDEX module_identities_by_serial ON module_identities (serial);
