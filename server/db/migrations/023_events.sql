-- The history of scans and quotes: one row per write of the scan and quote services, written in the write's
-- transaction (server/lib/events-repository.ts). `actor_id` is the acting user (null for the demo seed), `admin_id`
-- the Super Admin behind an impersonation; `actor_name` keeps the name as it was, so a renamed or removed user's
-- changes still read as theirs. No foreign keys: the history outlives the scan, the quote and the users it names.
-- `before` and `after` hold only the fields that changed. `agent_id` and `client_id` are the subject's scope at the
-- time, so the history routes filter it by the reader's scope like the subject itself.
create table events (
  id bigint generated always as identity primary key,
  at timestamptz not null default now(),
  actor_id bigint,
  actor_name text,
  admin_id bigint,
  subject_kind text not null check (subject_kind in ('scan', 'quote')),
  subject_id bigint not null,
  action text not null,
  before jsonb not null default '{}',
  after jsonb not null default '{}',
  agent_id bigint,
  client_id bigint
);
create index events_subject_idx on events (subject_kind, subject_id, at);

-- Append-only: the database itself refuses to change or remove a recorded event, whoever asks.
create function events_append_only() returns trigger
language plpgsql as $$
begin
  raise exception 'events are append-only: % refused', tg_op using errcode = 'insufficient_privilege';
end
$$;
create trigger events_no_update before update or delete on events
  for each row execute function events_append_only();
create trigger events_no_truncate before truncate on events
  for each statement execute function events_append_only();
