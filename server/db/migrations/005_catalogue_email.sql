-- Catalogue: the clients' pricing inputs, products, parts, panels; e-mail templates.
-- Money is numeric(12,2) in the client's currency (the engine turns it into integer cents); percentages numeric(7,2).

alter table clients
  add column sc_metallic numeric(7,2) not null default 0 check (sc_metallic >= 0),
  add column sc_pearl numeric(7,2) not null default 0 check (sc_pearl >= 0),
  add column sc_p2p boolean not null default false,
  add column calculation_method text not null default 'T' check (calculation_method in ('T', 'W')),
  -- Existing clients get t = 1 (the category is the largest dent), so every T client can be priced.
  add column sc_threshold integer default 1 check (sc_threshold >= 1),
  add column weighted_oversize integer check (weighted_oversize >= 1),
  add column weighted_severe integer check (weighted_severe >= 1),
  add column weighted_heavy integer check (weighted_heavy >= 1),
  add column weighted_medium integer check (weighted_medium >= 1),
  add column weighted_light integer check (weighted_light >= 1),
  add column logo text,
  add column phone text,
  add column address text,
  add column email text,
  add column abn text,
  add constraint clients_currency_check check (currency in ('$', '¥', '€')),
  add constraint clients_method_complete check (
    (calculation_method = 'T' and sc_threshold is not null)
    or (calculation_method = 'W' and weighted_oversize is not null and weighted_severe is not null and weighted_heavy is not null
        and weighted_medium is not null and weighted_light is not null));
create index clients_name_idx on clients (lower(name));

create table products (
  id bigint generated always as identity primary key,
  name text not null,
  type text check (type in ('arch', 'chasis', 'tire')),
  price numeric(12,2) not null check (price >= 1),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table parts (
  id bigint generated always as identity primary key,
  name text not null,
  type text check (type in ('arch', 'chasis', 'tire')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- The products and parts a client offers; a deleted product or part leaves the client's lists.
create table client_products (
  client_id bigint not null references clients(id) on delete cascade,
  product_id bigint not null references products(id) on delete cascade,
  primary key (client_id, product_id)
);
create index client_products_product_idx on client_products (product_id);

create table client_parts (
  client_id bigint not null references clients(id) on delete cascade,
  part_id bigint not null references parts(id) on delete cascade,
  primary key (client_id, part_id)
);
create index client_parts_part_idx on client_parts (part_id);

-- The dent price matrix: one row per client and part; aluminium is a percent of the repair fee.
create table client_dent_prices (
  client_id bigint not null references clients(id) on delete cascade,
  part_id bigint not null references parts(id) on delete cascade,
  light numeric(12,2) not null check (light >= 0),
  medium numeric(12,2) not null check (medium >= 0),
  heavy numeric(12,2) not null check (heavy >= 0),
  severe numeric(12,2) not null check (severe >= 0),
  oversize numeric(12,2) not null check (oversize >= 0),
  p2p numeric(12,2) not null check (p2p >= 0),
  aluminium numeric(7,2) not null check (aluminium >= 0),
  conventional numeric(12,2) not null check (conventional >= 0),
  replacement numeric(12,2) not null check (replacement >= 0),
  primary key (client_id, part_id)
);
create index client_dent_prices_part_idx on client_dent_prices (part_id);

create table client_scratch_prices (
  client_id bigint not null references clients(id) on delete cascade,
  part_id bigint not null references parts(id) on delete cascade,
  spot numeric(12,2) not null check (spot >= 0),
  paint numeric(12,2) not null check (paint >= 0),
  conventional numeric(12,2) not null check (conventional >= 0),
  primary key (client_id, part_id)
);
create index client_scratch_prices_part_idx on client_scratch_prices (part_id);

create table email_templates (
  id bigint generated always as identity primary key,
  template_name text not null,
  template_body text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- Panels of a panel group (004); each names the part whose matrix row prices it.
-- A group with panels cannot be deleted; a deleted part leaves its panels unpriced.
create table panels (
  id bigint generated always as identity primary key,
  panel_group_id bigint not null references panel_groups(id) on delete restrict,
  name text not null,
  label text not null,
  type text not null default 'D' check (type in ('D', 'L', 'XL')),
  position integer not null check (position >= 1),
  status boolean not null default true,
  has_large_variant boolean not null default false,
  car_panel text,
  part_id bigint references parts(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index panels_group_idx on panels (panel_group_id, position);
create index panels_part_idx on panels (part_id);
create index panels_car_panel_idx on panels (car_panel);
