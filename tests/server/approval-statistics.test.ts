import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helper';

/**
 * The dashboard's approval figures: the links sent in the range, in the caller's scope and filters; their answers read
 * from the stored decisions; the median and 90th percentile from the scan and from the sending to an approval.
 */
let t: TestContext;
let admin: string;
let agentUser: string;
let mine: { agent: number; client: number };
let location: number;
let other: { agent: number; client: number };

const HOUR = 3600;

/** A quote of a new scan (scanned `scanHoursBefore` the sending) with one link sent at `sentAt`, answered or not. */
async function link(
  side: { agent: number; client: number; location?: number },
  sentAt: string,
  answer: { decisions?: ('approved' | 'declined')[]; afterHours?: number; expired?: boolean; scanHoursBefore?: number },
) {
  const scannedAt = new Date(Date.parse(sentAt) - (answer.scanHoursBefore ?? 24) * HOUR * 1000);
  const scan = await t.build.scan({
    agent_id: side.agent,
    client_id: side.client,
    location_id: side.location ?? null,
    scanned_at: scannedAt,
  });
  const quote = await t.build.quote(scan.id);
  const decided = answer.decisions ? new Date(Date.parse(sentAt) + (answer.afterHours ?? 1) * HOUR * 1000).toISOString() : null;
  const lines = answer.decisions ? JSON.stringify(answer.decisions.map((decision, i) => ({ key: `dent:${i}`, decision }))) : null;
  await sql`insert into quote_approvals (quote_id, token_hash, recipient, sent_at, expires_at, decided_at, lines)
    values (${quote.id}, ${`hash-${quote.id}`}, 'customer@example.test', ${sentAt}::timestamptz,
      ${answer.expired ? sql`now() - interval '1 hour'` : sql`now() + interval '14 days'`}, ${decided}::timestamptz, ${lines}::jsonb)`.execute(
    t.db,
  );
}

const figures = async (token: string, query = '') => {
  const res = await t.as(token, { method: 'GET', url: `/api/quote/quotes/approval-statistics${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
};

beforeAll(async () => {
  t = await createTestContext();
  const client = (await t.build.client({ name: 'Approval stats client' })).id;
  const agent = (await t.build.agent({ name: 'Approval stats agent', default_client_id: client })).id;
  location = (await t.build.location({ agent_id: agent })).id;
  mine = { agent, client };
  const otherClient = (await t.build.client({ name: 'Approval stats other client' })).id;
  other = { agent: (await t.build.agent({ name: 'Approval stats other agent', default_client_id: otherClient })).id, client: otherClient };
  admin = await t.login((await t.build.user({ roles: ['Super Admin'] })).email);
  agentUser = await t.login((await t.build.user({ roles: ['Agent'], agents: [agent] })).email);

  // In March 2026 (Melbourne): approved after 2 h and 10 h, partially approved after 4 h, declined, one expired, one open.
  await link({ ...mine, location }, '2026-03-02T00:00:00Z', { decisions: ['approved', 'approved'], afterHours: 2, scanHoursBefore: 22 });
  await link(mine, '2026-03-03T00:00:00Z', { decisions: ['approved', 'declined'], afterHours: 4, scanHoursBefore: 44 });
  await link(mine, '2026-03-04T00:00:00Z', { decisions: ['approved'], afterHours: 10, scanHoursBefore: 14 });
  await link(mine, '2026-03-05T00:00:00Z', { decisions: ['declined', 'declined'] });
  await link(mine, '2026-03-06T00:00:00Z', { expired: true });
  await link(mine, '2026-03-07T00:00:00Z', {});
  // Another agent's, and one of ours sent in April.
  await link(other, '2026-03-02T00:00:00Z', { decisions: ['approved'], afterHours: 1 });
  await link(mine, '2026-04-10T00:00:00Z', { decisions: ['approved'], afterHours: 1 });
});

describe('GET quotes/approval-statistics', () => {
  it('counts the links sent in the range by their answer, with the median and 90th percentile to an approval', async () => {
    const data = await figures(admin, `?ts=2026-03-01&td=2026-03-31&agent_id=${mine.agent}`);
    expect(data).toEqual({
      sent: 6,
      approved: 2,
      partially_approved: 1,
      declined: 1,
      expired: 1,
      // Approvals after 2, 4 and 10 hours; from the scan 24, 48 and 24 hours.
      send_to_approval: { median_seconds: 4 * HOUR, p90_seconds: Math.round(8.8 * HOUR) },
      scan_to_approval: { median_seconds: 24 * HOUR, p90_seconds: Math.round(43.2 * HOUR) },
    });
  });

  it("keeps to the caller's scope and the filters", async () => {
    const scoped = await figures(agentUser, '?ts=2026-03-01&td=2026-03-31');
    expect(scoped.sent).toBe(6);
    const all = await figures(admin, '?ts=2026-03-01&td=2026-03-31');
    expect(all.sent).toBeGreaterThanOrEqual(7);
    expect((await figures(agentUser, `?agent_id=${other.agent}`)).sent).toBe(0);
    expect((await figures(admin, `?ts=2026-03-01&td=2026-03-31&location_id=${location}`)).sent).toBe(1);
    expect(await figures(admin, `?ts=2026-04-01&td=2026-04-30&agent_id=${mine.agent}`)).toMatchObject({ sent: 1, approved: 1 });
    // No range: every link.
    expect((await figures(agentUser)).sent).toBe(7);
  });

  it('answers zeros and nulls where nothing was sent, and 422 naming the field for bad filters', async () => {
    expect(await figures(agentUser, '?ts=2020-01-01&td=2020-01-31')).toEqual({
      sent: 0,
      approved: 0,
      partially_approved: 0,
      declined: 0,
      expired: 0,
      send_to_approval: { median_seconds: null, p90_seconds: null },
      scan_to_approval: { median_seconds: null, p90_seconds: null },
    });
    const backwards = await t.as(admin, { method: 'GET', url: '/api/quote/quotes/approval-statistics?ts=2026-03-31&td=2026-03-01' });
    expect(backwards.statusCode).toBe(422);
    expect(backwards.json().error).toHaveProperty('td');
    const bad = await t.as(admin, { method: 'GET', url: '/api/quote/quotes/approval-statistics?agent_id=abc&ts=yesterday' });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().error).sort()).toEqual(['agent_id', 'ts']);
  });
});
