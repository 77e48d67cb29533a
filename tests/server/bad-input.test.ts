import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, formData, type TestContext } from './helper';

/**
 * Bad input never reaches PostgreSQL as a 500: a NUL byte in any text (PostgreSQL text cannot hold one)
 * and a date the database cannot read are 422 on the field, on every route.
 */
let t: TestContext;
let admin: string;
let agentId: number;
let scanId: number;
let clientId: number;
beforeAll(async () => {
  t = await createTestContext();
  admin = await t.login((await t.build.user({ roles: ['Super Admin'] })).email);
  const client = await t.build.client();
  clientId = client.id;
  agentId = (await t.build.agent({ default_client_id: client.id })).id;
  scanId = (await t.build.scan({ agent_id: agentId, client_id: client.id })).id;
});

const NUL = 'x\u0000y';

/** Paths with their methods from `printRoutes`' tree (one segment per line, four columns of indent per level). */
function routesOf(tree: string): { path: string; methods: string[] }[] {
  const stack: string[] = [];
  const out: { path: string; methods: string[] }[] = [];
  for (const line of tree.split('\n')) {
    const m = /^((?:│ {3}| {4})*)[├└]── (.+?)(?: \(([^)]*)\))?$/.exec(line);
    if (!m) continue;
    stack.length = m[1].length / 4;
    stack.push(m[2]);
    if (m[3]) out.push({ path: stack.join(''), methods: m[3].split(', ') });
  }
  return out;
}

describe('a NUL byte and out-of-range dates, swept over every route', () => {
  it('never answer 5xx: every POST, PUT and GET under /api with NUL text and impossible dates', async () => {
    const routes = routesOf(t.app.printRoutes({ commonPrefix: false }))
      .filter((r) => r.path.startsWith('/api/') && !r.path.startsWith('/api/docs') && !r.path.endsWith('*'))
      // Signing out would end the sweep's own session.
      .filter((r) => !r.path.endsWith('/auth/logout'));
    expect(routes.length).toBeGreaterThan(40);
    const body = Object.fromEntries(
      [
        'name',
        'first_name',
        'last_name',
        'email',
        'password',
        'current_password',
        'token',
        'pin',
        'q',
        'key',
        'option_value',
        'templateName',
        'templateBody',
        'licensePlate',
        'make',
        'serial',
        'endpoint',
        'description',
        'scan_id',
        'status',
      ].map((k) => [k, NUL]),
    );
    const query = `q=${encodeURIComponent(NUL)}&ts=0000-13-45&te=99999-01-01`;
    let swept = 0;
    for (const route of routes) {
      const url = route.path.replace(/:id/g, String(scanId)).replace(/:\w+/g, '999999');
      for (const method of route.methods.filter((m) => ['GET', 'POST', 'PUT'].includes(m)) as ('GET' | 'POST' | 'PUT')[]) {
        const res = await t.as(admin, { method, url: `${url}?${query}`, ...(method === 'GET' ? {} : { payload: body }) });
        expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(500);
        swept++;
      }
    }
    expect(swept).toBeGreaterThan(60);
  });
});

describe('a NUL byte is 422 on the field', () => {
  const cases: {
    label: string;
    method: 'POST' | 'PUT' | 'GET';
    url: () => string;
    payload?: () => Record<string, unknown>;
    field: string;
  }[] = [
    {
      label: 'sign-in e-mail',
      method: 'POST',
      url: () => '/api/user/auth/login',
      payload: () => ({ email: `a${NUL}@b.test`, password: 'x' }),
      field: 'email',
    },
    {
      label: 'forgot-password e-mail',
      method: 'POST',
      url: () => '/api/user/auth/forgot-password',
      payload: () => ({ email: `a${NUL}@b.test` }),
      field: 'email',
    },
    {
      label: 'a location name (field DSL)',
      method: 'POST',
      url: () => '/api/agent/locations',
      payload: () => ({ name: NUL, state: 'VIC' }),
      field: 'name',
    },
    {
      label: "a user's first name",
      method: 'POST',
      url: () => '/api/user/users',
      payload: () => ({
        first_name: NUL,
        last_name: 'B',
        email: 'nul.user@example.test',
        roles: ['Super Admin'],
        password: 'a-good-password',
      }),
      field: 'first_name',
    },
    {
      label: 'a role name',
      method: 'POST',
      url: () => '/api/user/roles',
      payload: () => ({ name: NUL, permissions: ['scan'] }),
      field: 'name',
    },
    { label: "a scan's make", method: 'PUT', url: () => `/api/scan/scans/${scanId}`, payload: () => ({ make: NUL }), field: 'make' },
    { label: 'a list search', method: 'GET', url: () => `/api/agent/locations?q=${encodeURIComponent(NUL)}`, field: 'q' },
    { label: 'the scan list search', method: 'GET', url: () => `/api/scan/scans?q=${encodeURIComponent(NUL)}`, field: 'q' },
    {
      label: 'a member no schema names',
      method: 'POST',
      url: () => '/api/agent/locations',
      payload: () => ({ name: 'Fine', state: 'VIC', extra: NUL }),
      field: 'extra',
    },
  ];
  for (const c of cases) {
    it(c.label, async () => {
      const res = await t.as(admin, { method: c.method, url: c.url(), ...(c.payload ? { payload: c.payload() } : {}) });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().error[c.field]).toMatch(/must not contain a NUL character$/);
    });
  }
});

describe("a scan's registration holds letters and digits only", () => {
  const plate = async () =>
    (await t.db.selectFrom('scans').select('license_plate').where('id', '=', scanId).executeTakeFirstOrThrow()).license_plate;

  it('is 422 on the field for punctuation, stores nothing, and keeps a plate written with spaces and dashes', async () => {
    const ok = await t.as(admin, { method: 'PUT', url: `/api/scan/scans/${scanId}`, payload: { licensePlate: 'ab-12 c' } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await plate()).toBe('AB12C');
    for (const licensePlate of ['AB!12', '<script>', 'ÄÖ1', '!!!']) {
      const res = await t.as(admin, { method: 'PUT', url: `/api/scan/scans/${scanId}`, payload: { licensePlate, make: 'Kia' } });
      expect(res.statusCode, `${licensePlate}: ${res.body}`).toBe(422);
      expect(res.json()).toEqual({ error: { licensePlate: 'Registration may hold only letters and digits' } });
    }
    expect(await plate()).toBe('AB12C');
  });
});

describe('paging out of bounds is 422 naming page or per_page', () => {
  for (const path of ['/api/user/users', '/api/scan/scans', '/api/quote/quotes', '/api/scan/vehicles']) {
    it(path, async () => {
      const big = await t.as(admin, { method: 'GET', url: `${path}?per_page=400` });
      expect(big.statusCode, big.body).toBe(422);
      expect(big.json().error).toEqual({ per_page: 'Per Page must be less than 100' });
      const zero = await t.as(admin, { method: 'GET', url: `${path}?page=0&per_page=x` });
      expect(zero.json().error).toEqual({ page: 'Page must be greater than zero', per_page: 'Per Page must be a number' });
      expect((await t.as(admin, { method: 'GET', url: `${path}?page=2&per_page=100` })).statusCode).toBe(200);
    });
  }
});

describe('scan list dates out of range are 422 on the field', () => {
  for (const [field, value] of [
    ['ts', '0000-13-45'],
    ['ts', '99999-01-01'],
    ['te', '2024-05-31 24:61'],
    ['te', '2024-05-31T07:30:00+25:00'],
    ['ts', '0001-01-01'],
  ]) {
    it(`${field}=${value}`, async () => {
      for (const path of ['/api/scan/scans', '/api/scan/scans/export-scan-report']) {
        const res = await t.as(admin, { method: 'GET', url: `${path}?${field}=${encodeURIComponent(value)}` });
        expect(res.statusCode, `${path}: ${res.body}`).toBe(422);
        expect(Object.keys(res.json().error)).toEqual([field]);
      }
    });
  }
});

describe('a date range ending on a day before it starts is 422 on the end', () => {
  const lists = ['/api/scan/scans', '/api/scan/scans/export-scan-report', '/api/quote/quotes', '/api/quote/quotes/export-quote-report'];
  const counts = ['/api/scan/scans/agent-statistics', '/api/scan/scans/location-statistics', '/api/quote/quotes/approval-statistics'];
  it('on the scan and quote lists and exports (ts, te) and the dashboard figures (ts, td); one day, or either bound alone, is fine', async () => {
    for (const [paths, end] of [
      [lists, 'te'],
      [counts, 'td'],
    ] as const)
      for (const path of paths) {
        const reversed = await t.as(admin, { method: 'GET', url: `${path}?ts=2026-05-02&${end}=2026-05-01` });
        expect(reversed.statusCode, `${path}: ${reversed.body}`).toBe(422);
        expect(reversed.json().error, path).toEqual({ [end]: 'End date must not be before the start date' });
        for (const query of [`ts=2026-05-01&${end}=2026-05-01`, `ts=2026-05-02`, `${end}=2026-05-01`]) {
          const fine = await t.as(admin, { method: 'GET', url: `${path}?${query}` });
          expect(fine.statusCode, `${path}?${query}: ${fine.body}`).toBe(200);
        }
      }
  });
});

describe('deeply nested JSON is 422 before anything walks it', () => {
  const nested = {
    arrays: (key: string) => `{"${key}":${'['.repeat(20_000)}${']'.repeat(20_000)},"password":"x"}`,
    objects: (key: string) => `{"password":"x","${key}":${'{"a":'.repeat(8_000)}1${'}'.repeat(8_000)}}`,
  };
  for (const url of ['/api/user/auth/login', '/api/user/auth/forgot-password']) {
    for (const [shape, body] of Object.entries(nested)) {
      it(`${url}, 40 kB of nested ${shape}`, async () => {
        const started = performance.now();
        for (const key of ['email', 'extra']) {
          const payload = body(key);
          expect(payload.length).toBeGreaterThan(39_000);
          const res = await t.app.inject({
            method: 'POST',
            url,
            payload,
            headers: { 'content-type': 'application/json' },
            remoteAddress: '10.33.0.1',
          });
          expect(res.statusCode, res.body).toBe(422);
          expect(res.json()).toEqual({ error: { [key]: `${key} is nested too deeply (at most 32 levels)` } });
        }
        // Walking such a body cost about 0.4 s a request; refused on its text, it is a few milliseconds.
        expect(performance.now() - started).toBeLessThan(500);
      });
    }
  }

  it('counts only brackets outside strings, and lets a body at the limit through to validation', async () => {
    const inText = `{"email":"${'['.repeat(100)}@example.test","password":"${'{\\"'.repeat(50)}"}`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/user/auth/login',
      payload: inText,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(Object.keys(res.json().error)).toEqual(['email']);
    expect(res.json().error.email).not.toMatch(/nested/);
    const atLimit = `{"email":"a@b.test","password":"x","extra":${'['.repeat(31)}${']'.repeat(31)}}`;
    const limit = await t.app.inject({
      method: 'POST',
      url: '/api/user/auth/login',
      payload: atLimit,
      headers: { 'content-type': 'application/json' },
    });
    expect(limit.statusCode, limit.body).toBe(422);
    expect(limit.json().error).not.toHaveProperty('extra');
  });
});

describe("values at a schema's own bounds fit the database", () => {
  for (const field of ['ts', 'td']) {
    for (const value of ['9999-12-31 23:59:59', '9999-12-31T23:59:59-14:00', '9999-06-01']) {
      it(`dashboard statistics ${field}=${value} is 422 on the field`, async () => {
        for (const by of ['agent', 'location']) {
          const res = await t.as(admin, { method: 'GET', url: `/api/scan/scans/${by}-statistics?${field}=${encodeURIComponent(value)}` });
          expect(res.statusCode, res.body).toBe(422);
          expect(res.json().error).toEqual({ [field]: `${field === 'ts' ? 'Start' : 'End'} date must be before the year 9999` });
        }
      });
    }
  }

  it('dashboard statistics up to the end of 9998 are counted', async () => {
    const res = await t.as(admin, {
      method: 'GET',
      url: `/api/scan/scans/agent-statistics?ts=${encodeURIComponent('1900-01-01T00:00:00+14:00')}&td=${encodeURIComponent('9998-12-31T23:59:59-14:00')}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual([expect.objectContaining({ agent_id: agentId })]);
  });

  it("a quote product's price beyond what the quote's totals hold is 422 on the price, nothing stored", async () => {
    const product = await t.build.product();
    const body = (price: number) => ({ scan_id: scanId, client_id: clientId, products: [{ value: product.id, text: 'Fuzz', price }] });
    const res = await t.as(admin, { method: 'POST', url: '/api/quote/quotes', payload: body(9_999_999_999.99) });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().error).toEqual({ 'products.0.price': 'Price must be at most 9999999.99' });
    expect((await sql`select id from quotes where scan_id = ${scanId}`.execute(t.db)).rows).toEqual([]);
    // The largest price allowed, on the most (distinct) products allowed, still fits.
    const many = await t.db
      .insertInto('products')
      .values(Array.from({ length: 200 }, (_, i) => ({ name: `Bound product ${i}`, price: 1 })))
      .returning('id')
      .execute();
    const most = { ...body(0), products: many.map((p) => ({ value: p.id, text: 'Fuzz', price: 9_999_999.99 })) };
    const ok = await t.as(admin, { method: 'POST', url: '/api/quote/quotes', payload: most });
    expect(ok.statusCode, ok.body).toBeLessThan(300);
  });
});

describe('a line break in a single-line field is 422 on the field, nothing stored', () => {
  const forged = 'Hello\r\nmail (no SMTP_URL set, printed instead of sent) to boss@example.test: Wire the money';
  const cases: { label: string; method: 'POST' | 'PUT'; url: () => string; payload: () => Record<string, unknown>; field: string }[] = [
    {
      label: 'a mail subject',
      method: 'POST',
      url: () => '/api/email/emails',
      payload: () => ({ scan_id: scanId, recipients: ['owner@example.test'], subject: forged, message: '<p>Hi</p>' }),
      field: 'subject',
    },
    {
      label: 'a mail subject with only a line feed',
      method: 'POST',
      url: () => '/api/email/emails',
      payload: () => ({ scan_id: scanId, recipients: ['owner@example.test'], subject: 'Hello\nthere', message: '<p>Hi</p>' }),
      field: 'subject',
    },
    {
      label: "a scan's make (field DSL)",
      method: 'PUT',
      url: () => `/api/scan/scans/${scanId}`,
      payload: () => ({ make: 'Toyota\rX' }),
      field: 'make',
    },
    {
      label: 'a location name',
      method: 'POST',
      url: () => '/api/agent/locations',
      payload: () => ({ name: 'Depot\u2028Two', state: 'VIC' }),
      field: 'name',
    },
    {
      label: "the profile's first name",
      method: 'PUT',
      url: () => '/api/user/auth/profile',
      payload: () => ({ first_name: 'Ann\nB', last_name: 'B', email: 'line.break.profile@example.test' }),
      field: 'first_name',
    },
  ];
  for (const c of cases) {
    it(c.label, async () => {
      const mailsBefore = await t.db.selectFrom('mail_outbox').select('id').execute();
      const res = await t.as(admin, { method: c.method, url: c.url(), payload: c.payload() });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().error[c.field]).toMatch(/must be a single line$/);
      expect(await t.db.selectFrom('mail_outbox').select('id').execute()).toEqual(mailsBefore);
    });
  }

  it('refuses control characters and direction overrides in a one-line field, storing nothing', async () => {
    for (const name of ['Depot\u0007One', 'Depot\tOne', 'Depot \u202Eowt\u202C', 'Depot \u2066One\u2069']) {
      const before = await t.db.selectFrom('locations').select('id').execute();
      const res = await t.as(admin, { method: 'POST', url: '/api/agent/locations', payload: { name, state: 'VIC' } });
      expect(res.statusCode, JSON.stringify(name)).toBe(422);
      expect(res.json().error.name).toBe('Name must not contain control characters');
      expect(await t.db.selectFrom('locations').select('id').execute()).toEqual(before);
    }
    // Mixed-direction text keeps its marks: a name with a right-to-left mark is stored.
    const rtl = await t.as(admin, { method: 'POST', url: '/api/agent/locations', payload: { name: 'Depot \u200Fשתיים', state: 'VIC' } });
    expect(rtl.statusCode, rtl.body).toBe(201);
  });

  it('keeps line breaks where a field is multi-line (an address)', async () => {
    const res = await t.as(admin, { method: 'PUT', url: `/api/agent/agents/${agentId}`, payload: { address: '1 Main St\nMelbourne' } });
    expect(res.json().error?.address).toBeUndefined();
  });
});

describe('a number is a number or its decimal text: any other value is 422 on the field, nothing stored', () => {
  const scanRow = async () => (await sql`select to_jsonb(s) as row from scans s where id = ${scanId}`.execute(t.db)).rows[0];

  it("does not read true, [id], hex or an exponent as another record's id or a price", async () => {
    const group = await t.build.panelGroup();
    await t.build.panel({ panel_group_id: group.id, car_panel: 'coerce_bonnet' });
    const before = await scanRow();
    for (const bad of [true, [scanId], `0x${scanId.toString(16)}`, `${scanId}e0`, '']) {
      const res = await t.as(admin, {
        method: 'POST',
        url: '/api/scan/scans/arch/edit-damage-count',
        payload: { scan_id: bad, car_panel: 'coerce_bonnet', dents: { light: 1 } },
      });
      expect(res.statusCode, `${JSON.stringify(bad)}: ${res.body}`).toBe(422);
      expect(Object.keys(res.json().error)).toEqual(['scan_id']);
    }
    expect(await scanRow()).toEqual(before);

    const products = async () => (await sql<{ n: number }>`select count(*)::int as n from products`.execute(t.db)).rows[0].n;
    const count = await products();
    for (const bad of ['0x10', true, [16], '1e1']) {
      const res = await t.as(admin, { method: 'POST', url: '/api/quote/products', payload: { name: `Coerce ${String(bad)}`, price: bad } });
      expect(res.statusCode, `${JSON.stringify(bad)}: ${res.body}`).toBe(422);
      expect(Object.keys(res.json().error)).toEqual(['price']);
    }
    expect(await products()).toBe(count);
    // Decimal text, as a form or a multipart body sends it, is read as its number.
    const ok = await t.as(admin, { method: 'POST', url: '/api/quote/products', payload: { name: 'Coerce decimal', price: ' 12.50 ' } });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().data.price).toBe(12.5);

    const unquoted = (await t.build.scan({ agent_id: agentId, client_id: clientId })).id;
    const quote = await t.as(admin, {
      method: 'POST',
      url: '/api/quote/quotes',
      payload: { scan_id: unquoted, client_id: clientId, products: [{ value: ok.json().data.id, text: 'Coerce', price: '0x10' }] },
    });
    expect(quote.statusCode, quote.body).toBe(422);
    expect(quote.json().error).toEqual({ 'products.0.price': 'Price must be a number' });
    expect((await sql`select id from quotes where scan_id = ${unquoted}`.execute(t.db)).rows).toEqual([]);
  });
});

describe("a rule without a message of its own is worded as the product's, naming the field", () => {
  it("never answers with the validation library's own wording", async () => {
    const long = 'x'.repeat(201);
    const cases: [string, Record<string, string>][] = [[`/api/scan/scans?q=${long}`, { q: 'Search must be at most 200 characters' }]];
    for (const [url, error] of cases) {
      const res = await t.as(admin, { method: 'GET', url });
      expect(res.statusCode, url).toBe(422);
      expect(res.json().error, url).toEqual(error);
    }
    // Swept: a too-long search on every list the access matrix reads, none worded by the library.
    for (const url of ['/api/agent/locations', '/api/quote/products', '/api/user/users', '/api/scan/vehicles', '/api/quote/quotes']) {
      const res = await t.as(admin, { method: 'GET', url: `${url}?q=${'y'.repeat(300)}&order=up` });
      expect(res.statusCode, url).toBe(422);
      for (const text of Object.values(res.json().error as Record<string, string>))
        expect(text, url).not.toMatch(/^(Too big|Too small|Invalid option|Invalid input)\b/);
    }
  });
});

describe('each rule of a field says its own message', () => {
  it('a list over its limit, a part with a line break, a text for a list and a prototype key, nothing stored', async () => {
    const product = await t.build.product();
    const scan = (await t.build.scan({ agent_id: agentId, client_id: clientId })).id;
    const quote = (over: Record<string, unknown>) => ({ scan_id: scan, client_id: clientId, ...over });
    const cases: [string, Record<string, unknown>, Record<string, string>][] = [
      [
        '/api/quote/quotes',
        quote({ products: Array.from({ length: 201 }, () => ({ value: product.id, text: 'P', price: 1 })) }),
        { products: 'Products may hold at most 200 items' },
      ],
      [
        '/api/quote/quotes',
        quote({ parts: Array.from({ length: 201 }, (_, i) => `Part ${i}`) }),
        { parts: 'Parts may hold at most 200 items' },
      ],
      ['/api/quote/quotes', quote({ parts: ['Bumper\nclip'] }), { 'parts.0': 'Part must be a single line' }],
      ['/api/quote/quotes', quote({ parts: [{ text: 'Bumper\nclip', value: 'x' }] }), { 'parts.0': 'Part must be a single line' }],
      ['/api/quote/quotes', quote({ parts: [42] }), { 'parts.0': 'Part must be a text' }],
      ['/api/quote/quotes', quote({ products: 'all of them' }), { products: 'Products must be a list' }],
      ['/api/user/options/search', { option_name: 'GST_PERCENT' }, { option_name: 'Option Name must be a list of names' }],
      [
        '/api/user/options/search',
        { option_name: Array.from({ length: 101 }, () => 'GST_PERCENT') },
        { option_name: 'Option Name may hold at most 100 items' },
      ],
    ];
    for (const [url, payload, error] of cases) {
      const res = await t.as(admin, { method: 'POST', url, payload });
      expect(res.statusCode, `${url} ${JSON.stringify(error)}`).toBe(422);
      expect(res.json().error, `${url} ${JSON.stringify(error)}`).toEqual(error);
    }
    expect((await sql`select id from quotes where scan_id = ${scan}`.execute(t.db)).rows).toEqual([]);

    for (const text of ['{"__proto__": {"admin": true}, "name": "x"}', '{"constructor": {"prototype": {"admin": true}}}']) {
      const res = await t.as(admin, {
        method: 'POST',
        url: '/api/quote/clients',
        payload: text,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode, text).toBe(422);
      expect(res.json(), text).toEqual({ error: { body: 'Body must not hold a __proto__ or constructor.prototype key' } });
    }
    const broken = await t.as(admin, {
      method: 'POST',
      url: '/api/quote/clients',
      payload: '{"name": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(broken.statusCode).toBe(422);
    expect(Object.keys(broken.json().error)).toEqual(['body']);
    expect(broken.json().error.body).not.toMatch(/__proto__/);
  });
});

describe('addresses and bodies the framework refuses answer in the API shape', () => {
  it('a bad %-encoding or an over-long path part is 400 with a message; two file parts are 422 on the file', async () => {
    for (const url of ['/api/quote/quotes/%E0%A4%A', `/api/quote/quotes/${'9'.repeat(600)}`]) {
      const res = await t.as(admin, { method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toEqual({ error: 'The address is not valid: check its encoding and the length of its parts' });
    }
    const png = { data: Buffer.from('89504e470d0a1a0a', 'hex'), filename: 'a.png', type: 'image/png' };
    const two = await t.as(admin, {
      method: 'POST',
      url: `/api/scan/scans/${scanId}/annotates`,
      ...(await formData({ file: png, second: png })),
    });
    expect(two.statusCode, two.body).toBe(422);
    expect(two.json().error).toEqual({ file: 'Send one file at a time' });
    // One upload sent twice is refused by its name: an agent's logo.
    const agent = (await t.build.agent({ name: 'Twice logo agent' })).id;
    const twice = await t.as(admin, {
      method: 'POST',
      url: `/api/agent/agents/${agent}?_method=PUT`,
      ...(await formData({ name: 'Twice logo agent', logoFile: [png, png] })),
    });
    expect(twice.statusCode, twice.body).toBe(422);
    expect(twice.json().error).toEqual({ logoFile: 'Send one file at a time' });
  });
});
