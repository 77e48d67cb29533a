-- The scan list's "New damage" column and filter (docs/server.md, Vehicles): how much damage a scan gained over its
-- vehicle's previous scan (the sum of the positive differences), stored with the comparison.
alter table scan_comparisons add column new_damage_count integer not null default 0 check (new_damage_count >= 0);

update scan_comparisons c set new_damage_count = coalesce((
    select sum((l ->> 'delta')::int) from jsonb_array_elements(c.differences) p, jsonb_array_elements(p -> 'levels') l
    where (l ->> 'delta')::int > 0
  ), 0);

-- The list filtered to new damage reads the few scans that have some, not every comparison.
create index scan_comparisons_new_damage_idx on scan_comparisons (scan_id) where has_new_damage;
