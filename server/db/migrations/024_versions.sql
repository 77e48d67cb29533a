-- Versions of scans and quotes, so a save made from an older version is refused (409) instead of silently
-- overwriting another user's save. An integer rather than updated_at: two saves within one clock tick still differ,
-- and a number is easy to send back from a form.
alter table scans
  add column version integer not null default 1,
  add column saved_by bigint references users(id) on delete set null,
  add column saved_at timestamptz;
alter table quotes
  add column version integer not null default 1,
  add column saved_by bigint references users(id) on delete set null,
  add column saved_at timestamptz;

-- Any change of what the scan page shows of the scan row moves its version, whoever writes it (devices included);
-- a write that already moved it in the same statement keeps its own number.
create function scans_bump_version() returns trigger language plpgsql as $$
begin
  new.version := old.version + 1;
  return new;
end $$;
create trigger scans_bump_version before update on scans for each row
  when (new.version = old.version and (
    old.license_plate, old.make, old.model, old.car_color, old.body_type, old.valuation, old.location_state,
    old.client_id, old.status, old.dent_count, old.scratch_count
  ) is distinct from (
    new.license_plate, new.make, new.model, new.car_color, new.body_type, new.valuation, new.location_state,
    new.client_id, new.status, new.dent_count, new.scratch_count
  ))
  execute function scans_bump_version();

-- What a record's saved versions held (the fields a conflict compares), so a refused save can say what changed since
-- the version it was made from. Only recent versions are kept (server/lib/versions.ts).
create table scan_versions (
  scan_id bigint not null references scans(id) on delete cascade,
  version integer not null,
  snapshot jsonb not null,
  primary key (scan_id, version)
);
create table quote_versions (
  quote_id bigint not null references quotes(id) on delete cascade,
  version integer not null,
  snapshot jsonb not null,
  primary key (quote_id, version)
);
