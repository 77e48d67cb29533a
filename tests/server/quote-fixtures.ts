import { sql } from 'kysely';
import { DENT_PRICE_ROW, type TestContext } from './helper';

/**
 * What the approval and revision tests quote: a client with a dent price row, an agent whose default client it is, the
 * panels 'bonnet' and 'roof' (labels BONNET and ROOF) on one part, and a product at 30.
 */
export async function quotingFixture(t: TestContext, name: string) {
  const client = await t.build.client({ name: `${name} client` });
  const agent = await t.build.agent({ name: `${name} agent`, default_client_id: client.id });
  const part = (await t.build.part({ name: `${name} part` })).id;
  await t.db
    .insertInto('client_dent_prices')
    .values({ client_id: client.id, part_id: part, ...DENT_PRICE_ROW })
    .execute();
  const group = (await t.build.panelGroup({ name: `${name} front` })).id;
  const panel = async (car_panel: string) =>
    (
      await t.db
        .insertInto('panels')
        .values({ panel_group_id: group, name: car_panel, label: car_panel.toUpperCase(), position: 1, car_panel, part_id: part })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const bonnet = await panel('bonnet');
  const roof = await panel('roof');
  const product = (await t.build.product({ name: `${name} wax`, price: 30 })).id;
  return { client, agent, bonnet, roof, product };
}

/** A scan of the agent's with two heavy dents on the bonnet and two medium ones on the roof. */
export async function dentedScan(t: TestContext, agentId: number, clientId: number, plate: string) {
  const scan = await t.build.scan({ agent_id: agentId, client_id: clientId, license_plate: plate });
  for (const [panel, level] of [
    ['bonnet', 'heavy'],
    ['roof', 'medium'],
  ])
    await sql`insert into scan_measures (scan_id, car_panel, type, level, count) values (${scan.id}, ${panel}, 'dents', ${level}, 2)`.execute(
      t.db,
    );
  return scan;
}
