import type { Database } from '../db/database';
import { hashPassword } from '../services/user/auth-service';
import { seedAgentsDemo } from './agents-demo';
import { seedCatalogueDemo } from './catalogue-demo';
import { seedQuotes } from './quotes-demo';
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

/** Demo agents, clients, users, locations and devices. With onlyIfEmpty, does nothing when any user exists. */
export async function seedDemo(db: Database, opts: { onlyIfEmpty: boolean }): Promise<boolean> {
  if (opts.onlyIfEmpty) {
    const any = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
    if (any) return false;
  }
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await db.transaction().execute(async (trx) => {
    const clients = await trx.insertInto('clients').values(CLIENTS).returning('id').execute();
    const agents = await trx
      .insertInto('agents')
      .values(AGENTS.map((a, i) => ({ ...a, portal_email_address: a.email, default_client_id: clients[i].id, is_enabled: 1 })))
      .returning('id')
      .execute();
    const locations = await trx
      .insertInto('locations')
      .values(LOCATIONS.map((l) => ({ name: l.name, state: l.state, agent_id: l.agent === null ? null : agents[l.agent].id })))
      .returning(['id', 'agent_id'])
      .execute();
    let serial = 4_100_000_000;
    const devices = locations
      .filter((l) => l.agent_id !== null)
      .flatMap((l, i) =>
        DEVICE_TYPES.slice(0, 2).map((type, j) => ({
          location_id: l.id,
          type,
          agent_id: l.agent_id!,
          serial: String(serial++),
          default_client_id: clients[(i + j) % clients.length].id,
        })),
      );
    await trx.insertInto('devices').values(devices).execute();
    await seedAgentsDemo(trx);
    const roles = await trx.selectFrom('roles').select(['id', 'name']).execute();
    for (const u of DEMO_USERS) {
      const { id } = await trx
        .insertInto('users')
        .values({ email: u.email, first_name: u.first_name, last_name: u.last_name, password_hash: passwordHash })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('user_roles')
        .values({ user_id: id, role_id: roles.find((r) => r.name === u.role)!.id })
        .execute();
      if (u.role === 'Agent') await trx.insertInto('user_agents').values({ user_id: id, agent_id: agents[0].id }).execute();
      if (u.role === 'Client') await trx.insertInto('user_clients').values({ user_id: id, client_id: clients[0].id }).execute();
    }
  });
  // After the panel groups: the catalogue places its panels on them.
  await db.transaction().execute((trx) => seedCatalogueDemo(trx));
  await seedScans(db);
  await seedQuotes(db);
  return true;
}
