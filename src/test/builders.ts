import type { EvaluationReply, ScanItem } from '../domain/records';
import type { CurrentUser } from '../session';

/** A signed-in user as the login call returns it; override what a test cares about. */
export const aUser = (overrides: Partial<CurrentUser> = {}): CurrentUser => ({
  id: 7,
  token: 'token-7',
  roles: ['Agent'],
  permissions: ['location'],
  first_name: 'Ada',
  last_name: 'Lovelace',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  consent: 1,
  agents: [3],
  clients: [],
  ...overrides,
});

/** A scan list row as the server sends it (the domain's ScanItem); override what a test cares about. */
export const aScan = (overrides: Partial<ScanItem> = {}): ScanItem => ({
  id: 1,
  scan_id: 'scan-0001',
  body_type: null,
  valuation: null,
  location_state: 'VIC',
  device_id: 1,
  startTime: null,
  damageCount: 0,
  dentCount: 0,
  scratchCount: 0,
  created_at: '2024-05-31T07:30:00.000Z',
  updated_at: '2024-05-31T07:30:00.000Z',
  has_quote: false,
  licensePlate: '1AB2CD',
  make: 'Toyota',
  model: 'Corolla',
  carColor: 'Silver',
  location_id: 1,
  location_name: 'Collingwood Depot',
  client_id: 2,
  client_name: 'Southern Cross Insurance',
  agent_id: 3,
  agent_name: 'Melbourne Auto Scan',
  type: 'arch',
  status: 'metadata',
  timestamp: '2024-05-31T07:30:00.000Z',
  ...overrides,
});

type EvaluationClient = NonNullable<EvaluationReply['client']>;

/** The client of a scan's evaluation (GET scans/{id}/evaluate): a T-method client with no matrices, products or parts. */
export const anEvaluationClient = (overrides: Partial<EvaluationClient> = {}): EvaluationClient => ({
  id: 3,
  name: 'Southern Cross Insurance',
  currency: '$',
  sc_metallic: 10,
  sc_pearl: 5,
  sc_p2p: 1,
  tyre_repair: 0,
  tyre_replace: 0,
  calculation_method: 'T',
  sc_threshold: 1,
  weighted_no: null,
  products: [],
  parts: [],
  prices: { dent: {}, scratch: {} },
  logo: null,
  phone: null,
  address: null,
  email: null,
  abn: null,
  thresholdCategory: {},
  ...overrides,
});
