-- A Client user's locations include the sites where their clients have scans, read from the dashboard's yearly counts
-- (scan_stats, kept by the scans' statement triggers), so a cached locations page (018_page_cache.sql) must hear of a
-- new year row. Only a new row changes which sites a client has: a row trigger on the year grain's inserts, not a
-- statement trigger, which would fire on every scan write (each updates its buckets) and clear the cache for nothing.
-- A site whose last scan for a client is deleted stays listed for that client until the cache's entry ends
-- (PAGE_CACHE_SECONDS) on instances other than the one that deleted it.
create trigger page_cache_notify after insert on scan_stats
  for each row when (new.grain = 'y') execute function notify_page_cache();
