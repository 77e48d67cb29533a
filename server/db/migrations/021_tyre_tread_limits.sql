-- The tread depths a tyre card is measured against (mm): below the legal minimum the tyre is unroadworthy, below the
-- recommended minimum it is due for replacement soon. Both are application settings an administrator may change.
insert into options (option_name, option_value, field_type) values
  ('TYRE_LEGAL_MIN_MM', '1.5', 'text'),
  ('TYRE_RECOMMENDED_MIN_MM', '3', 'text')
  on conflict (option_name) do nothing;
