-- Scans per Melbourne day, month and year × agent × client × location × type (the dashboard's statistics):
-- kept by statement triggers on scans in the writing transaction, like scan_counts (007), so always exact. A date range
-- is answered from whole years, then whole months, then days (at most about 60 day buckets), never from the scans
-- themselves except for a day the range cuts within (a bound with a time of day).
create table scan_stats (
  -- 'd' day, 'm' month, 'y' year; period is the first Melbourne calendar day of it.
  grain char(1) not null check (grain in ('d', 'm', 'y')),
  period date not null,
  agent_id bigint not null,
  -- 0: a scan without a client (or location); ids start at 1.
  client_id bigint not null,
  location_id bigint not null,
  type text not null,
  -- Not checked >= 0: an ON CONFLICT update checks the proposed (negative) delta row before it merges.
  n bigint not null,
  -- n in the index too, so a range is read by an index-only scan.
  primary key (grain, period, agent_id, client_id, location_id, type) include (n)
);

-- Adds one signed weight per scan to its day, month and year; the deltas that net to zero write nothing.
create function scan_stats_apply(at timestamptz[], agent bigint[], client bigint[], location bigint[], kind text[], weight int[])
returns void language sql as $$
  with r as (
    select (u.t at time zone 'Australia/Melbourne')::date as day, u.a, coalesce(u.c, 0) as c, coalesce(u.l, 0) as l, u.k, u.w
    from unnest(at, agent, client, location, kind, weight) as u(t, a, c, l, k, w)
  ), g as (
    select 'd'::char(1) as grain, day as period, a, c, l, k, w from r
    union all select 'm', date_trunc('month', day)::date, a, c, l, k, w from r
    union all select 'y', date_trunc('year', day)::date, a, c, l, k, w from r
  ), deltas as (
    select grain, period, a, c, l, k, sum(w) as n from g group by grain, period, a, c, l, k
  )
  -- In key order, so two statements writing the same buckets take their row locks in the same order.
  insert into scan_stats as ss (grain, period, agent_id, client_id, location_id, type, n)
  select grain, period, a, c, l, k, n from deltas where n <> 0 order by grain, period, a, c, l, k
  on conflict (grain, period, agent_id, client_id, location_id, type) do update set n = ss.n + excluded.n
$$;

create function scans_stats_insert() returns trigger language plpgsql as $$
begin
  perform scan_stats_apply(array_agg(scanned_at), array_agg(agent_id), array_agg(client_id), array_agg(location_id), array_agg(type), array_agg(1))
  from new_rows;
  return null;
end $$;

create function scans_stats_update() returns trigger language plpgsql as $$
begin
  perform scan_stats_apply(array_agg(t), array_agg(a), array_agg(c), array_agg(l), array_agg(k), array_agg(w)) from (
    select scanned_at as t, agent_id as a, client_id as c, location_id as l, type as k, 1 as w from new_rows
    union all select scanned_at, agent_id, client_id, location_id, type, -1 from old_rows
  ) x;
  return null;
end $$;

create function scans_stats_delete() returns trigger language plpgsql as $$
begin
  perform scan_stats_apply(array_agg(scanned_at), array_agg(agent_id), array_agg(client_id), array_agg(location_id), array_agg(type), array_agg(-1))
  from old_rows;
  return null;
end $$;

create function scans_stats_truncate() returns trigger language plpgsql as $$
begin
  delete from scan_stats;
  return null;
end $$;

create trigger scans_stats_insert after insert on scans referencing new table as new_rows for each statement execute function scans_stats_insert();
create trigger scans_stats_update after update on scans referencing old table as old_rows new table as new_rows for each statement execute function scans_stats_update();
create trigger scans_stats_delete after delete on scans referencing old table as old_rows for each statement execute function scans_stats_delete();
create trigger scans_stats_truncate after truncate on scans for each statement execute function scans_stats_truncate();

-- Recounts from the scans (grouped in SQL, not through arrays): after a bulk load that bypassed the triggers
-- (session_replication_role = replica, as pg_restore sets), and here for the scans already stored.
create function scan_stats_rebuild() returns void language sql as $$
  delete from scan_stats;
  insert into scan_stats (grain, period, agent_id, client_id, location_id, type, n)
  select 'd', (scanned_at at time zone 'Australia/Melbourne')::date, agent_id, coalesce(client_id, 0), coalesce(location_id, 0), type, count(*)
  from scans group by 2, 3, 4, 5, 6;
  insert into scan_stats (grain, period, agent_id, client_id, location_id, type, n)
  select 'm', date_trunc('month', period)::date, agent_id, client_id, location_id, type, sum(n)
  from scan_stats where grain = 'd' group by 2, 3, 4, 5, 6;
  insert into scan_stats (grain, period, agent_id, client_id, location_id, type, n)
  select 'y', date_trunc('year', period)::date, agent_id, client_id, location_id, type, sum(n)
  from scan_stats where grain = 'm' group by 2, 3, 4, 5, 6;
$$;

select scan_stats_rebuild();
