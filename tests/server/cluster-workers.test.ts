import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { SMTPServer } from 'smtp-server';
import { beforeAll, describe, expect, it } from 'vitest';
import { enqueueWebhooks } from '../../server/lib/events';
import { createMailer } from '../../server/lib/mail-outbox';
import type { FileStorage } from '../../server/lib/storage';
import type { Database } from '../../server/db/database';
import { removeExpiredReports } from '../../server/lib/report-file';
import { startWorkers, type Workers } from '../../server/workers';
import { createTestContext, secondInstance, type TestContext } from './helper';
import { close, flakyReceiver, listen } from './webhook-receiver';

/**
 * Background work exactly once per item with two instances on one database (each its own pool and loops),
 * and at least once when an instance is killed mid-send.
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});

/** An agent with `lanes` webhooks (one endpoint path each) and `events` scan.created queued for each: lanes × events rows. */
async function queue(port: number, lanes: number, events: number) {
  const agent = (await t.build.agent()).id;
  for (let i = 0; i < lanes; i++)
    await t.build.webhook({ agent_id: agent, endpoint: `http://127.0.0.1:${port}/lane/${i}`, events: ['scan.created'] });
  for (let i = 0; i < events; i++) await enqueueWebhooks(t.db, agent, 'scan.created', { id: i });
  const ids = await sql<{ message_id: string }>`select d.message_id from webhook_deliveries d join webhooks w on w.id = d.webhook_id
    where w.agent_id = ${agent}`.execute(t.db);
  return { agent, ids: ids.rows.map((r) => r.message_id) };
}
const pendingOf = async (agent: number) =>
  Number(
    (
      await sql<{ n: number }>`select count(*)::int as n from webhook_deliveries d join webhooks w on w.id = d.webhook_id
        where w.agent_id = ${agent} and d.status <> 'delivered'`.execute(t.db)
    ).rows[0].n,
  );

describe('webhook deliveries with two instances', () => {
  it('delivers 1,000 events to a receiver failing half the time: each at least once, none twice, both instances working', async () => {
    const receiver = flakyReceiver();
    const port = await listen(receiver.server);
    const b = await secondInstance(t);
    const { agent, ids } = await queue(port, 10, 100);
    expect(ids).toHaveLength(1000);
    const fast = { allowPrivate: true, webhookTimeoutMs: 5000, webhookEveryMs: 50, webhookRetryDelays: Array<number>(20).fill(0) };
    const workers: Workers[] = [
      startWorkers({ db: t.db, mailer: t.mailer, storage: t.app.storage, log: t.app.log, ...fast }),
      startWorkers({ db: b.db, mailer: b.mailer, storage: b.app.storage, log: b.app.log, ...fast }),
    ];
    try {
      await waitFor('every delivery', async () => (await pendingOf(agent)) === 0, 120_000);
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
      await close(receiver.server);
    }
    expect([...receiver.accepted.keys()].sort()).toEqual([...ids].sort());
    expect([...receiver.accepted.entries()].filter(([, n]) => n > 1)).toEqual([]);
    // About half the attempts failed and were retried.
    expect(receiver.requests()).toBeGreaterThan(1500);
    expect(workers[0].webhooksDelivered + workers[1].webhooksDelivered).toBe(1000);
    expect(workers[0].webhooksDelivered).toBeGreaterThan(50);
    expect(workers[1].webhooksDelivered).toBeGreaterThan(50);
  }, 150_000);

  it('loses none when an instance is killed (SIGKILL) mid-send: the other takes its claims over once they lapse', async () => {
    const receiver = flakyReceiver(20);
    const port = await listen(receiver.server);
    const { agent, ids } = await queue(port, 4, 100);
    const filesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scanquote-worker-'));
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'fixtures/worker-process.ts')], {
      env: { ...process.env, DATABASE_URL: t.url, FILES_DIR: filesDir },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise((r) => child.once('exit', r));
    let survivor: Workers | null = null;
    try {
      // Killed once it has delivered a few, with sends in flight on every lane.
      await waitFor('the first deliveries', async () => receiver.accepted.size >= 40);
      child.kill('SIGKILL');
      await exited;
      const left = await pendingOf(agent);
      expect(left).toBeGreaterThan(0);
      const inFlight = Number(
        (
          await sql<{
            n: number;
          }>`select count(*)::int as n from webhook_deliveries where claimed_until > now() and status = 'pending'`.execute(t.db)
        ).rows[0].n,
      );
      survivor = startWorkers({
        db: t.db,
        mailer: t.mailer,
        storage: t.app.storage,
        log: t.app.log,
        allowPrivate: true,
        webhookTimeoutMs: 1000,
        webhookEveryMs: 50,
        webhookRetryDelays: Array<number>(20).fill(0),
      });
      await waitFor('the rest', async () => (await pendingOf(agent)) === 0, 120_000);
      expect([...receiver.accepted.keys()].sort()).toEqual([...ids].sort());
      // At least once: only a send the killed process had in flight may arrive twice (the receiver dedupes by webhook-id).
      const twice = [...receiver.accepted.values()].filter((n) => n > 1).length;
      expect(twice).toBeLessThanOrEqual(Math.max(inFlight, 0) + 4);
    } finally {
      child.kill('SIGKILL');
      await survivor?.stop();
      await close(receiver.server);
      fs.rmSync(filesDir, { recursive: true, force: true });
    }
  }, 150_000);
});

describe('mail outbox with two instances', () => {
  it('sends each of 100 queued mails once when two instances deliver at the same time', async () => {
    const received: string[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, _session, callback) {
        let raw = '';
        stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
        stream.on('end', () => {
          received.push(/^Subject: (.*)$/m.exec(raw)?.[1]?.trim() ?? '');
          callback();
        });
      },
    });
    const port = await listen(smtp.server);
    const b = await secondInstance(t);
    const smtpUrl = `smtp://127.0.0.1:${port}`;
    const mailers = [createMailer(t.db, { smtpUrl, from: 'a@example.test' }), createMailer(b.db, { smtpUrl, from: 'a@example.test' })];
    await sql`delete from mail_outbox`.execute(t.db);
    for (let i = 0; i < 100; i++)
      await mailers[0].enqueue(t.db, { to: ['x@example.test'], subject: `Mail ${i}`, text: 'x', html: '<p>x</p>' });
    const sent = [0, 0];
    const run = async (i: number) => {
      for (;;) {
        const n = await mailers[i].deliverPending(5);
        sent[i] += n;
        if (n === 0) return;
      }
    };
    await Promise.all([run(0), run(1)]);
    await new Promise<void>((r) => smtp.close(() => r()));
    expect(received.sort()).toEqual(Array.from({ length: 100 }, (_, i) => `Mail ${i}`).sort());
    expect(sent[0] + sent[1]).toBe(100);
    expect(sent[0]).toBeGreaterThan(0);
    expect(sent[1]).toBeGreaterThan(0);
  }, 60_000);

  it('leaves a mail another instance is sending alone, and takes it over once that claim has lapsed', async () => {
    const sentTo: string[] = [];
    const transport = {
      sendMail: async (m: { subject?: string }) => {
        sentTo.push(String(m.subject));
        return {};
      },
    } as unknown as Parameters<typeof createMailer>[1]['transport'];
    const mailer = createMailer(t.db, { from: 'a@example.test', transport });
    await sql`delete from mail_outbox`.execute(t.db);
    const id = await mailer.enqueue(t.db, { to: ['x@example.test'], subject: 'Claimed', text: 'x', html: 'x' });
    await sql`update mail_outbox set claimed_until = now() + interval '1 minute' where id = ${id}`.execute(t.db);
    expect(await mailer.deliverPending()).toBe(0);
    await sql`update mail_outbox set claimed_until = now() - interval '1 second' where id = ${id}`.execute(t.db);
    expect(await mailer.deliverPending()).toBe(1);
    expect(sentTo).toEqual(['Claimed']);
  });
});

describe('export sweep with two instances', () => {
  /**
   * 40 expired exports in `table` (keys `key(i)`, after `before`), then two instances' sweeps at the same moment,
   * through a storage that counts its deletes.
   */
  async function sweepTwiceAtOnce(
    table: 'scan_exports' | 'quote_exports',
    key: (i: number) => string,
    format: string,
    sweep: (db: Database, storage: FileStorage) => Promise<number>,
    before?: (userId: number) => Promise<unknown>,
  ) {
    const deletes: string[] = [];
    const counting = (): FileStorage => ({
      ...t.app.storage,
      async delete(k) {
        deletes.push(k);
        await sleep(5);
      },
    });
    const user = await t.build.user();
    await sql`delete from ${sql.table(table)}`.execute(t.db);
    for (let i = 0; i < 40; i++)
      await sql`insert into ${sql.table(table)} (key, user_id, format, rows, created_at)
        values (${key(i)}, ${user.id}, ${format}, 1, now() - interval '25 hours')`.execute(t.db);
    await before?.(user.id);
    const b = await secondInstance(t);
    const [x, y] = await Promise.all([sweep(t.db, counting()), sweep(b.db, counting())]);
    return { x, y, deletes };
  }

  it('removes each expired export file once when two sweeps run at the same time', async () => {
    const { x, y, deletes } = await sweepTwiceAtOnce(
      'scan_exports',
      (i) => `sweep-${i}.csv`,
      'csv',
      (db, storage) => removeExpiredReports('scan_exports', db, storage),
    );
    expect(x + y).toBe(40);
    expect(deletes.sort()).toEqual(Array.from({ length: 40 }, (_, i) => `sweep-${i}.csv`).sort());
    expect(x).toBeGreaterThan(0);
    expect(y).toBeGreaterThan(0);
    expect((await sql`select key from scan_exports`.execute(t.db)).rows).toEqual([]);
  });
  it('removes each expired quote export file once when two sweeps run at the same time', async () => {
    const { x, y, deletes } = await sweepTwiceAtOnce(
      'quote_exports',
      (i) => `quote-sweep-${i}.xlsx`,
      'xlsx',
      (db, storage) => removeExpiredReports('quote_exports', db, storage),
      // A fresh one stays.
      (userId) => sql`insert into quote_exports (key, user_id, format, rows) values ('quote-fresh.csv', ${userId}, 'csv', 1)`.execute(t.db),
    );
    expect(x + y).toBe(40);
    expect(deletes.sort()).toEqual(Array.from({ length: 40 }, (_, i) => `quote-sweep-${i}.xlsx`).sort());
    expect(x).toBeGreaterThan(0);
    expect(y).toBeGreaterThan(0);
    expect((await sql`select key from quote_exports`.execute(t.db)).rows).toEqual([{ key: 'quote-fresh.csv' }]);
  });

  it('keeps a quote export whose file the storage would not remove, for the next sweep', async () => {
    const user = await t.build.user();
    await sql`delete from quote_exports`.execute(t.db);
    for (const key of ['quote-stuck.csv', 'quote-gone.csv'])
      await sql`insert into quote_exports (key, user_id, format, rows, created_at)
        values (${key}, ${user.id}, 'csv', 1, now() - interval '25 hours')`.execute(t.db);
    const failing: FileStorage = {
      ...t.app.storage,
      async delete(key) {
        if (key === 'quote-stuck.csv') throw new Error('storage unavailable');
      },
    };
    expect(await removeExpiredReports('quote_exports', t.db, failing)).toBe(1);
    expect((await sql`select key from quote_exports`.execute(t.db)).rows).toEqual([{ key: 'quote-stuck.csv' }]);
  });
});
