-- Foundation: users and access, agents and clients (the data scope), locations and devices, tokens, mail outbox, options.

create table roles (
  id bigint generated always as identity primary key,
  name text not null unique,
  display_name text,
  description text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table permissions (
  id bigint generated always as identity primary key,
  name text not null unique,
  display_name text,
  description text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table role_permissions (
  role_id bigint not null references roles(id) on delete cascade,
  permission_id bigint not null references permissions(id) on delete cascade,
  primary key (role_id, permission_id)
);

create table users (
  id bigint generated always as identity primary key,
  first_name text not null,
  last_name text not null,
  email text not null,
  password_hash text not null,
  consent smallint not null default 0,
  api_key_hash text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index users_email_key on users (lower(email));

create table user_roles (
  user_id bigint not null references users(id) on delete cascade,
  role_id bigint not null references roles(id) on delete cascade,
  primary key (user_id, role_id)
);

create table agents (
  id bigint generated always as identity primary key,
  name text not null,
  phone text,
  email text,
  address text,
  portal_email_address text,
  abn text,
  pincode_hash text,
  is_enabled smallint not null default 1,
  default_client_id bigint,
  primary_color text not null default '#0c1839',
  text_color text not null default '#000000',
  logo text,
  blurb text,
  language text not null default 'en',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table clients (
  id bigint generated always as identity primary key,
  name text not null,
  currency text not null default '$',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

alter table agents add constraint agents_default_client_fk foreign key (default_client_id) references clients(id) on delete set null;

create table user_agents (
  user_id bigint not null references users(id) on delete cascade,
  agent_id bigint not null references agents(id) on delete cascade,
  primary key (user_id, agent_id)
);
create index user_agents_agent_idx on user_agents (agent_id);

create table user_clients (
  user_id bigint not null references users(id) on delete cascade,
  client_id bigint not null references clients(id) on delete cascade,
  primary key (user_id, client_id)
);
create index user_clients_client_idx on user_clients (client_id);

-- A location belongs to the agent that runs it (null: a shared site only Super Admins manage).
create table locations (
  id bigint generated always as identity primary key,
  name text not null,
  state text not null check (state in ('ACT','NSW','NT','QLD','SA','TAS','VIC','WA')),
  agent_id bigint references agents(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index locations_agent_idx on locations (agent_id);
create index locations_name_idx on locations (lower(name));

create table devices (
  id bigint generated always as identity primary key,
  location_id bigint not null references locations(id) on delete restrict,
  type text not null check (type in ('arch','chasis','tire')),
  agent_id bigint not null references agents(id) on delete restrict,
  serial text not null,
  default_client_id bigint not null references clients(id) on delete restrict,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index devices_agent_idx on devices (agent_id);
create index devices_location_idx on devices (location_id);
create index devices_client_idx on devices (default_client_id);

-- Bearer tokens: only a SHA-256 of the token is kept.
create table api_tokens (
  id bigint generated always as identity primary key,
  user_id bigint not null references users(id) on delete cascade,
  token_hash text not null unique,
  impersonator_id bigint references users(id) on delete cascade,
  expires_at timestamptz not null,
  revoked_at timestamptz,
  last_used_at timestamptz,
  created_at timestamptz not null default now()
);
create index api_tokens_user_idx on api_tokens (user_id);

create table password_resets (
  id bigint generated always as identity primary key,
  user_id bigint not null references users(id) on delete cascade,
  token_hash text not null unique,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);

-- Failed sign-ins, for throttling per e-mail and client address.
create table login_failures (
  id bigint generated always as identity primary key,
  throttle_key text not null,
  failed_at timestamptz not null default now()
);
create index login_failures_key_idx on login_failures (throttle_key, failed_at);

-- Every e-mail is written here first, in the same transaction as what caused it, then delivered.
create table mail_outbox (
  id bigint generated always as identity primary key,
  recipients text[] not null,
  subject text not null,
  html text not null,
  text_body text not null,
  status text not null default 'pending' check (status in ('pending','sent','failed')),
  attempts int not null default 0,
  last_error text,
  sent_at timestamptz,
  created_at timestamptz not null default now()
);
create index mail_outbox_pending_idx on mail_outbox (created_at) where status = 'pending';

create table options (
  id bigint generated always as identity primary key,
  option_name text not null unique,
  option_value text not null default '',
  field_type text not null default 'text',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- Security-relevant events (impersonation, API keys, password changes).
create table audit_log (
  id bigint generated always as identity primary key,
  action text not null,
  actor_id bigint references users(id) on delete set null,
  subject_id bigint references users(id) on delete set null,
  detail jsonb not null default '{}',
  created_at timestamptz not null default now()
);
