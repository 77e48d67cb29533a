-- "Price only the new damage" (docs/pricing.md): a quote may price only what its scan gained since the vehicle's
-- previous scan. The choice is kept with the quote, with what it rested on (the previous scan, its time, the damaged
-- panels left at 0 as pre-existing), so the invoice and the PDF say so for as long as the quote stands.
alter table quotes
  add column new_damage_only boolean not null default false,
  add column new_damage jsonb check (new_damage is null or jsonb_typeof(new_damage) = 'object'),
  add constraint quotes_new_damage_basis check (new_damage_only = (new_damage is not null));
