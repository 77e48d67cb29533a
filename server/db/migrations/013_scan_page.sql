-- The scan page. The built-in registration look-up, tyre repair choices, mails sent about a scan and the
-- outbox's attachments.

-- The built-in plate look-up provider's registry (docs/scan-page.md): the demo seed fills it with the generator's
-- vehicles, so the demo answers offline. One row per plate and state; `number` upper-case without spaces or dashes.
create table registrations (
  id bigint generated always as identity primary key,
  number text not null check (number ~ '^[A-Z0-9]{1,20}$'),
  state text not null check (state in ('ACT','NSW','NT','QLD','SA','TAS','VIC','WA')),
  make text,
  model text,
  colour text,
  body_type text,
  -- Whole dollars, like scans.valuation.
  valuation bigint check (valuation >= 0),
  created_at timestamptz not null default now(),
  unique (number, state)
);
-- The autocomplete is a prefix search.
create index registrations_number_prefix_idx on registrations (number text_pattern_ops);

-- The agent viewer's tyre repair choice: one per wheel (row and side) of a scan; choosing again replaces it.
create table scan_tyre_repairs (
  scan_id bigint not null references scans(id) on delete cascade,
  "row" smallint not null check ("row" between 1 and 10),
  direction text not null check (direction in ('L', 'R')),
  repair_type text not null check (repair_type in ('repair', 'recheck', 'replace')),
  user_id bigint references users(id) on delete set null,
  updated_at timestamptz not null default now(),
  primary key (scan_id, "row", direction)
);

-- Every mail sent from a scan's Communication section: who sent it, to whom, what was attached (by stored file and name).
create table scan_mails (
  id bigint generated always as identity primary key,
  scan_id bigint not null references scans(id) on delete cascade,
  user_id bigint references users(id) on delete set null,
  mail_id bigint references mail_outbox(id) on delete set null,
  template_id bigint references email_templates(id) on delete set null,
  recipients text[] not null,
  subject text not null,
  -- [{key, filename, content_type, size}]
  attachments jsonb not null default '[]',
  created_at timestamptz not null default now()
);
create index scan_mails_scan_idx on scan_mails (scan_id, id desc);

-- A queued mail's attachments, copied at enqueue time (the mail does not depend on the file outliving it); removed once
-- the mail is sent or has failed for good.
create table mail_attachments (
  id bigint generated always as identity primary key,
  mail_id bigint not null references mail_outbox(id) on delete cascade,
  filename text not null,
  content_type text not null,
  content bytea not null
);
create index mail_attachments_mail_idx on mail_attachments (mail_id, id);
