-- Scans: the scan with its vehicle fields, its detections, counts, tyres, videos, images and reports.
-- Files (images, videos, PDFs) live in the storage module; rows keep their URLs, scan_files says which scan holds which file.

create table scans (
  id bigint generated always as identity primary key,
  -- The device's own id for the scan (the wire's scan_id), lower-cased; a device replaying it gets the same scan.
  scan_id text not null check (scan_id ~ '^[a-z0-9._:-]{1,100}$'),
  agent_id bigint not null references agents(id) on delete restrict,
  client_id bigint references clients(id) on delete restrict,
  location_id bigint references locations(id) on delete restrict,
  device_id bigint references devices(id) on delete set null,
  type text not null check (type in ('arch', 'chasis', 'tire')),
  status text not null default 'metadata' check (status in ('metadata', 'ready', 'uploaded')),
  -- Registration, upper-case without spaces (wire name licensePlate).
  license_plate text,
  make text,
  model text,
  car_color text,
  body_type text,
  -- Whole dollars (digits only).
  valuation bigint check (valuation >= 0),
  location_state text check (location_state in ('ACT','NSW','NT','QLD','SA','TAS','VIC','WA')),
  -- When the vehicle was scanned (wire name timestamp) and when the scan started (startTime).
  scanned_at timestamptz not null default now(),
  start_time timestamptz,
  -- Totals of scan_measures, kept here so the list never aggregates.
  dent_count int not null default 0 check (dent_count >= 0),
  scratch_count int not null default 0 check (scratch_count >= 0),
  -- The scan's meta images (the wire's meta: thumbnailImagePathUrl, srcImagePathUrl).
  meta_thumbnail text,
  meta_src text,
  -- Each part's summary as the device reports it; a part is present when its column is not null.
  arch jsonb,
  chasis jsonb,
  tire jsonb,
  rims jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- Idempotency: one scan per device-side id and agent.
create unique index scans_agent_scan_id_key on scans (agent_id, scan_id);
-- The list's default order (newest first), alone and after each equality filter; the id breaks ties.
create index scans_scanned_idx on scans (scanned_at desc, id desc);
create index scans_agent_scanned_idx on scans (agent_id, scanned_at desc, id desc);
create index scans_client_scanned_idx on scans (client_id, scanned_at desc, id desc);
create index scans_location_scanned_idx on scans (location_id, scanned_at desc, id desc);
create index scans_status_scanned_idx on scans (status, scanned_at desc, id desc);
create index scans_type_scanned_idx on scans (type, scanned_at desc, id desc);
-- `q` is a prefix match (no trigram extension): each branch of its OR has an index, so PostgreSQL can combine them.
create index scans_plate_prefix_idx on scans (lower(license_plate) text_pattern_ops);
create index scans_make_prefix_idx on scans (lower(make) text_pattern_ops);
create index scans_model_prefix_idx on scans (lower(model) text_pattern_ops);
create index scans_device_idx on scans (device_id);

-- One detection: a dent or scratch on a car panel, its severity, size and close-up image.
create table scan_damages (
  id bigint generated always as identity primary key,
  scan_id bigint not null references scans(id) on delete cascade,
  -- The device's id for the detection; uploading it again updates the row.
  damage_id text not null,
  car_panel text not null,
  type text not null check (type in ('dents', 'scratchs')),
  level text not null check (level in ('light', 'medium', 'heavy', 'severe', 'oversize')),
  width_mm numeric(7,1) not null check (width_mm > 0),
  height_mm numeric(7,1) not null check (height_mm > 0),
  image text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (scan_id, damage_id)
);

-- Counts per panel, type and level (the wire's Measures): derived from the detections at ingestion unless the device
-- sends them, and the numbers an assessor edits later (edit-damage-count).
create table scan_measures (
  scan_id bigint not null references scans(id) on delete cascade,
  car_panel text not null,
  type text not null check (type in ('dents', 'scratchs')),
  level text not null check (level in ('light', 'medium', 'heavy', 'severe', 'oversize')),
  count int not null check (count >= 0),
  primary key (scan_id, car_panel, type, level)
);

-- One tyre side (inner or outer) of one wheel: the tread depth profile and the scanner's conclusions.
create table scan_tyres (
  id bigint generated always as identity primary key,
  scan_id bigint not null references scans(id) on delete cascade,
  "row" smallint not null check ("row" between 1 and 10),
  direction text not null check (direction in ('L', 'R')),
  position text not null check (position in ('I', 'O')),
  label text not null,
  depths real[] not null,
  eaten_tire text not null default 'NONE',
  pressure_tire text not null default 'NONE',
  coord_x real,
  coord_y real,
  measurement_image text,
  image_file text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (scan_id, "row", direction, position)
);

create table scan_videos (
  id bigint generated always as identity primary key,
  scan_id bigint not null references scans(id) on delete cascade,
  video_id text not null,
  src text not null,
  thumbnail text,
  content_type text not null,
  size int not null,
  created_at timestamptz not null default now(),
  unique (scan_id, video_id)
);

-- Saved and annotated images (the wire's annotates), including vehicle photos; image_id is the device's id when a device sent it.
create table scan_annotates (
  id bigint generated always as identity primary key,
  scan_id bigint not null references scans(id) on delete cascade,
  image_id text,
  src text not null,
  vehicle_photo boolean not null default false,
  user_id bigint references users(id) on delete set null,
  created_at timestamptz not null default now(),
  unique (scan_id, image_id)
);

-- Report PDFs (the wire's report_pdfs); `kind` names the report so regenerating one replaces it.
create table scan_reports (
  id bigint generated always as identity primary key,
  scan_id bigint not null references scans(id) on delete cascade,
  kind text not null,
  label text not null default 'View PDF',
  url text not null,
  created_at timestamptz not null default now(),
  unique (scan_id, kind)
);

-- Which stored files a scan uses; a file is removed from storage when no scan uses it any more
-- (the demo scans share a pool of images).
create table scan_files (
  scan_id bigint not null references scans(id) on delete cascade,
  key text not null,
  primary key (scan_id, key)
);
create index scan_files_key_idx on scan_files (key);
