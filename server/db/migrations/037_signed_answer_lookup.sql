-- The files route serves a customer's signed answer (a document) to the users whose scope reaches its quote, and
-- finds the quote by the file's key.
create index quote_approvals_signed_pdf_key on quote_approvals (signed_pdf_key) where signed_pdf_key is not null;
