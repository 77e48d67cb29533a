-- Quote revisions and supplements. A quote's revision is what the customer is sent: 0 the original estimate, 1 the
-- first supplement (S1), and so on. It is not the quote's `version`, the optimistic-concurrency counter of saves.
alter table quotes add column revision integer not null default 0;

-- The link was sent for this revision of its quote: a supplement's re-approval reads the earlier revision's answer.
alter table quote_approvals add column revision integer not null default 0;
-- The earlier answers a supplement's link carries over ({key: {decision, reason}}): only the other lines are asked.
alter table quote_approvals add column carried jsonb;

-- A revision frozen when it is sent for approval: the saved quote as its record serialises it, its grand total, the
-- client it was priced with and a copy of its PDF of that moment (a file of its own: a later save replaces only the
-- quote's current PDF), so no later save, price change or GST change alters it.
create table quote_revisions (
  id bigint generated always as identity primary key,
  quote_id bigint not null references quotes(id) on delete cascade,
  number integer not null check (number >= 0),
  quote jsonb not null,
  grand_total numeric(12, 2) not null,
  client_snapshot jsonb not null,
  pdf_key text,
  created_at timestamptz not null default now(),
  created_by bigint references users(id) on delete set null,
  unique (quote_id, number)
);
-- The files route finds the quote a frozen PDF belongs to.
create index quote_revisions_pdf_idx on quote_revisions (pdf_key) where pdf_key is not null;
