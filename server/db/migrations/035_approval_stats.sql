-- The dashboard's approval figures without reading every link (docs/performance.md, Approvals):
-- * counts of links per Melbourne day, month and year of sending × agent × client × location × state, kept like
--   scan_stats (015) by statement triggers in the writing transaction, so always exact; a range reads whole years,
--   then whole months, then days, and counts only the days a bound with a time of day cuts on the links;
-- * each approved link's durations as columns with their own ordered indexes, so a percentile is read at its rank
--   along the index instead of sorting every approved link.
create table approval_stats (
  -- 'd' day, 'm' month, 'y' year; period is the first Melbourne calendar day of it.
  grain char(1) not null check (grain in ('d', 'm', 'y')),
  period date not null,
  agent_id bigint not null,
  -- 0: no client or location; ids start at 1.
  client_id bigint not null,
  location_id bigint not null,
  -- A link's state: its answer's outcome (approved, partially_approved, declined), else revoked or open (unanswered;
  -- expired once past expires_at, which the reader counts, since time alone moves a link there).
  state text not null,
  -- Not checked >= 0: an ON CONFLICT update checks the proposed (negative) delta row before it merges.
  n bigint not null,
  primary key (grain, period, agent_id, client_id, location_id, state) include (n)
);

create function approval_state(outcome text, revoked_at timestamptz) returns text immutable language sql as $$
  select coalesce(outcome, case when revoked_at is null then 'open' else 'revoked' end)
$$;

-- Adds one signed weight per link to its day, month and year; the deltas that net to zero write nothing.
create function approval_stats_apply(at timestamptz[], agent bigint[], client bigint[], location bigint[], st text[], weight int[])
returns void language sql as $$
  with r as (
    select (u.t at time zone 'Australia/Melbourne')::date as day, coalesce(u.a, 0) as a, coalesce(u.c, 0) as c,
      coalesce(u.l, 0) as l, u.s, u.w
    from unnest(at, agent, client, location, st, weight) as u(t, a, c, l, s, w)
  ), g as (
    select 'd'::char(1) as grain, day as period, a, c, l, s, w from r
    union all select 'm', date_trunc('month', day)::date, a, c, l, s, w from r
    union all select 'y', date_trunc('year', day)::date, a, c, l, s, w from r
  ), deltas as (
    select grain, period, a, c, l, s, sum(w) as n from g group by grain, period, a, c, l, s
  )
  -- In key order, so two statements writing the same buckets take their row locks in the same order.
  insert into approval_stats as st (grain, period, agent_id, client_id, location_id, state, n)
  select grain, period, a, c, l, s, n from deltas where n <> 0 order by grain, period, a, c, l, s
  on conflict (grain, period, agent_id, client_id, location_id, state) do update set n = st.n + excluded.n
$$;

create function quote_approvals_stats_insert() returns trigger language plpgsql as $$
begin
  perform approval_stats_apply(array_agg(sent_at), array_agg(agent_id), array_agg(client_id), array_agg(location_id),
    array_agg(approval_state(outcome, revoked_at)), array_agg(1))
  from new_rows;
  return null;
end $$;

-- Every update statement (a first view too) passes here; its rows net to zero unless a counted fact moved.
create function quote_approvals_stats_update() returns trigger language plpgsql as $$
begin
  perform approval_stats_apply(array_agg(t), array_agg(a), array_agg(c), array_agg(l), array_agg(s), array_agg(w)) from (
    select sent_at as t, agent_id as a, client_id as c, location_id as l, approval_state(outcome, revoked_at) as s, 1 as w from new_rows
    union all select sent_at, agent_id, client_id, location_id, approval_state(outcome, revoked_at), -1 from old_rows
  ) x;
  return null;
end $$;

create function quote_approvals_stats_delete() returns trigger language plpgsql as $$
begin
  perform approval_stats_apply(array_agg(sent_at), array_agg(agent_id), array_agg(client_id), array_agg(location_id),
    array_agg(approval_state(outcome, revoked_at)), array_agg(-1))
  from old_rows;
  return null;
end $$;

create function quote_approvals_stats_truncate() returns trigger language plpgsql as $$
begin
  delete from approval_stats;
  return null;
end $$;

create trigger quote_approvals_stats_insert after insert on quote_approvals referencing new table as new_rows
  for each statement execute function quote_approvals_stats_insert();
create trigger quote_approvals_stats_update after update on quote_approvals referencing old table as old_rows new table as new_rows
  for each statement execute function quote_approvals_stats_update();
create trigger quote_approvals_stats_delete after delete on quote_approvals referencing old table as old_rows
  for each statement execute function quote_approvals_stats_delete();
create trigger quote_approvals_stats_truncate after truncate on quote_approvals
  for each statement execute function quote_approvals_stats_truncate();

-- Recounts from the links (grouped in SQL, not through arrays): after a load that bypassed the triggers, and here
-- for the links already stored.
create function approval_stats_rebuild() returns void language sql as $$
  delete from approval_stats;
  insert into approval_stats (grain, period, agent_id, client_id, location_id, state, n)
  select 'd', (sent_at at time zone 'Australia/Melbourne')::date, coalesce(agent_id, 0), coalesce(client_id, 0),
    coalesce(location_id, 0), approval_state(outcome, revoked_at), count(*)
  from quote_approvals group by 2, 3, 4, 5, 6;
  insert into approval_stats (grain, period, agent_id, client_id, location_id, state, n)
  select 'm', date_trunc('month', period)::date, agent_id, client_id, location_id, state, sum(n)
  from approval_stats where grain = 'd' group by 2, 3, 4, 5, 6;
  insert into approval_stats (grain, period, agent_id, client_id, location_id, state, n)
  select 'y', date_trunc('year', period)::date, agent_id, client_id, location_id, state, sum(n)
  from approval_stats where grain = 'm' group by 2, 3, 4, 5, 6;
$$;

select approval_stats_rebuild();

-- An approved (or partially approved) link's seconds from the sending and from the scan to the answer; null for any
-- other link. The condition is the outcome's (migration 033) written out, since a generated column cannot read another.
alter table quote_approvals
  add column send_seconds double precision generated always as (
    case when decided_at is not null and (jsonb_path_exists(lines, '$[*] ? (@.decision == "approved")')
        or not jsonb_path_exists(lines, '$[*] ? (@.decision == "declined")'))
      then extract(epoch from decided_at - sent_at)::double precision end
  ) stored,
  add column scan_seconds double precision generated always as (
    case when decided_at is not null and (jsonb_path_exists(lines, '$[*] ? (@.decision == "approved")')
        or not jsonb_path_exists(lines, '$[*] ? (@.decision == "declined")'))
      then extract(epoch from decided_at - scanned_at)::double precision end
  ) stored;

-- Ordered by each duration with what the figures filter by, so a rank is an index-only walk; the planner takes these
-- for a broad scope and the agent or client indexes (033) with a sort for a narrow one.
create index quote_approvals_send_seconds_idx on quote_approvals (send_seconds)
  include (sent_at, agent_id, client_id, location_id) where send_seconds is not null;
create index quote_approvals_scan_seconds_idx on quote_approvals (scan_seconds)
  include (sent_at, agent_id, client_id, location_id) where scan_seconds is not null;

-- The unanswered links not yet expired: the few that the open count holds but the expired count must not.
create index quote_approvals_open_idx on quote_approvals (expires_at)
  include (sent_at, agent_id, client_id, location_id) where decided_at is null and revoked_at is null;

-- The figures read from the links only the durations, the state and what they filter by: the covering indexes of
-- migration 033 carry those, so a narrow scope's percentiles sort its few links without touching the table.
drop index quote_approvals_figures_idx;
drop index quote_approvals_agent_figures_idx;
drop index quote_approvals_client_figures_idx;
create index quote_approvals_figures_idx on quote_approvals (sent_at)
  include (send_seconds, scan_seconds, outcome, revoked_at, agent_id, client_id, location_id);
create index quote_approvals_agent_figures_idx on quote_approvals (agent_id, sent_at)
  include (send_seconds, scan_seconds, outcome, revoked_at, client_id, location_id);
create index quote_approvals_client_figures_idx on quote_approvals (client_id, sent_at)
  include (send_seconds, scan_seconds, outcome, revoked_at, agent_id, location_id);
