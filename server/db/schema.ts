import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Id = Generated<number>;

export interface RolesTable {
  id: Id;
  name: string;
  display_name: string | null;
  description: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export interface PermissionsTable {
  id: Id;
  name: string;
  display_name: string | null;
  description: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export interface RolePermissionsTable {
  role_id: number;
  permission_id: number;
}
export interface UsersTable {
  id: Id;
  first_name: string;
  last_name: string;
  email: string;
  password_hash: string;
  consent: Generated<number>;
  api_key_hash: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export interface UserRolesTable {
  user_id: number;
  role_id: number;
}
export interface AgentsTable {
  id: Id;
  name: string;
  phone: string | null;
  email: string | null;
  address: string | null;
  portal_email_address: string | null;
  abn: string | null;
  pincode_hash: string | null;
  is_enabled: Generated<number>;
  default_client_id: number | null;
  primary_color: Generated<string>;
  text_color: Generated<string>;
  logo: string | null;
  blurb: string | null;
  language: Generated<string>;
  /** Customer portal access (012): 'enrolled' needs a kiosk token, 'open' does not. */
  portal_mode: Generated<'enrolled' | 'open'>;
  /** Bumped by a trigger when pincode_hash changes; kiosk tokens of an older version are void. */
  pincode_version: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export interface ServerSecretsTable {
  name: string;
  value: string;
  created_at: Generated<Date>;
}
export interface ClientsTable {
  id: Id;
  name: string;
  currency: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
  // Pricing inputs and contact block (005).
  sc_metallic: Generated<number>;
  sc_pearl: Generated<number>;
  sc_p2p: Generated<boolean>;
  calculation_method: Generated<'T' | 'W'>;
  sc_threshold: Generated<number | null>;
  weighted_oversize: number | null;
  weighted_severe: number | null;
  weighted_heavy: number | null;
  weighted_medium: number | null;
  weighted_light: number | null;
  tyre_repair: Generated<number>;
  tyre_replace: Generated<number>;
  logo: string | null;
  phone: string | null;
  address: string | null;
  email: string | null;
  abn: string | null;
}
export interface UserAgentsTable {
  user_id: number;
  agent_id: number;
}
export interface UserClientsTable {
  user_id: number;
  client_id: number;
}
export interface LocationsTable {
  id: Id;
  name: string;
  state: string;
  agent_id: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export interface DevicesTable {
  id: Id;
  location_id: number;
  type: string;
  agent_id: number;
  serial: string;
  default_client_id: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export interface ApiTokensTable {
  id: Id;
  user_id: number;
  token_hash: string;
  impersonator_id: number | null;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  last_used_at: Timestamp | null;
  created_at: Timestamp;
}
export interface PasswordResetsTable {
  id: Id;
  user_id: number;
  token_hash: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: Timestamp;
}
/** Failed-attempt throttles (011): attempts per bucket ('login', 'pin', ...) and key within a window. */
export interface AuthThrottlesTable {
  bucket: string;
  throttle_key: string;
  attempts: number;
  window_start: Timestamp;
}
export interface MailOutboxTable {
  id: Id;
  recipients: string[];
  subject: string;
  html: string;
  text_body: string;
  status: Generated<'pending' | 'sent' | 'failed'>;
  attempts: Generated<number>;
  last_error: string | null;
  sent_at: Timestamp | null;
  claimed_until: Timestamp | null;
  created_at: Timestamp;
}
export interface OptionsTable {
  id: Id;
  option_name: string;
  option_value: Generated<string>;
  field_type: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export interface AuditLogTable {
  id: Id;
  action: string;
  actor_id: number | null;
  subject_id: number | null;
  detail: Generated<unknown>;
  created_at: Timestamp;
}

// Catalogue (005). Money is numeric(12,2), read as a number.
export interface ProductsTable {
  id: Id;
  name: string;
  type: string | null;
  price: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export interface PartsTable {
  id: Id;
  name: string;
  type: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export interface ClientProductsTable {
  client_id: number;
  product_id: number;
}
export interface ClientPartsTable {
  client_id: number;
  part_id: number;
}
export interface ClientDentPricesTable {
  client_id: number;
  part_id: number;
  light: number;
  medium: number;
  heavy: number;
  severe: number;
  oversize: number;
  p2p: number;
  aluminium: number;
  conventional: number;
  replacement: number;
}
export interface ClientScratchPricesTable {
  client_id: number;
  part_id: number;
  spot: number;
  paint: number;
  conventional: number;
}
export interface PanelsTable {
  id: Id;
  panel_group_id: number;
  name: string;
  label: string;
  type: Generated<string>;
  position: number;
  status: Generated<boolean>;
  has_large_variant: Generated<boolean>;
  car_panel: string | null;
  part_id: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export interface EmailTemplatesTable {
  id: Id;
  template_name: string;
  template_body: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

// Agents, webhooks, panel groups, uploads (004).
/** Bytes stored for an agent by its devices (011), held to UPLOAD_QUOTA_MB. */
export interface AgentUploadsTable {
  key: string;
  agent_id: number;
  size: number;
  created_at: Timestamp;
}
export interface WebhooksTable {
  id: Id;
  agent_id: number;
  endpoint: string;
  description: string | null;
  secret: string;
  events: string[];
  created_at: Timestamp;
  updated_at: Timestamp;
}
export interface PanelGroupsTable {
  id: Id;
  name: string;
  image: string | null;
  position: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export interface UploadedFilesTable {
  key: string;
  user_id: number | null;
  content_type: string;
  size: number;
  created_at: Timestamp;
}

// Scans (006): the scan, its detections, counts, tyres, videos, images, reports and the files it uses.
export interface ScansTable {
  id: Id;
  scan_id: string;
  agent_id: number;
  client_id: number | null;
  location_id: number | null;
  device_id: number | null;
  type: string;
  status: Generated<string>;
  license_plate: string | null;
  make: string | null;
  model: string | null;
  car_color: string | null;
  body_type: string | null;
  valuation: number | null;
  location_state: string | null;
  scanned_at: Timestamp;
  start_time: Timestamp | null;
  dent_count: Generated<number>;
  scratch_count: Generated<number>;
  meta_thumbnail: string | null;
  meta_src: string | null;
  arch: unknown;
  chasis: unknown;
  tire: unknown;
  rims: unknown;
  vin: string | null;
  odometer_km: number | null;
  vehicle_id: number | null;
  version: Generated<number>;
  saved_by: number | null;
  saved_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export interface VehiclesTable {
  id: Id;
  registration: string | null;
  state: string | null;
  vin: string | null;
  make: string | null;
  model: string | null;
  first_seen: Timestamp;
  last_seen: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export interface ScanComparisonsTable {
  scan_id: number;
  previous_scan_id: number;
  previous_scanned_at: Timestamp;
  differences: unknown;
  summary: string;
  has_new_damage: boolean;
  new_damage_count: Generated<number>;
  computed_at: Timestamp;
  for_all: Generated<boolean>;
  for_agent: Generated<boolean>;
  for_client: Generated<boolean>;
  for_pair: Generated<boolean>;
  scanned_at: Timestamp | null;
  agent_id: number | null;
  client_id: number | null;
}
export interface ScanDamagesTable {
  id: Id;
  scan_id: number;
  damage_id: string;
  car_panel: string;
  type: string;
  level: string;
  width_mm: number;
  height_mm: number;
  image: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export interface ScanMeasuresTable {
  scan_id: number;
  car_panel: string;
  type: string;
  level: string;
  count: number;
}
export interface ScanTyresTable {
  id: Id;
  scan_id: number;
  row: number;
  direction: string;
  position: string;
  label: string;
  depths: number[];
  eaten_tire: Generated<string>;
  pressure_tire: Generated<string>;
  coord_x: number | null;
  coord_y: number | null;
  measurement_image: string | null;
  image_file: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export interface ScanVideosTable {
  id: Id;
  scan_id: number;
  video_id: string;
  src: string;
  thumbnail: string | null;
  content_type: string;
  size: number;
  created_at: Timestamp;
}
export interface ScanAnnotatesTable {
  id: Id;
  scan_id: number;
  image_id: string | null;
  src: string;
  vehicle_photo: Generated<boolean>;
  user_id: number | null;
  created_at: Timestamp;
}
export interface ScanReportsTable {
  id: Id;
  scan_id: number;
  kind: string;
  label: Generated<string>;
  url: string;
  created_at: Timestamp;
}
export interface ScanFilesTable {
  scan_id: number;
  key: string;
}
/** The built-in plate look-up's registry (013). */
export interface RegistrationsTable {
  id: Id;
  number: string;
  state: string;
  make: string | null;
  model: string | null;
  colour: string | null;
  body_type: string | null;
  valuation: number | null;
  created_at: Timestamp;
}
export interface ScanTyreRepairsTable {
  scan_id: number;
  row: number;
  direction: string;
  repair_type: string;
  user_id: number | null;
  updated_at: Timestamp;
}
export interface ScanMailsTable {
  id: Id;
  scan_id: number;
  user_id: number | null;
  mail_id: number | null;
  template_id: number | null;
  recipients: string[];
  subject: string;
  attachments: ColumnType<unknown, string | undefined, string>;
  created_at: Timestamp;
}
export interface MailAttachmentsTable {
  id: Id;
  mail_id: number;
  filename: string;
  content_type: string;
  content: Buffer;
}
export interface BusMessagesTable {
  id: Id;
  payload: string;
  created_at: Timestamp;
}
export interface RateLimitsTable {
  key: string;
  hits: number;
  expires_at: Timestamp;
}

// History of scans and quotes (023): append-only, the database refuses UPDATE, DELETE and TRUNCATE.
export interface EventsTable {
  id: Id;
  at: Timestamp;
  actor_id: number | null;
  actor_name: string | null;
  admin_id: number | null;
  subject_kind: 'scan' | 'quote';
  subject_id: number;
  action: string;
  before: ColumnType<Record<string, unknown>, string | undefined, never>;
  after: ColumnType<Record<string, unknown>, string | undefined, never>;
  agent_id: number | null;
  client_id: number | null;
}

export interface DB {
  roles: RolesTable;
  permissions: PermissionsTable;
  role_permissions: RolePermissionsTable;
  users: UsersTable;
  user_roles: UserRolesTable;
  agents: AgentsTable;
  clients: ClientsTable;
  user_agents: UserAgentsTable;
  user_clients: UserClientsTable;
  locations: LocationsTable;
  devices: DevicesTable;
  api_tokens: ApiTokensTable;
  password_resets: PasswordResetsTable;
  auth_throttles: AuthThrottlesTable;
  mail_outbox: MailOutboxTable;
  options: OptionsTable;
  audit_log: AuditLogTable;
  server_secrets: ServerSecretsTable;
  agent_uploads: AgentUploadsTable;
  webhooks: WebhooksTable;
  panel_groups: PanelGroupsTable;
  uploaded_files: UploadedFilesTable;
  products: ProductsTable;
  parts: PartsTable;
  client_products: ClientProductsTable;
  client_parts: ClientPartsTable;
  client_dent_prices: ClientDentPricesTable;
  client_scratch_prices: ClientScratchPricesTable;
  panels: PanelsTable;
  email_templates: EmailTemplatesTable;
  scans: ScansTable;
  vehicles: VehiclesTable;
  scan_comparisons: ScanComparisonsTable;
  scan_damages: ScanDamagesTable;
  scan_measures: ScanMeasuresTable;
  scan_tyres: ScanTyresTable;
  scan_videos: ScanVideosTable;
  scan_annotates: ScanAnnotatesTable;
  scan_reports: ScanReportsTable;
  scan_files: ScanFilesTable;
  registrations: RegistrationsTable;
  scan_tyre_repairs: ScanTyreRepairsTable;
  scan_mails: ScanMailsTable;
  mail_attachments: MailAttachmentsTable;
  bus_messages: BusMessagesTable;
  rate_limits: RateLimitsTable;
  events: EventsTable;
}
