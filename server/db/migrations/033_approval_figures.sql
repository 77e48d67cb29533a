-- The dashboard's approval figures at scale (docs/performance.md, Approvals): each link carries what the figures filter
-- and measure by (its quote's agent and client, its scan's location and time, the answer's outcome), so they read one
-- narrow index instead of joining every link to its quote and scan and reading its decisions.
alter table quote_approvals
  add column agent_id bigint,
  add column client_id bigint,
  add column location_id bigint,
  add column scanned_at timestamptz,
  -- An answer's outcome, as approvalOutcome decides it: none declined is approved, none approved is declined.
  add column outcome text generated always as (
    case
      when decided_at is null then null
      when not jsonb_path_exists(lines, '$[*] ? (@.decision == "declined")') then 'approved'
      when not jsonb_path_exists(lines, '$[*] ? (@.decision == "approved")') then 'declined'
      else 'partially_approved'
    end
  ) stored;

update quote_approvals a set agent_id = q.agent_id, client_id = q.client_id, location_id = s.location_id, scanned_at = s.scanned_at
  from quotes q join scans s on s.id = q.scan_id
  where q.id = a.quote_id;

-- Kept by the database, so no writer of quotes or scans has to remember them.
create function quote_approvals_facts() returns trigger language plpgsql as $$
begin
  select q.agent_id, q.client_id, s.location_id, s.scanned_at
    into new.agent_id, new.client_id, new.location_id, new.scanned_at
    from quotes q join scans s on s.id = q.scan_id where q.id = new.quote_id;
  return new;
end $$;
create trigger quote_approvals_facts before insert on quote_approvals for each row execute function quote_approvals_facts();

create function quote_approvals_follow_quote() returns trigger language plpgsql as $$
begin
  update quote_approvals set agent_id = new.agent_id, client_id = new.client_id where quote_id = new.id;
  return null;
end $$;
create trigger quote_approvals_follow_quote after update of agent_id, client_id on quotes for each row
  when (old.agent_id is distinct from new.agent_id or old.client_id is distinct from new.client_id)
  execute function quote_approvals_follow_quote();

create function quote_approvals_follow_scan() returns trigger language plpgsql as $$
begin
  update quote_approvals a set location_id = new.location_id, scanned_at = new.scanned_at
    from quotes q where q.scan_id = new.id and a.quote_id = q.id;
  return null;
end $$;
create trigger quote_approvals_follow_scan after update of location_id, scanned_at on scans for each row
  when (old.location_id is distinct from new.location_id or old.scanned_at is distinct from new.scanned_at)
  execute function quote_approvals_follow_scan();

-- The figures of every scope read only these (index-only scans): by the sending time, and by agent or client first.
drop index quote_approvals_sent_idx;
create index quote_approvals_figures_idx on quote_approvals (sent_at)
  include (outcome, decided_at, revoked_at, expires_at, scanned_at, agent_id, client_id, location_id);
create index quote_approvals_agent_figures_idx on quote_approvals (agent_id, sent_at)
  include (outcome, decided_at, revoked_at, expires_at, scanned_at, client_id, location_id);
create index quote_approvals_client_figures_idx on quote_approvals (client_id, sent_at)
  include (outcome, decided_at, revoked_at, expires_at, scanned_at, agent_id, location_id);
