import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Executor } from '../../server/db/database';
import { MAX_PREPARED, statementNamer } from '../../server/db/prepared';
import { createTestContext, type TestContext } from './helper';

describe('reads are prepared statements', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.app.close());

  const prepared = (db: Executor) =>
    sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements order by name`.execute(db);

  it('parses a read once per connection, then runs it by name with new values', async () => {
    await t.db.connection().execute(async (db) => {
      const read = (id: number) =>
        sql<{ id: number }>`select n as id from generate_series(1, 5) n where n >= ${id} order by n limit 1`.execute(db);
      const first = await read(1);
      const second = await read(2);
      expect(first.rows[0].id).toBeLessThan(second.rows[0].id);
      const statements = (await prepared(db)).rows.filter((r) => r.statement.includes('from generate_series(1, 5) n where n >='));
      expect(statements).toHaveLength(1);
      expect(statements[0].name).toMatch(/^sq\d+$/);
    });
  });

  it('a failing read rejects with PostgreSQL’s error and leaves the connection usable', async () => {
    await t.db.connection().execute(async (db) => {
      await expect(sql`select no_such_column from generate_series(1, 2) n where n > ${1}`.execute(db)).rejects.toThrow(/no_such_column/);
      const after = await sql<{ n: number }>`select n from generate_series(1, 3) n where n > ${1} order by n`.execute(db);
      expect(after.rows.map((r) => r.n)).toEqual([2, 3]);
    });
  });

  it('leaves writes and DDL unnamed', async () => {
    await t.db.connection().execute(async (db) => {
      await sql`create temporary table prepared_probe (n int)`.execute(db);
      await sql`insert into prepared_probe values (${1})`.execute(db);
      const rows = (await prepared(db)).rows;
      expect(rows.some((r) => /prepared_probe/.test(r.statement))).toBe(false);
    });
  });

  it('names at most MAX_PREPARED distinct texts; the same text keeps its name', () => {
    const statementName = statementNamer();
    const first = statementName('select 1 as probe');
    expect(first).toMatch(/^sq\d+$/);
    expect(statementName('select 1 as probe')).toBe(first);
    expect(statementName('update x set y = 1')).toBeNull();
    for (let i = 0; i < MAX_PREPARED; i++) statementName(`select ${i} as filler`);
    expect(statementName('select 2 as probe, 3 as more')).toBeNull();
    expect(statementName('select 1 as probe')).toBe(first);
  });
});
