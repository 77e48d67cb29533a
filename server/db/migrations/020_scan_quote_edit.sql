-- Viewing and changing: `scan` reads scans and quotes; changing a scan needs `scan_edit`, changing its quote
-- `quote_edit`. Every role that could change them until now (it holds `scan`) keeps that, except Client: an insurer's
-- or fleet's user reads the evidence and the estimate without changing either. Super Admin holds every permission.

insert into permissions (name, display_name, description) values
  ('scan_edit', 'Scan Editing', 'Change a scan: vehicle details, client, damage counts, saved and annotated images, video frames, tyre choices, refresh, delete'),
  ('quote_edit', 'Quote Editing', 'Save, re-save and delete a quote, remove its vehicle photo, request a quote check')
on conflict (name) do nothing;

insert into role_permissions (role_id, permission_id)
  select r.id, p.id
  from roles r cross join permissions p
  where p.name in ('scan_edit', 'quote_edit')
    and (
      lower(r.name) = 'super admin'
      or (
        lower(r.name) <> 'client'
        and exists (
          select 1 from role_permissions rp join permissions s on s.id = rp.permission_id
          where rp.role_id = r.id and s.name = 'scan'
        )
      )
    )
on conflict do nothing;
