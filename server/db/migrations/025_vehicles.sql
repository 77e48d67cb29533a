-- Vehicles: every scan of one car is linked to one vehicle record, so a scan can be compared with the car's previous
-- scan and its tyres followed over time (docs/server.md, Vehicles). The linking rules live in
-- server/services/scan/vehicles-repository.ts; this migration links the scans already stored.

-- What a device may report beyond the registration: the VIN (a VIN match wins over the registration) and the odometer.
alter table scans
  add column vin text check (vin ~ '^[A-Z0-9]{1,20}$'),
  add column odometer_km integer check (odometer_km >= 0);

-- One car. `registration` is the plate it carries now (upper-case, no spaces or dashes) in `state`; a plate moved to
-- another VIN belongs to a new vehicle, so (registration, state) is not unique: the one seen last holds it.
create table vehicles (
  id bigint generated always as identity primary key,
  registration text check (registration ~ '^[A-Z0-9]{1,20}$'),
  state text check (state in ('ACT','NSW','NT','QLD','SA','TAS','VIC','WA')),
  vin text check (vin ~ '^[A-Z0-9]{1,20}$'),
  make text,
  model text,
  first_seen timestamptz not null,
  last_seen timestamptz not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index vehicles_vin_key on vehicles (vin) where vin is not null;
-- Linking finds the plate's holder; the list's search is a prefix match and its default order the last seen.
create index vehicles_registration_idx on vehicles (registration text_pattern_ops, state, last_seen desc);
create index vehicles_last_seen_idx on vehicles (last_seen desc, id desc);

alter table scans add column vehicle_id bigint references vehicles(id) on delete set null;
-- A vehicle's scans of one kind, newest first: the previous scan to compare with, the vehicle page's timeline.
create index scans_vehicle_type_scanned_idx on scans (vehicle_id, type, scanned_at desc, id desc) where vehicle_id is not null;

-- A scan compared with its vehicle's previous scan of the same kind within the window (VEHICLE_COMPARE_WINDOW_DAYS):
-- the differences per panel, type and level (src/domain/vehicle-history.ts) and the one-line summary of the gains.
create table scan_comparisons (
  scan_id bigint primary key references scans(id) on delete cascade,
  previous_scan_id bigint not null references scans(id) on delete cascade,
  previous_scanned_at timestamptz not null,
  differences jsonb not null,
  summary text not null,
  has_new_damage boolean not null,
  computed_at timestamptz not null default now()
);
-- Recomputing the comparisons that rest on a scan whose counts changed.
create index scan_comparisons_previous_idx on scan_comparisons (previous_scan_id);

insert into options (option_name, option_value, field_type) values ('VEHICLE_COMPARE_WINDOW_DAYS', '180', 'text')
  on conflict (option_name) do nothing;

-- The scans already stored carry no VIN (the column is new): one vehicle per registration and state, named by its
-- latest scan's make and model, seen from its first scan to its last.
create temporary table backfill on commit drop as
  select upper(regexp_replace(license_plate, '[\s-]+', '', 'g')) as registration, location_state as state,
    min(scanned_at) as first_seen, max(scanned_at) as last_seen,
    (array_agg(make order by scanned_at desc, id desc))[1] as make,
    (array_agg(model order by scanned_at desc, id desc))[1] as model
  from scans
  where upper(regexp_replace(license_plate, '[\s-]+', '', 'g')) ~ '^[A-Z0-9]{1,20}$'
  group by 1, 2;
insert into vehicles (registration, state, make, model, first_seen, last_seen)
  select registration, state, make, model, first_seen, last_seen from backfill;
update scans s set vehicle_id = v.id
  from vehicles v
  where v.registration = upper(regexp_replace(s.license_plate, '[\s-]+', '', 'g'))
    and coalesce(v.state, '') = coalesce(s.location_state, '');
