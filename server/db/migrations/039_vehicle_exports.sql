-- Vehicle report exports (GET vehicles/export-vehicle-report), removed by the hourly sweep a day later (as scan_exports).
create table vehicle_exports (
  key text primary key,
  user_id bigint references users(id) on delete set null,
  format text not null check (format in ('csv', 'xlsx')),
  rows int not null check (rows >= 0),
  created_at timestamptz not null default now()
);
create index vehicle_exports_created_idx on vehicle_exports (created_at);
