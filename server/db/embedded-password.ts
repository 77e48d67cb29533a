import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The embedded PostgreSQL's superuser password: made at random for each data directory when its cluster is created,
 * kept beside the cluster (DATA_DIR/pg-superuser-password) readable by its owner only. A cluster made before the file
 * existed had the password `postgres`; its next start changes it and writes the file.
 */
export const PASSWORD_FILE = 'pg-superuser-password';
/** The password of clusters made before each had its own. */
export const LEGACY_PASSWORD = 'postgres';

const fileOf = (dataDir: string) => path.join(dataDir, PASSWORD_FILE);

/** The data directory's password, or null when it has none yet. */
export function readEmbeddedPassword(dataDir: string): string | null {
  try {
    const text = fs.readFileSync(fileOf(dataDir), 'utf8').trim();
    return text || null;
  } catch {
    return null;
  }
}

/** A new random password (URL-safe: it goes into connection URLs as is). */
export const newEmbeddedPassword = () => randomBytes(24).toString('base64url');

/** Writes the password for the data directory's owner only (0600), replacing the file whole (never half written). */
export function writeEmbeddedPassword(dataDir: string, password: string) {
  const file = fileOf(dataDir);
  const next = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(next, `${password}\n`, { mode: 0o600 });
  fs.chmodSync(next, 0o600);
  fs.renameSync(next, file);
}

/** The connection URL of the embedded PostgreSQL that keeps its data under `dataDir` (its password read from there). */
export function embeddedDatabaseUrl(dataDir: string, port: number, database = 'app') {
  const password = readEmbeddedPassword(dataDir) ?? LEGACY_PASSWORD;
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}
