-- The customer portal's kiosk enrolment, and the key the server signs with.

-- The key of the server's own signatures (kiosk tokens, export download links): written once by the first process to start,
-- shared by every process on this database, so tokens survive restarts.
create table server_secrets (
  name text primary key,
  value text not null,
  created_at timestamptz not null default now()
);

-- 'enrolled' (default): the portal's endpoints and live channel need a kiosk token, got once per browser with the pincode.
-- 'open': no enrolment, as before.
alter table agents add column portal_mode text not null default 'enrolled' check (portal_mode in ('enrolled', 'open'));
-- Kiosk tokens carry the version they were issued under; a new pincode bumps it, so every enrolled kiosk must enrol again.
alter table agents add column pincode_version int not null default 1;

create function agents_pincode_version() returns trigger language plpgsql as $$
begin
  if new.pincode_hash is distinct from old.pincode_hash then
    new.pincode_version := old.pincode_version + 1;
  end if;
  return new;
end $$;

create trigger agents_pincode_version before update of pincode_hash on agents
  for each row execute function agents_pincode_version();
