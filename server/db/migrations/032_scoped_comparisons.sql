-- Comparisons per viewer (docs/server.md, Vehicles): a restricted user sees a vehicle's history only through the scans
-- they may see, so a scan is also compared with its vehicle's previous scan of the same agent, of the same client, and
-- of the same agent and client. One row per distinct previous scan; the flags say which viewers it serves:
-- `for_all` the unrestricted, `for_agent` a scope of agents, `for_client` a scope of clients, `for_pair` a scope of both.
alter table scan_comparisons drop constraint scan_comparisons_pkey;
alter table scan_comparisons
  add column for_all boolean not null default false,
  add column for_agent boolean not null default false,
  add column for_client boolean not null default false,
  add column for_pair boolean not null default false,
  add primary key (scan_id, previous_scan_id);

-- The rows stored so far compare with the vehicle's previous scan of any agent and client; they serve a restricted
-- viewer where that scan is of the same agent (or client). The other bases are computed when either scan next changes.
update scan_comparisons c set for_all = true,
    for_agent = p.agent_id = s.agent_id,
    for_client = p.client_id = s.client_id,
    for_pair = p.agent_id = s.agent_id and p.client_id = s.client_id
  from scans s, scans p
  where s.id = c.scan_id and p.id = c.previous_scan_id;
