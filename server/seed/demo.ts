import { sql } from 'kysely';
import { loadConfig } from '../config';
import type { Database } from '../db/database';
import { createStorage } from '../lib/storage';
import { DEMO_AGENT_PINCODE, seedAgentsDemo } from './agents-demo';
import { seedCatalogueDemo } from './catalogue-demo';
import { seedQuotes } from './quotes-demo';
import { seedRecords } from './records';
import { seedScans } from './scans-demo';

export const DEMO_PASSWORD = 'demo-password-1';
export const DEMO_USERS = [
  { email: 'admin@demo.test', first_name: 'Ada', last_name: 'Admin', role: 'Super Admin' },
  { email: 'agent@demo.test', first_name: 'Alex', last_name: 'Agent', role: 'Agent' },
  { email: 'client@demo.test', first_name: 'Casey', last_name: 'Client', role: 'Client' },
] as const;

const CLIENTS = [
  { name: 'Southern Cross Insurance', currency: '$' },
  { name: 'Sakura Fleet Services', currency: '¥' },
  { name: 'EuroDrive Leasing', currency: '€' },
];
const AGENTS = [
  {
    name: 'Melbourne Auto Scan',
    primary_color: '#0c1839',
    text_color: '#ffffff',
    phone: '0391234567',
    email: 'hello@melbourneautoscan.test',
    address: '12 Smith St, Collingwood VIC 3066',
    abn: '51824753556',
  },
  {
    name: 'Harbour City Drive-Through',
    primary_color: '#1b5e20',
    text_color: '#ffffff',
    phone: '0298765432',
    email: 'desk@harbourcity.test',
    address: '200 Parramatta Rd, Annandale NSW 2038',
    abn: '33102417032',
  },
  {
    name: 'Sunshine Fleet Check',
    primary_color: '#e65100',
    text_color: '#000000',
    phone: '0731112222',
    email: 'team@sunshinefleet.test',
    address: '5 Ipswich Rd, Woolloongabba QLD 4102',
    abn: '12004044937',
  },
];
const LOCATIONS = [
  { name: 'Collingwood Depot', state: 'VIC', agent: 0 },
  { name: 'Dandenong South Yard', state: 'VIC', agent: 0 },
  { name: 'Geelong Service Lane', state: 'VIC', agent: 0 },
  { name: 'Annandale Drive-Through', state: 'NSW', agent: 1 },
  { name: 'Canberra Fyshwick', state: 'ACT', agent: 1 },
  { name: 'Woolloongabba Fleet Bay', state: 'QLD', agent: 2 },
  { name: 'Darwin Airport Lot', state: 'NT', agent: 2 },
  { name: 'Perth Osborne Park', state: 'WA', agent: null },
];
const DEVICE_TYPES = ['arch', 'tire', 'chasis'] as const;

/**
 * Demo agents, clients, users, locations and devices, written through their resources' service as the API writes
 * them. With onlyIfEmpty, does nothing when any user, agent or client exists (a run stopped half-way leaves some).
 */
export async function seedDemo(db: Database, opts: { onlyIfEmpty: boolean }): Promise<boolean> {
  if (opts.onlyIfEmpty) {
    const any = await sql<{ found: boolean }>`select exists (select 1 from users) or exists (select 1 from agents)
      or exists (select 1 from clients) as found`.execute(db);
    if (any.rows[0]?.found) return false;
  }
  const storage = createStorage(loadConfig());
  const records = seedRecords({ db, storage, log: console });
  const clients: number[] = [];
  for (const c of CLIENTS) clients.push(await records.create('clients', c));
  const agents: number[] = [];
  for (const [i, a] of AGENTS.entries())
    agents.push(
      await records.create('agents', {
        ...a,
        portal_email_address: a.email,
        default_client_id: clients[i],
        is_enabled: 1,
        language: 'en',
        pincode: DEMO_AGENT_PINCODE,
      }),
    );
  let serial = 4_100_000_000;
  for (const [i, l] of LOCATIONS.entries()) {
    const agent = l.agent === null ? null : agents[l.agent];
    const location = await records.create('locations', { name: l.name, state: l.state, agent_id: agent });
    if (agent === null) continue;
    for (const [j, type] of DEVICE_TYPES.slice(0, 2).entries())
      await records.create('devices', {
        location_id: location,
        type,
        agent_id: agent,
        serial: String(serial++),
        default_client_id: clients[(i + j) % clients.length],
      });
  }
  await seedAgentsDemo(db, storage);
  for (const u of DEMO_USERS)
    await records.create('users', {
      email: u.email,
      first_name: u.first_name,
      last_name: u.last_name,
      password: DEMO_PASSWORD,
      roles: [u.role],
      agents: u.role === 'Agent' ? [agents[0]] : [],
      clients: u.role === 'Client' ? [clients[0]] : [],
    });
  // After the panel groups: the catalogue places its panels on them.
  await seedCatalogueDemo(db, console.log, storage);
  await seedScans(db);
  await seedQuotes(db);
  return true;
}
