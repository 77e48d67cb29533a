import path from 'node:path';
import { embeddedDatabaseUrl } from '../../server/db/embedded-password';

/**
 * Where the browser tests' servers run (playwright.config.ts starts them): two servers, each with its port, its
 * embedded PostgreSQL's port and its data folder (E2E_PORT, E2E_PG_PORT, E2E_DATA_DIR for A; E2E_PORT_B, E2E_PG_PORT_B
 * or 1000 above A's, and `<dir>-b` for B). A test that needs a second instance of the app with other settings
 * (tests/e2e/second-instance.ts) starts it on the database and files of the server its project uses.
 */
export interface E2eServer {
  name: 'a' | 'b';
  port: number;
  pgPort: number;
  dataDir: string;
}

const port = Number(process.env.E2E_PORT ?? 18080);
const pgPort = Number(process.env.E2E_PG_PORT ?? 18432);
const dataDir = process.env.E2E_DATA_DIR ?? '.tmp/e2e-data';

export const e2eServers: E2eServer[] = [
  { name: 'a', port, pgPort, dataDir },
  {
    name: 'b',
    port: Number(process.env.E2E_PORT_B ?? port + 1000),
    pgPort: Number(process.env.E2E_PG_PORT_B ?? pgPort + 1000),
    dataDir: `${dataDir}-b`,
  },
];

/** The server behind a project's baseURL. */
export function e2eServerAt(baseURL: string): E2eServer {
  const found = e2eServers.find((s) => new URL(baseURL).port === String(s.port));
  if (!found) throw new Error(`no e2e server at ${baseURL}`);
  return found;
}

/** A server's embedded PostgreSQL (server/db/embedded.ts: user postgres, the password its data folder keeps, database app). */
export const e2eDatabaseUrl = (server: E2eServer) => embeddedDatabaseUrl(path.resolve(server.dataDir), server.pgPort, 'app');
