-- Agents, devices, webhooks and panel groups: the portal pin throttle, webhooks, panel groups, uploaded files.

-- Failed customer-portal pin checks, for throttling per agent and client address (5 per 15 minutes).
create table pin_failures (
  id bigint generated always as identity primary key,
  throttle_key text not null,
  failed_at timestamptz not null default now()
);
create index pin_failures_key_idx on pin_failures (throttle_key, failed_at);

-- An agent's webhooks; the secret (whsec_...) is made by the server and signs the deliveries.
create table webhooks (
  id bigint generated always as identity primary key,
  agent_id bigint not null references agents(id) on delete cascade,
  endpoint text not null,
  description text,
  secret text not null,
  events text[] not null default '{}',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index webhooks_agent_idx on webhooks (agent_id);

-- The car views the quote screen groups panels by (front, rear, left, right, top); image is a stored file URL.
create table panel_groups (
  id bigint generated always as identity primary key,
  name text not null,
  image text,
  position int not null check (position >= 1),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index panel_groups_position_idx on panel_groups (position);

-- Files uploaded through POST /api/user/file/upload, so that only their uploader (or a Super Admin) may delete them.
create table uploaded_files (
  key text primary key,
  user_id bigint references users(id) on delete set null,
  content_type text not null,
  size int not null,
  created_at timestamptz not null default now()
);

create index agents_default_client_idx on agents (default_client_id);
