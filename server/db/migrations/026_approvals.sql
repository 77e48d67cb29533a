-- Customer approval by link. A quote's status follows what happened to it: a draft until it is sent for approval, then
-- the customer's answer (approved, partially_approved, declined), or the link's end (expired, revoked).
alter table quotes add column status text not null default 'draft'
  check (status in ('draft', 'sent', 'approved', 'partially_approved', 'declined', 'expired', 'revoked'));

-- One row per link sent. The token itself is never stored, only its SHA-256 (hex), so a database leak hands out no
-- link; the answer (lines decided, name, signature, who and from where) is kept on the same row, so a link is used once.
create table quote_approvals (
  id bigint generated always as identity primary key,
  quote_id bigint not null references quotes(id) on delete cascade,
  token_hash text not null unique,
  recipient text not null,
  sent_by bigint references users(id) on delete set null,
  sent_at timestamptz not null default now(),
  expires_at timestamptz not null,
  revoked_at timestamptz,
  viewed_at timestamptz,
  expired_at timestamptz,
  -- The answer: [{key, decision: 'approved' | 'declined', reason}] and the lines as they were offered, with amounts.
  decided_at timestamptz,
  lines jsonb,
  approved_total numeric(12, 2),
  signer_name text,
  signature bytea,
  ip_address text,
  user_agent text,
  signed_pdf_key text
);
create index quote_approvals_quote_idx on quote_approvals (quote_id, sent_at desc);

insert into options (option_name, option_value, field_type) values ('QUOTE_APPROVAL_DAYS', '14', 'text')
  on conflict (option_name) do nothing;

insert into email_templates (template_name, template_body)
select 'Quote approval request',
  '<p>Your estimate {{quote_number}} for {{registration}} ({{make}} {{model}}, {{client_name}}) comes to '
  || '{{grand_total}}.</p><p>Please review it, approve or decline each line and sign here: '
  || '<a href="{{approval_link}}">{{approval_link}}</a></p><p>The link is valid until {{expires_on}}.</p>'
  || '<p>{{agent_name}}<br>{{agent_email}} {{agent_phone}}</p>'
where not exists (select 1 from email_templates where template_name = 'Quote approval request');
