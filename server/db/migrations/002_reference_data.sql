-- Reference data every installation needs: the product's permission names, the three roles, default settings.

insert into permissions (name, display_name, description) values
  ('scan', 'Scans', 'Scan list, scan page, quotes'),
  ('user', 'Users', 'Users, application settings, own profile'),
  ('role', 'Roles', 'Roles and their permissions'),
  ('permission', 'Permissions', 'Permission names'),
  ('device', 'Devices', 'Scanning devices'),
  ('location', 'Locations', 'Scanning sites'),
  ('client', 'Clients', 'Clients and their price lists'),
  ('agent', 'Agents', 'Agents, branding, portal and webhooks'),
  ('product', 'Products', 'Products added to quotes'),
  ('part', 'Parts', 'Parts, panel group and panel lists'),
  ('panelgroup', 'Panel Groups', 'Create and edit panel groups'),
  ('panel', 'Panels', 'Create and edit panels'),
  ('email_template', 'Email Templates', 'E-mail templates, header and footer'),
  ('app_setting', 'Application Settings', 'Application settings'),
  ('dashboard_statistics', 'Dashboard Statistics', 'Dashboard advance filter');

insert into roles (name, display_name, description) values
  ('Super Admin', 'Super Admin', 'Sees and manages everything'),
  ('Agent', 'Agent', 'Works for one or more agents and sees only their data'),
  ('Client', 'Client', 'Works for one or more clients and sees only their data');

insert into role_permissions (role_id, permission_id)
  select r.id, p.id from roles r cross join permissions p where r.name = 'Super Admin';
insert into role_permissions (role_id, permission_id)
  select r.id, p.id from roles r join permissions p on p.name in ('scan', 'location', 'device', 'dashboard_statistics') where r.name = 'Agent';
insert into role_permissions (role_id, permission_id)
  select r.id, p.id from roles r join permissions p on p.name in ('scan', 'dashboard_statistics') where r.name = 'Client';

insert into options (option_name, option_value, field_type) values
  ('GST_PERCENT', '10', 'text'),
  ('TERMS_AND_CONDITIONS', '<h3>Terms and Conditions</h3><p>Scan results are estimates produced by automated equipment and must be confirmed by a qualified assessor before any repair is authorised.</p>', 'editor'),
  ('EMAIL_DEFAULT_HEADER', '<p>Hello,</p>', 'editor'),
  ('EMAIL_DEFAULT_FOOTER', '<p>Kind regards,<br>The ScanQuote team</p>', 'editor');
