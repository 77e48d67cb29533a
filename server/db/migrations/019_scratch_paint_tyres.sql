-- A quote's Scratch / Paint and Tyres sections (docs/pricing.md).
-- The client's new tyre prices: a tyre repaired, a tyre replaced; 0 is a missing price (the quote says so).
alter table clients
  add column tyre_repair numeric(12,2) not null default 0 check (tyre_repair >= 0),
  add column tyre_replace numeric(12,2) not null default 0 check (tyre_replace >= 0);

-- The two new subtotals, and the tyre lines the agent's wheel choices gave (a list of priced lines, amounts in currency units).
alter table quotes
  add column paint numeric(12,2) not null default 0 check (paint >= 0),
  add column tyre numeric(12,2) not null default 0 check (tyre >= 0),
  add column tyres jsonb not null default '[]'::jsonb;

-- A saved quote keeps its figures: its spot and paint scratch lines, which were counted in Replace / Paint, are moved
-- to Scratch / Paint, so its sections say what the work is; no line, sub-total or grand total changes.
with scratch as (
  select q.id, sum((i.value -> 'scratch' ->> 'lineTotal')::numeric) as paint
  from quotes q
  cross join lateral jsonb_each(q.items) as i
  where jsonb_typeof(i.value -> 'scratch') = 'object' and i.value -> 'scratch' ->> 'repair_type' in ('spot', 'paint')
  group by q.id
)
update quotes q
set paint = scratch.paint, replacement = q.replacement - scratch.paint
from scratch
-- Only quotes whose scratch work still sits in Replace (paint 0), so the statement is safe to run twice.
where scratch.id = q.id and scratch.paint > 0 and q.paint = 0;

-- What a saved quote keeps of its client gains the tyre prices; a quote saved before them had no tyre line.
update quotes
set client_snapshot = client_snapshot || '{"tyre_repair": 0, "tyre_replace": 0}'::jsonb
where not client_snapshot ? 'tyre_repair';
