import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Database } from '../db/database';

declare module 'fastify' {
  interface FastifyInstance {
    /** Signs kiosk tokens and export download links. */
    signer: Signer;
  }
}

/** HMAC-SHA256 signatures of the server's own short texts (kiosk tokens, export links), with the key kept in the database. */
export interface Signer {
  /** URL-safe signature of `text` for one purpose (a signature made for one purpose never passes for another). */
  sign(purpose: string, text: string): string;
  verify(purpose: string, text: string, signature: string): boolean;
}

export function createSigner(key: Buffer): Signer {
  const mac = (purpose: string, text: string) => createHmac('sha256', key).update(`${purpose}\n${text}`).digest();
  return {
    sign: (purpose, text) => mac(purpose, text).toString('base64url'),
    verify(purpose, text, signature) {
      const expected = mac(purpose, text);
      const given = Buffer.from(signature, 'base64url');
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}

const SIGNING_KEY = 'signing_key';

/** The signing key: made by the first process that starts on this database, then shared (tokens survive restarts). */
export async function loadSigner(db: Database): Promise<Signer> {
  await db
    .insertInto('server_secrets')
    .values({ name: SIGNING_KEY, value: randomBytes(32).toString('base64') })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('server_secrets').select('value').where('name', '=', SIGNING_KEY).executeTakeFirstOrThrow();
  return createSigner(Buffer.from(row.value, 'base64'));
}
