-- Several instances on one database.

-- A mail being sent is claimed until this moment (a lease): another instance skips it meanwhile, and takes it over
-- once the lease has run out (the sender died mid-send).
alter table mail_outbox add column claimed_until timestamptz;

-- The real-time bus (LISTEN/NOTIFY) carries a message over NOTIFY's 8 kB limit by its id in this table; listeners read it
-- by id, and rows older than a few minutes are swept.
create table bus_messages (
  id bigint generated always as identity primary key,
  payload text not null,
  created_at timestamptz not null default now()
);
create index bus_messages_created_idx on bus_messages (created_at);

-- The general request rate limit, shared by every instance: one row per client key and window. Unlogged: a crash may
-- forget the counts of the current minute, never anything else.
create unlogged table rate_limits (
  key text primary key,
  hits int not null,
  expires_at timestamptz not null
);
create index rate_limits_expires_idx on rate_limits (expires_at);
