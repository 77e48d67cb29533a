-- Webhooks as Standard Webhooks receivers expect them (docs/webhooks.md).
-- 1. Secrets are `whsec_` + base64 of the key, as the specification and its verifiers read them; those stored as
--    `whsec_` + hex become the base64 of the same bytes, so every signature stays what it was.
update webhooks set secret = 'whsec_' || replace(encode(decode(substr(secret, 7), 'hex'), 'base64'), E'\n', '')
where secret ~ '^whsec_([0-9a-f]{2})+$';

-- 2. A delivery being sent is claimed until this time (one in flight per endpoint, across processes).
alter table webhook_deliveries add column claimed_until timestamptz;
create index webhook_deliveries_claimed_idx on webhook_deliveries (claimed_until) where claimed_until is not null;

-- 3. last_error holds a failure class only (refused, unreachable, timeout, tls, redirect, http): the free text kept so
--    far could tell an open port from a closed one.
update webhook_deliveries set last_error = case
    when last_error like 'refused:%' then 'refused'
    when last_error like 'no answer within%' then 'timeout'
    when last_error like '%has no valid TLS certificate%' then 'tls'
    when last_status between 300 and 399 then 'redirect'
    when last_status is not null then 'http'
    else 'unreachable'
  end
where last_error is not null;
