-- Scans per Melbourne calendar day, so the scan list can give an exact total and find the day a deep
-- page starts on without walking the scans before it. Kept by statement triggers on scans, in the writing transaction:
-- always exact. Three dimensions: 'all' (key 0), 'agent' (key agent_id) and 'client' (key client_id; scans without a
-- client count under 'all' and 'agent' only). A day is the Melbourne date of scanned_at, the same day the list's
-- ts/te filters mean.
create table scan_counts (
  dim text not null check (dim in ('all', 'agent', 'client')),
  key bigint not null,
  day date not null,
  -- Not checked >= 0: an ON CONFLICT update checks the proposed (negative) delta row before it merges.
  n bigint not null,
  primary key (dim, key, day)
);

-- Adds one signed weight per (scanned_at, agent, client); the deltas that net to zero write nothing.
create function scan_counts_apply(at timestamptz[], agent bigint[], client bigint[], weight int[]) returns void language sql as $$
  with r as (
    select (u.t at time zone 'Australia/Melbourne')::date as day, u.a, u.c, u.w from unnest(at, agent, client, weight) as u(t, a, c, w)
  ), deltas as (
    select 'all'::text as dim, 0::bigint as key, day, sum(w) as n from r group by day
    union all select 'agent', a, day, sum(w) from r group by a, day
    union all select 'client', c, day, sum(w) from r where c is not null group by c, day
  )
  -- In key order, so two statements writing the same days take their row locks in the same order.
  insert into scan_counts as sc (dim, key, day, n)
  select dim, key, day, n from deltas where n <> 0 order by dim, key, day
  on conflict (dim, key, day) do update set n = sc.n + excluded.n
$$;

create function scans_counted_insert() returns trigger language plpgsql as $$
begin
  perform scan_counts_apply(array_agg(scanned_at), array_agg(agent_id), array_agg(client_id), array_agg(1)) from new_rows;
  return null;
end $$;

create function scans_counted_update() returns trigger language plpgsql as $$
begin
  perform scan_counts_apply(array_agg(t), array_agg(a), array_agg(c), array_agg(w)) from (
    select scanned_at as t, agent_id as a, client_id as c, 1 as w from new_rows
    union all select scanned_at, agent_id, client_id, -1 from old_rows
  ) x;
  return null;
end $$;

create function scans_counted_delete() returns trigger language plpgsql as $$
begin
  perform scan_counts_apply(array_agg(scanned_at), array_agg(agent_id), array_agg(client_id), array_agg(-1)) from old_rows;
  return null;
end $$;

create function scans_counted_truncate() returns trigger language plpgsql as $$
begin
  delete from scan_counts;
  return null;
end $$;

create trigger scans_counted_insert after insert on scans referencing new table as new_rows for each statement execute function scans_counted_insert();
create trigger scans_counted_update after update on scans referencing old table as old_rows new table as new_rows for each statement execute function scans_counted_update();
create trigger scans_counted_delete after delete on scans referencing old table as old_rows for each statement execute function scans_counted_delete();
create trigger scans_counted_truncate after truncate on scans for each statement execute function scans_counted_truncate();

-- Recounts from the scans: after a load that bypassed the triggers (session_replication_role = replica, as pg_restore
-- sets), and here for the scans already stored.
create function scan_counts_rebuild() returns void language sql as $$
  delete from scan_counts;
  select scan_counts_apply(array_agg(scanned_at), array_agg(agent_id), array_agg(client_id), array_agg(1)) from scans;
$$;

select scan_counts_rebuild();
