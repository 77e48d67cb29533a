import { beforeAll, describe, expect, it } from 'vitest';
import { storageOf } from '../../server/lib/storage';
import { portalScanService } from '../../server/services/scan/portal-service';
import { scanRecords } from '../../server/services/scan/scans-service';
import type { ScanDeps } from '../../server/services/scan/shared';
import { scanStatisticsService } from '../../server/services/scan/statistics-service';
import { createTestContext, type TestContext } from './helper';

/**
 * The scan services take plain inputs (a scope, an agent id, a log), so a worker, the seed or a script calls them as
 * the routes do, with no request; what they do is the routes' business and tested there.
 */
let t: TestContext;
let deps: ScanDeps;
const log = { warn: () => {}, error: () => {} };

beforeAll(async () => {
  t = await createTestContext();
  deps = { db: t.db, storage: storageOf(t.app), signer: t.app.signer, log };
});

describe('scan services without a request', () => {
  it('create a portal scan, then find it in the list and the statistics of a scope that holds its agent, and only there', async () => {
    const client = await t.build.client();
    const agent = await t.build.agent({ default_client_id: client.id });
    const other = await t.build.agent();

    const created = await portalScanService(deps).createManual({ agentId: agent.id, ip: '192.0.2.1', log });
    expect(created).toMatchObject({ type: 'tire', status: 'uploaded' });

    const scans = scanRecords(deps);
    const page = { page: 1, per_page: 10 };
    const mine = await scans.list({ scope: { agents: [agent.id], clients: null } }, page);
    expect(mine.items.map((s) => [s.id, s.agent_id, s.client_id])).toEqual([[created.id, agent.id, client.id]]);
    expect(mine.total).toBe(1);
    expect((await scans.list({ scope: { agents: [other.id], clients: null } }, page)).items).toEqual([]);

    const statistics = scanStatisticsService(deps);
    expect(await statistics.rows({ scope: { agents: [agent.id], clients: null } }, {}, 'agent')).toEqual([
      { agent_id: agent.id, agent_name: agent.name, arch: 0, chasis: 0, tire: 1 },
    ]);
    expect(await statistics.rows({ scope: { agents: [other.id], clients: null } }, {}, 'agent')).toEqual([]);
  });
});
