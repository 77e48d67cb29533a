-- Request cost: list pages written by PostgreSQL are cached in each instance (server/plugins/page-cache.ts).
-- Every change to a table such a page reads tells every instance to clear its cache: one notification per statement,
-- on the bus's channel in the bus's envelope (server/lib/pg-bus.ts), delivered when the transaction commits and
-- folded into one per transaction (PostgreSQL drops duplicate notifications). Whoever writes (a request of any
-- instance, a background worker, a foreign key's cascade, psql) is heard. tests/server/page-cache.test.ts checks that
-- every table read by a cached page has this trigger.
create function notify_page_cache() returns trigger
language plpgsql as $$
begin
  perform pg_notify('scanquote_bus', '{"t":"page-cache","m":{}}');
  return null;
end
$$;

do $$
declare
  t text;
begin
  foreach t in array array['locations', 'devices', 'agents', 'clients', 'permissions', 'panels', 'panel_groups', 'parts',
    'products', 'email_templates']
  loop
    execute format('create trigger page_cache_notify after insert or update or delete or truncate on %I
      for each statement execute function notify_page_cache()', t);
  end loop;
end
$$;
