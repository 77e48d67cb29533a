-- Security: failed attempts counted and checked in one statement, upload quotas.

-- Login, profile password and portal pin throttles: one row per bucket and key. An attempt is counted before it is
-- checked, by `insert ... on conflict do update ... returning attempts`, so parallel attempts cannot all pass the limit.
create table auth_throttles (
  bucket text not null,
  throttle_key text not null,
  attempts int not null,
  window_start timestamptz not null default now(),
  primary key (bucket, throttle_key)
);
create index auth_throttles_window_idx on auth_throttles (bucket, window_start);
-- Replaced by auth_throttles (they counted after checking, so parallel attempts were all checked).
drop table login_failures;
drop table pin_failures;

-- Bytes stored for an agent by its devices (scan images and videos); the sum is held to UPLOAD_QUOTA_MB.
create table agent_uploads (
  key text primary key,
  agent_id bigint not null references agents(id) on delete cascade,
  size bigint not null check (size >= 0),
  created_at timestamptz not null default now()
);
create index agent_uploads_agent_idx on agent_uploads (agent_id);
-- file/upload bytes are summed per uploader for the same quota.
create index uploaded_files_user_idx on uploaded_files (user_id);

-- A client's logo is an http(s) URL from now on: a stored javascript:, data: or other URL is dropped.
update clients set logo = null where logo is not null and logo !~* '^https?://';

insert into options (option_name, option_value, field_type) values ('UPLOAD_QUOTA_MB', '500', 'text')
  on conflict (option_name) do nothing;
