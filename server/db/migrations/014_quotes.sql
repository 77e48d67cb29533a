-- Quotes: one per scan, priced by the server with the engine of src/domain/pricing.ts.
-- A quote keeps what it was priced with (the client's prices, surcharges, currency and GST), so a later price change
-- never alters an issued quote; saving again re-prices it in place (same id: the quote number).
create table quotes (
  id bigint generated always as identity primary key,
  scan_id bigint not null unique references scans(id) on delete cascade,
  -- The scan's agent (a scan never changes agent) and the client the quote was priced for: the data scope, as scans.
  agent_id bigint not null references agents(id) on delete restrict,
  client_id bigint not null references clients(id) on delete restrict,
  -- The assessor: the signed-in user who last saved it, with the name as it was.
  user_id bigint references users(id) on delete set null,
  assessor text,
  type text not null default 'arch' check (type in ('arch', 'chasis', 'tire')),
  metallic boolean not null default false,
  pearl boolean not null default false,
  aluminium boolean not null default false,
  vehicle_type text not null default 'D' check (vehicle_type in ('D', 'L', 'XL')),
  manual_check boolean not null default false,
  assessor_comments text,
  -- Keyed by panel id: the choices and the figures the engine gave (decimal amounts).
  items jsonb not null default '{}'::jsonb,
  products jsonb not null default '[]'::jsonb,
  parts jsonb not null default '[]'::jsonb,
  -- What it was priced with: sc_metallic, sc_pearl, sc_p2p, the matrix rows of its panels' parts, name, contact.
  client_snapshot jsonb not null,
  currency text not null default '$',
  gst_percent numeric(7,4) not null check (gst_percent >= 0),
  pdr numeric(12,2) not null default 0 check (pdr >= 0),
  conventional numeric(12,2) not null default 0 check (conventional >= 0),
  p2p numeric(12,2) not null default 0 check (p2p >= 0),
  replacement numeric(12,2) not null default 0 check (replacement >= 0),
  product numeric(12,2) not null default 0 check (product >= 0),
  sub_total numeric(12,2) not null default 0 check (sub_total >= 0),
  tax numeric(12,2) not null default 0 check (tax >= 0),
  grant_total numeric(12,2) not null default 0 check (grant_total >= 0),
  -- Stored file keys (server/lib/storage.ts); the record sends their URLs.
  vehicle_photo text,
  pdf_key text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- The list's default order, and each filter reading its rows already in that order.
create index quotes_created_idx on quotes (created_at desc, id desc);
create index quotes_agent_created_idx on quotes (agent_id, created_at desc, id desc);
create index quotes_client_created_idx on quotes (client_id, created_at desc, id desc);
create index quotes_type_created_idx on quotes (type, created_at desc, id desc);

-- Quote report exports (GET quotes/export-quote-report), removed by the hourly sweep a day later (as scan_exports).
create table quote_exports (
  key text primary key,
  user_id bigint references users(id) on delete set null,
  format text not null check (format in ('csv', 'xlsx')),
  rows int not null check (rows >= 0),
  created_at timestamptz not null default now()
);
create index quote_exports_created_idx on quote_exports (created_at);
