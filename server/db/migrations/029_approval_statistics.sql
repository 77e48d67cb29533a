-- The dashboard's approval figures read the links sent within a range.
create index quote_approvals_sent_idx on quote_approvals (sent_at);
