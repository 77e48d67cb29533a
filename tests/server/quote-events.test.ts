import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ScanEvent } from '../../server/realtime/broadcaster';
import type { TestContext } from './helper';
import { collect, disconnectAll, listeningContext, pusherClient, subscribed } from './pusher-clients';
import { dentedScan, quotingFixture } from './quote-fixtures';

const KEY = 'quote-events-key';

let t: TestContext;
let port: number;
let agentUser: string;
let otherAgentUser: string;
let fixture: Awaited<ReturnType<typeof quotingFixture>>;

beforeAll(async () => {
  ({ t, port } = await listeningContext(KEY));
  fixture = await quotingFixture(t, 'Live quote');
  const other = await t.build.agent({ name: 'Live quote other agent' });
  agentUser = await t.login((await t.build.user({ roles: ['Agent'], agents: [fixture.agent.id] })).email);
  otherAgentUser = await t.login((await t.build.user({ roles: ['Agent'], agents: [other.id] })).email);
});

afterEach(disconnectAll);

const live = (token: string) => pusherClient(token, { key: KEY, wsPort: port, authBase: `http://127.0.0.1:${port}` });

const saveQuote = (scanId: number, version: number) =>
  t.as(agentUser, {
    method: 'POST',
    url: '/api/quote/quotes',
    payload: {
      scan_id: scanId,
      client_id: fixture.client.id,
      type: 'arch',
      items: { [fixture.bonnet]: { repair_type: 'pdr', category: 'heavy' }, [fixture.roof]: { repair_type: 'pdr', category: 'medium' } },
      products: [],
      parts: [],
      metallic: 0,
      pearl: 0,
      aluminium: 0,
      vehicle_type: 'D',
      version,
    },
  });

describe('a quote saved or deleted reaches the users who may see its scan, live', () => {
  it('publishes the scan as updated with quote_id and the status on save, and `deleted` on delete; not to another agent', async () => {
    const mine = collect<ScanEvent & { quote_id?: number; quote_status?: string }>(
      await subscribed(live(agentUser), 'private-scan'),
      'updated',
    );
    const theirs = collect<ScanEvent>(await subscribed(live(otherAgentUser), 'private-scan'), 'updated', 1500);
    const scan = await dentedScan(t, fixture.agent.id, fixture.client.id, 'LIVE01');

    const created = await saveQuote(scan.id, 0);
    expect(created.statusCode, created.body).toBe(201);
    const quote = created.json().data as { id: number };
    const removed = await t.as(agentUser, { method: 'DELETE', url: `/api/quote/quotes/${quote.id}` });
    expect(removed.statusCode, removed.body).toBe(200);

    const events = await mine.until(2);
    expect(events.map((e) => [e.id, e.quote_id, e.quote_status, e.licensePlate])).toEqual([
      [scan.id, quote.id, 'draft', 'LIVE01'],
      [scan.id, quote.id, 'deleted', 'LIVE01'],
    ]);
    await expect(theirs.until(1)).rejects.toThrow();
  });
});
