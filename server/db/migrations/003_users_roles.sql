-- Users, roles, permissions and options administration: names compared as the code compares them, key lookups indexed.

-- Role names are compared lower-cased, so 'agent' and 'Agent' cannot both exist.
create unique index roles_name_lower_key on roles (lower(name));

-- Permission names are the lower-case snake words the routes check.
alter table permissions add constraint permissions_name_format check (name ~ '^[a-z][a-z0-9_]*$');

-- Option names are upper-case; the type decides whether a value is HTML.
alter table options add constraint options_name_format check (option_name ~ '^[A-Z][A-Z0-9_]*$');
alter table options add constraint options_field_type_check check (field_type in ('text', 'editor'));

-- Ingestion finds a device's user by the digest of its API key; two users never share one.
create unique index users_api_key_hash_key on users (api_key_hash) where api_key_hash is not null;

create index user_roles_role_idx on user_roles (role_id);
create index role_permissions_permission_idx on role_permissions (permission_id);
create index api_tokens_impersonator_idx on api_tokens (impersonator_id) where impersonator_id is not null;
create index audit_log_subject_idx on audit_log (subject_id, created_at);
create index audit_log_actor_idx on audit_log (actor_id, created_at);
