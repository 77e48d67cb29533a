-- Webhook deliveries (an agent's webhooks): one row per event and subscribed webhook, written when the event
-- happens and sent by the server's delivery loop, retried with back-off until the receiver answers 2xx.
create table webhook_deliveries (
  id bigint generated always as identity primary key,
  -- What receivers deduplicate on (the webhook-id header); the same on every attempt.
  message_id text not null unique,
  webhook_id bigint not null references webhooks(id) on delete cascade,
  event text not null,
  payload jsonb not null,
  status text not null default 'pending' check (status in ('pending', 'delivered', 'failed')),
  attempts int not null default 0,
  next_attempt_at timestamptz not null default now(),
  last_status int,
  last_error text,
  created_at timestamptz not null default now(),
  delivered_at timestamptz
);
create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at) where status = 'pending';
create index webhook_deliveries_webhook_idx on webhook_deliveries (webhook_id, id desc);
