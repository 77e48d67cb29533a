import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/**
 * `npm ci` on the supported Node line prints no EBADENGINE: every package the lock file installs accepts the oldest
 * Node that `engines` admits, and `.nvmrc` names that line. Without it a dependency bump that needs a newer Node
 * installs with a warning and fails at run time on the machines the README promises.
 */
const root = path.resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean }>;
};

describe('install', () => {
  const oldest = semver.minVersion(pkg.engines.node);

  it('names one Node line in engines and .nvmrc', () => {
    expect(oldest).not.toBeNull();
    const nvmrc = fs.readFileSync(path.join(root, '.nvmrc'), 'utf8').trim();
    expect(semver.major(oldest!)).toBe(Number(nvmrc));
  });

  it('installs no package whose engines refuse the oldest supported Node', () => {
    const refusing = Object.entries(lock.packages)
      .filter(([name, entry]) => name && entry.engines && !Array.isArray(entry.engines) && entry.engines.node)
      .filter(([, entry]) => !semver.satisfies(oldest!, (entry.engines as { node: string }).node))
      .map(([name, entry]) => `${name} wants node ${(entry.engines as { node: string }).node}`);
    expect(refusing).toEqual([]);
  });
});
