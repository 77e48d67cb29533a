-- Export files (GET scans/export-scan-report): kept in the file store for a day, then removed by the server's sweep.
create table scan_exports (
  key text primary key,
  user_id bigint references users(id) on delete set null,
  format text not null check (format in ('csv', 'xlsx')),
  rows int not null check (rows >= 0),
  created_at timestamptz not null default now()
);
create index scan_exports_created_idx on scan_exports (created_at);
