import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueValueTaken } from '../../server/lib/unique-value';
import { type Call, createTestContext, type TestContext } from './helper';

let t: TestContext;
let admin: string;
let clientA: { id: number; name: string };
let clientB: { id: number; name: string };
let agentA: { id: number; name: string };
let agentB: { id: number; name: string };
let siteA: { id: number; name: string };
let siteB: { id: number; name: string };
beforeAll(async () => {
  t = await createTestContext();
  admin = await t.login((await t.build.user({ roles: ['Super Admin'] })).email);
  clientA = await t.build.client({ name: 'Device client A' });
  clientB = await t.build.client({ name: 'Device client B' });
  agentA = await t.build.agent({ name: 'Device agent A' });
  agentB = await t.build.agent({ name: 'Device agent B' });
  siteA = await t.build.location({ name: 'Device site A', agent_id: agentA.id });
  siteB = await t.build.location({ name: 'Device site B', agent_id: agentB.id });
});

const body = (over: Record<string, unknown> = {}) => ({
  location_id: siteA.id,
  type: 'arch',
  agent_id: agentA.id,
  serial: '4100000001',
  default_client_id: clientA.id,
  ...over,
});
const countDevices = async () =>
  (
    await t.db
      .selectFrom('devices')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
  ).n;

describe('devices: a resource registered by description', () => {
  it("stands at a site of its owner, or at a site no agent owns: another agent's site is a 422 on location_id", async () => {
    const before = await countDevices();
    const elsewhere = await t.as(admin, {
      method: 'POST',
      url: '/api/agent/devices',
      payload: body({ location_id: siteB.id, serial: '4100000901' }),
    });
    expect(elsewhere.statusCode, elsewhere.body).toBe(422);
    expect(elsewhere.json()).toEqual({ error: { location_id: 'Location must be a site of the chosen owner' } });
    expect(await countDevices()).toBe(before);

    const shared = await t.build.location({ name: 'Device shared site', agent_id: null });
    const atShared = await t.as(admin, {
      method: 'POST',
      url: '/api/agent/devices',
      payload: body({ location_id: shared.id, serial: '4100000902' }),
    });
    expect(atShared.statusCode, atShared.body).toBe(201);

    // Handing the device to another owner while it stays at the site is refused too, and changes nothing.
    const mine = (await t.as(admin, { method: 'POST', url: '/api/agent/devices', payload: body({ serial: '4100000903' }) })).json().data;
    const moved = await t.as(admin, {
      method: 'PUT',
      url: `/api/agent/devices/${mine.id}`,
      payload: body({ serial: '4100000903', agent_id: agentB.id }),
    });
    expect(moved.statusCode, moved.body).toBe(422);
    expect(moved.json().error).toEqual({ location_id: 'Location must be a site of the chosen owner' });
    expect((await t.as(admin, { method: 'GET', url: `/api/agent/devices/${mine.id}` })).json().data.agent_id).toBe(agentA.id);
    for (const id of [atShared.json().data.id, mine.id]) await t.as(admin, { method: 'DELETE', url: `/api/agent/devices/${id}` });
  });

  it('creates, reads, pages, searches, updates and deletes, with location name, owner and client name', async () => {
    const created = await t.as(admin, { method: 'POST', url: '/api/agent/devices', payload: body({ serial: ' 4100000777 ' }) });
    expect(created.statusCode, created.body).toBe(201);
    const device = created.json().data;
    expect(device).toMatchObject({
      location_id: siteA.id,
      location_name: 'Device site A',
      type: 'arch',
      agent_id: agentA.id,
      owner: 'Device agent A',
      serial: '4100000777',
      default_client_id: clientA.id,
      default_client_name: 'Device client A',
    });
    expect((await t.as(admin, { method: 'GET', url: `/api/agent/devices/${device.id}` })).json()).toEqual({ data: device });

    for (const q of ['4100000777', 'device site a', 'DEVICE AGENT A']) {
      const page = await t.as(admin, { method: 'GET', url: `/api/agent/devices?q=${encodeURIComponent(q)}` });
      expect(
        page.json().items.map((d: { id: number }) => d.id),
        q,
      ).toContain(device.id);
    }
    const filtered = await t.as(admin, { method: 'GET', url: `/api/agent/devices?agent_id=${agentB.id}` });
    expect(filtered.json().items.map((d: { id: number }) => d.id)).not.toContain(device.id);

    const updated = await t.as(admin, {
      method: 'PUT',
      url: `/api/agent/devices/${device.id}`,
      payload: body({ type: 'tire', serial: '4100000778', location_id: siteB.id, agent_id: agentB.id, default_client_id: clientB.id }),
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().data).toMatchObject({
      type: 'tire',
      serial: '4100000778',
      location_name: 'Device site B',
      owner: 'Device agent B',
      default_client_name: 'Device client B',
    });

    const lists = await t.as(admin, { method: 'GET', url: '/api/agent/devices/lists' });
    expect(lists.json()).toEqual(expect.arrayContaining([{ text: '4100000778', value: device.id }]));

    expect((await t.as(admin, { method: 'DELETE', url: `/api/agent/devices/${device.id}` })).statusCode).toBe(200);
    const gone = await t.as(admin, { method: 'GET', url: `/api/agent/devices/${device.id}` });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ error: `No query results for model [Device] ${device.id}` });
  });

  it('pages and sorts by the joined columns', async () => {
    for (const serial of ['9900000003', '9900000001', '9900000002'])
      await t.build.device({ location_id: siteA.id, agent_id: agentA.id, default_client_id: clientA.id, serial });
    const res = await t.as(admin, { method: 'GET', url: '/api/agent/devices?q=99000000&sort=serial&order=desc&per_page=2' });
    expect(res.json().total).toBe(3);
    expect(res.json().items.map((d: { serial: string }) => d.serial)).toEqual(['9900000003', '9900000002']);
    expect((await t.as(admin, { method: 'GET', url: '/api/agent/devices?sort=owner' })).statusCode).toBe(200);
  });

  it('answers 422 with every required field and stores nothing', async () => {
    const before = await countDevices();
    const res = await t.as(admin, { method: 'POST', url: '/api/agent/devices', payload: { serial: '  ' } });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      error: {
        location_id: 'Location is required',
        type: 'Type is required',
        agent_id: 'Owner is required',
        serial: 'Serial is required',
        default_client_id: 'Default Client is required',
      },
    });
    const badType = await t.as(admin, { method: 'POST', url: '/api/agent/devices', payload: body({ type: 'laser' }) });
    expect(badType.json()).toEqual({ error: { type: 'The selected type is invalid' } });
    expect(await countDevices()).toBe(before);
  });

  it("refuses a serial another device carries (any agent's, spaces and case aside), and keeps a device's own on update", async () => {
    const first = await t.as(admin, { method: 'POST', url: '/api/agent/devices', payload: body({ serial: 'SN-DUP-1' }) });
    expect(first.statusCode, first.body).toBe(201);
    const before = await countDevices();
    const again = await t.as(admin, {
      method: 'POST',
      url: '/api/agent/devices',
      payload: body({ serial: ' sn-dup-1 ', agent_id: agentB.id, location_id: siteB.id }),
    });
    expect(again.statusCode).toBe(422);
    expect(again.json()).toEqual({ error: { serial: 'Serial has already been taken.' } });
    expect(await countDevices()).toBe(before);
    const id = first.json().data.id;
    const kept = await t.as(admin, { method: 'PUT', url: `/api/agent/devices/${id}`, payload: body({ serial: 'SN-DUP-1', type: 'tire' }) });
    expect(kept.statusCode, kept.body).toBe(200);
    const other = await t.as(admin, { method: 'POST', url: '/api/agent/devices', payload: body({ serial: 'SN-DUP-2' }) });
    const taken = await t.as(admin, {
      method: 'PUT',
      url: `/api/agent/devices/${other.json().data.id}`,
      payload: body({ serial: 'SN-DUP-1' }),
    });
    expect(taken.json()).toEqual({ error: { serial: 'Serial has already been taken.' } });
  });

  it('makes a device sent while another with its serial is being saved wait for that save, then refuses it on the field', async () => {
    const before = await countDevices();
    let locked!: () => void;
    let release!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const released = new Promise<void>((r) => (release = r));
    // Another writer in the middle of its save: the serial checked (and so held) and its row written, not yet committed.
    const writer = t.db.transaction().execute(async (trx) => {
      expect(await uniqueValueTaken(trx, { key: 'devices.serial', source: sql.table('devices'), column: 'serial' }, 'SN-HELD-1')).toBe(
        false,
      );
      await trx
        .insertInto('devices')
        .values({ location_id: siteA.id, type: 'arch', agent_id: agentA.id, serial: 'SN-HELD-1', default_client_id: clientA.id })
        .execute();
      locked();
      await released;
    });
    await isLocked;
    let answered = false;
    const second = t.as(admin, { method: 'POST', url: '/api/agent/devices', payload: body({ serial: ' sn-held-1' }) }).then((r) => {
      answered = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 500));
    expect(answered, 'the second save waits for the first').toBe(false);
    release();
    await writer;
    const reply = await second;
    expect(reply.statusCode).toBe(422);
    expect(reply.json()).toEqual({ error: { serial: 'Serial has already been taken.' } });
    expect(await countDevices()).toBe(before + 1);
  });

  it('answers 422 on the field (not 409 or 500) for a location, agent or client that does not exist', async () => {
    const before = await countDevices();
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [{ location_id: 99999999 }, { location_id: 'The selected location is invalid' }],
      [{ agent_id: 99999999 }, { agent_id: 'The selected owner is invalid' }],
      [{ default_client_id: 99999999 }, { default_client_id: 'The selected default client is invalid' }],
    ];
    for (const [over, error] of cases) {
      const res = await t.as(admin, { method: 'POST', url: '/api/agent/devices', payload: body(over) });
      expect(res.statusCode, JSON.stringify(over)).toBe(422);
      expect(res.json()).toEqual({ error });
    }
    expect(await countDevices()).toBe(before);
  });
});

describe('device permissions and scope', () => {
  it('answers 403 on every device route to a user without `device`, and changes nothing', async () => {
    const device = await t.build.device({
      location_id: siteA.id,
      agent_id: agentA.id,
      default_client_id: clientA.id,
      serial: '5500000001',
    });
    const token = await t.login((await t.build.user({ roles: ['Client'], clients: [clientA.id] })).email);
    const calls: Call[] = [
      { method: 'GET', url: '/api/agent/devices' },
      { method: 'GET', url: `/api/agent/devices/${device.id}` },
      { method: 'POST', url: '/api/agent/devices', payload: body() },
      { method: 'PUT', url: `/api/agent/devices/${device.id}`, payload: body({ serial: '5500000009' }) },
      { method: 'DELETE', url: `/api/agent/devices/${device.id}` },
    ];
    const before = await countDevices();
    for (const call of calls) expect((await t.as(token, call)).statusCode, `${call.method} ${call.url}`).toBe(403);
    expect(await countDevices()).toBe(before);
    expect((await t.db.selectFrom('devices').select('serial').where('id', '=', device.id).executeTakeFirstOrThrow()).serial).toBe(
      '5500000001',
    );
  });

  it('scopes Agent users by owner and Client users by default client', async () => {
    const mine = await t.build.device({ location_id: siteA.id, agent_id: agentA.id, default_client_id: clientB.id, serial: '7700000001' });
    const theirs = await t.build.device({
      location_id: siteB.id,
      agent_id: agentB.id,
      default_client_id: clientA.id,
      serial: '7700000002',
    });
    const agentUser = await t.login((await t.build.user({ roles: ['Agent'], agents: [agentA.id] })).email);
    const clientUser = await t.login((await t.build.user({ roles: ['Client'], clients: [clientA.id], permissions: ['device'] })).email);
    const ids = async (token: string) =>
      (await t.as(token, { method: 'GET', url: '/api/agent/devices?q=77000000&per_page=100' }))
        .json()
        .items.map((d: { id: number }) => d.id);
    expect(await ids(agentUser)).toEqual([mine.id]);
    expect(await ids(clientUser)).toEqual([theirs.id]);
    expect((await t.as(agentUser, { method: 'GET', url: `/api/agent/devices/${theirs.id}` })).statusCode).toBe(404);
    expect((await t.as(agentUser, { method: 'DELETE', url: `/api/agent/devices/${theirs.id}` })).statusCode).toBe(404);

    // An Agent user's device belongs to their agent and stands at a site they can see.
    const before = await countDevices();
    const foreignOwner = await t.as(agentUser, {
      method: 'POST',
      url: '/api/agent/devices',
      payload: body({ agent_id: agentB.id, location_id: siteA.id }),
    });
    expect(foreignOwner.statusCode).toBe(422);
    expect(foreignOwner.json()).toEqual({ error: { agent_id: 'The selected owner is invalid' } });
    const foreignSite = await t.as(agentUser, { method: 'POST', url: '/api/agent/devices', payload: body({ location_id: siteB.id }) });
    expect(foreignSite.statusCode).toBe(422);
    expect(foreignSite.json()).toEqual({ error: { location_id: 'The selected location is invalid' } });
    expect(await countDevices()).toBe(before);
    const ok = await t.as(agentUser, { method: 'POST', url: '/api/agent/devices', payload: body({ serial: '7700000003' }) });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().data.owner).toBe('Device agent A');
  });
});
