import { sql } from 'kysely';
import type { Executor } from '../../db/database';
import type { PlateSuggestion } from './plate-lookup';

/** The `registrations` table the built-in plate look-up answers from (the demo seed fills it). */

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Registrations whose number starts with `prefix`, by number and state. */
export async function searchRegistrations(db: Executor, prefix: string, limit: number) {
  const r = await sql<PlateSuggestion>`select number, state, make, model from registrations
    where number like ${`${escapeLike(prefix)}%`} order by number, state limit ${limit}`.execute(db);
  return r.rows;
}

/** One registration by number (and state, when given; else the first state). */
export async function findRegistration(db: Executor, number: string, state: string | undefined) {
  const r = await sql<{
    number: string;
    state: string;
    make: string | null;
    model: string | null;
    colour: string | null;
    body_type: string | null;
    valuation: string | null;
  }>`select number, state, make, model, colour, body_type, valuation from registrations
    where number = ${number} ${state ? sql`and state = ${state}` : sql``} order by state limit 1`.execute(db);
  return r.rows[0] ?? null;
}
