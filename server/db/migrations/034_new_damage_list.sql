-- The scan list filtered to new damage (docs/server.md, Vehicles; docs/performance.md): its rows are found from the
-- comparisons with new damage of the reader's basis, newest first, instead of scan by scan, so a scope where new damage
-- is rare costs what its matches cost. Each comparison carries its scan's time, agent and client for that.
alter table scan_comparisons add column scanned_at timestamptz, add column agent_id bigint, add column client_id bigint;

update scan_comparisons k set scanned_at = s.scanned_at, agent_id = s.agent_id, client_id = s.client_id
  from scans s where s.id = k.scan_id;

-- Kept by the database, so no writer of comparisons or scans has to remember them.
create function scan_comparisons_facts() returns trigger language plpgsql as $$
begin
  select s.scanned_at, s.agent_id, s.client_id into new.scanned_at, new.agent_id, new.client_id from scans s where s.id = new.scan_id;
  return new;
end $$;
create trigger scan_comparisons_facts before insert or update of scan_id on scan_comparisons for each row
  execute function scan_comparisons_facts();

create function scan_comparisons_follow_scan() returns trigger language plpgsql as $$
begin
  update scan_comparisons set scanned_at = new.scanned_at, agent_id = new.agent_id, client_id = new.client_id
    where scan_id = new.id;
  return null;
end $$;
create trigger scan_comparisons_follow_scan after update of scanned_at, agent_id, client_id on scans for each row
  when (old.scanned_at is distinct from new.scanned_at or old.agent_id is distinct from new.agent_id
    or old.client_id is distinct from new.client_id)
  execute function scan_comparisons_follow_scan();

-- One partial index per basis, in list order, led by the scope's column where the basis has one.
drop index scan_comparisons_new_damage_idx;
create index scan_comparisons_new_all_idx on scan_comparisons (scanned_at desc, scan_id desc) where has_new_damage and for_all;
create index scan_comparisons_new_agent_idx on scan_comparisons (agent_id, scanned_at desc, scan_id desc)
  where has_new_damage and for_agent;
create index scan_comparisons_new_client_idx on scan_comparisons (client_id, scanned_at desc, scan_id desc)
  where has_new_damage and for_client;
create index scan_comparisons_new_pair_idx on scan_comparisons (agent_id, client_id, scanned_at desc, scan_id desc)
  where has_new_damage and for_pair;
