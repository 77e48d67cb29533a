import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { NODE_RUNTIME_FLAGS } from '../../server/runtime';

describe('the Node flags the server runs with', () => {
  it('npm start passes every flag of server/runtime.ts to node, before the server file', () => {
    const pkg = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as { scripts: Record<string, string> };
    const start = pkg.scripts.start.split(/\s+/);
    expect(start[0]).toBe('node');
    const file = start.indexOf('server/server.ts');
    expect(file).toBeGreaterThan(0);
    for (const flag of NODE_RUNTIME_FLAGS) {
      expect(start.indexOf(flag), flag).toBeGreaterThan(0);
      expect(start.indexOf(flag), flag).toBeLessThan(file);
    }
  });
});
