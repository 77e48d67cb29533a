-- A scan's tyre sides, read by scan: the scan page, the vehicle page's tread history (every scan of the vehicle) and
-- the tyre wear projection. Without it each read scanned the whole table (docs/performance.md, Vehicle history).
create index scan_tyres_scan_idx on scan_tyres (scan_id);
