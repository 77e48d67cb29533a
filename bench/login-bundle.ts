import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';
import { chromium } from '@playwright/test';
import { CHROMIUM, CHROMIUM_FLAGS } from '../tests/chromium';

export const LOGIN_BUDGET_KB = 200;

/**
 * What a browser really downloads to show /login: serves dist/ (no API, so nothing else loads),
 * opens /login in Debian's Chromium, and gzips every JavaScript response it fetched.
 */
export async function measureLoginRoute(distDir = 'dist') {
  const root = path.resolve(distDir);
  if (!fs.existsSync(path.join(root, 'index.html'))) throw new Error(`${root}/index.html missing: run vite build first`);
  const app = Fastify();
  await app.register(fastifyStatic, { root, wildcard: false });
  app.setNotFoundHandler((req, reply) =>
    req.url.startsWith('/api') ? reply.status(401).send({ error: 'Unauthenticated.' }) : reply.sendFile('index.html'),
  );
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: CHROMIUM_FLAGS,
  });
  const files: { file: string; gzip: number }[] = [];
  try {
    const page = await browser.newPage();
    page.on('response', async (res) => {
      if (res.request().resourceType() !== 'script') return;
      const body = await res.body().catch(() => null);
      if (body) files.push({ file: new URL(res.url()).pathname, gzip: gzipSync(body, { level: 9 }).length });
    });
    await page.goto(`${address}/login`, { waitUntil: 'networkidle' });
    await page.getByRole('button').first().waitFor();
    await page.waitForTimeout(500);
  } finally {
    await browser.close();
    await app.close();
  }
  return { files, totalGzip: files.reduce((s, f) => s + f.gzip, 0) };
}
