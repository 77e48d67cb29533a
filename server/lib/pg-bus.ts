import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';

/**
 * The instances' message bus: PostgreSQL LISTEN/NOTIFY on the database they already share, so no other
 * service is needed. Every message goes through PostgreSQL, the publisher's own instance included: every listener
 * gets the messages of one topic in the same order (the order PostgreSQL committed the NOTIFYs), and a publisher's
 * messages in the order it published them (one connection publishes them one after another).
 * A message over NOTIFY's 8,000-byte limit is written to `bus_messages` and travels by its id; listeners read it
 * there, still in order. Those rows are swept after BUS_ROW_MINUTES.
 */
export interface Bus {
  /** Sends to every instance (this one too). Resolves once PostgreSQL has taken it; rejects when it could not. */
  publish(topic: string, message: unknown): Promise<void>;
  /** Calls `handler` for each message on `topic`, one at a time in bus order (a promise is awaited before the next). */
  subscribe(topic: string, handler: (message: unknown) => unknown): () => void;
  close(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Messages to every instance (live events, cache invalidation). */
    bus: Bus;
  }
}

const CHANNEL = 'scanquote_bus';
/** NOTIFY refuses payloads of 8,000 bytes or more; leave room for the envelope. */
const INLINE_LIMIT = 7000;
const BUS_ROW_MINUTES = 5;
const RECONNECT_MS = 1000;
/** Retries of a lost connection back off up to this, and go on until the database is back. */
const RECONNECT_MAX_MS = 5000;

type Envelope = { t: string; m: unknown } | { t: string; ref: number };
type Handlers = Map<string, Set<(message: unknown) => unknown>>;

/** Adds `handler` to `topic`'s set; the returned function removes it (`Bus.subscribe`). */
function addHandler(handlers: Handlers, topic: string, handler: (message: unknown) => unknown) {
  let set = handlers.get(topic);
  if (!set) handlers.set(topic, (set = new Set()));
  set.add(handler);
  return () => void set.delete(handler);
}

/** A bus on `url`: one dedicated connection that listens and publishes, reconnecting after a loss. */
export async function createPgBus(url: string, log: FastifyBaseLogger): Promise<Bus> {
  const handlers: Handlers = new Map();
  let client: pg.Client | null = null;
  let connecting: Promise<pg.Client> | null = null;
  let closed = false;
  let chain = Promise.resolve();
  let lastSweep = 0;

  async function fetchRow(c: pg.Client, id: number): Promise<unknown> {
    const r = await c.query<{ payload: string }>('select payload from bus_messages where id = $1', [id]);
    return r.rows[0] ? (JSON.parse(r.rows[0].payload) as unknown) : undefined;
  }

  function receive(c: pg.Client, payload: string | undefined) {
    let env: Envelope;
    try {
      env = JSON.parse(payload ?? '') as Envelope;
    } catch {
      return;
    }
    const subs = handlers.get(env.t);
    if (!subs?.size) return;
    // One at a time, in arrival order, so a large message read by id cannot be overtaken by a later small one.
    chain = chain
      .then(async () => {
        const message = 'ref' in env ? await fetchRow(c, env.ref) : env.m;
        if (message === undefined) return log.warn({ topic: env.t }, 'bus message swept before it was read');
        for (const h of subs) await h(message);
      })
      .catch((err: unknown) => log.error({ err, topic: env.t }, 'bus message handler failed'));
  }

  function connect(): Promise<pg.Client> {
    if (client) return Promise.resolve(client);
    connecting ??= (async () => {
      const c = new pg.Client({ connectionString: url, application_name: 'scanquote-bus' });
      c.on('notification', (n) => {
        if (n.channel === CHANNEL) receive(c, n.payload);
      });
      const lost = (err?: Error) => {
        if (client !== c) return;
        client = null;
        if (closed) return;
        log.error({ err }, 'real-time bus connection lost; reconnecting');
        reconnect(RECONNECT_MS);
      };
      // Also heard while connecting (the failure then rejects connect()), so an error never goes unhandled.
      c.on('error', lost);
      c.on('end', () => lost());
      try {
        await c.connect();
        await c.query(`listen ${CHANNEL}`);
      } catch (err) {
        await c.end().catch(() => {});
        throw err;
      }
      client = c;
      return c;
    })().finally(() => {
      connecting = null;
    });
    return connecting;
  }

  /** Tries again after `delay`, backing off, until connected (or closed): subscribers hear nothing until then. */
  function reconnect(delay: number) {
    setTimeout(() => {
      if (closed || client) return;
      connect().catch((err: unknown) => {
        log.warn({ err }, 'real-time bus still cannot reach the database; retrying');
        reconnect(Math.min(delay * 2, RECONNECT_MAX_MS));
      });
    }, delay).unref();
  }

  await connect();

  // Publications go out one after another on the one connection: a publisher's order is kept.
  let publishing: Promise<unknown> = Promise.resolve();
  return {
    publish(topic, message) {
      const run = publishing.then(async () => {
        const c = await connect();
        const inline = JSON.stringify({ t: topic, m: message });
        if (Buffer.byteLength(inline) <= INLINE_LIMIT) {
          await c.query('select pg_notify($1, $2)', [CHANNEL, inline]);
          return;
        }
        const row = await c.query<{ id: string }>('insert into bus_messages (payload) values ($1) returning id', [JSON.stringify(message)]);
        await c.query('select pg_notify($1, $2)', [CHANNEL, JSON.stringify({ t: topic, ref: Number(row.rows[0].id) })]);
        if (Date.now() - lastSweep > 60_000) {
          lastSweep = Date.now();
          await c.query(`delete from bus_messages where created_at < now() - interval '${BUS_ROW_MINUTES} minutes'`);
        }
      });
      publishing = run.catch(() => {});
      return run;
    },
    subscribe: (topic, handler) => addHandler(handlers, topic, handler),
    async close() {
      closed = true;
      await publishing;
      await chain;
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    },
  };
}

/** A bus inside one process (REALTIME_BUS=none: a single instance), with the same ordering promise. */
export function localBus(log: FastifyBaseLogger): Bus {
  const handlers: Handlers = new Map();
  let chain = Promise.resolve();
  return {
    async publish(topic, message) {
      const subs = handlers.get(topic);
      if (!subs?.size) return;
      // Through JSON, as over PostgreSQL, so no receiver shares an object with its publisher.
      const copy = JSON.parse(JSON.stringify(message)) as unknown;
      chain = chain
        .then(async () => {
          for (const h of subs) await h(copy);
        })
        .catch((err: unknown) => log.error({ err, topic }, 'bus message handler failed'));
    },
    subscribe: (topic, handler) => addHandler(handlers, topic, handler),
    async close() {
      await chain;
    },
  };
}
