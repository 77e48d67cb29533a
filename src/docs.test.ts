import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '..');

/**
 * Every TypeScript example of docs/ARCHITECTURE.md quotes a file of the repository whole, named in backticks just
 * before it: the file is type-checked and tested, and this keeps the quote equal to it.
 */
export function examples(markdown: string): { file: string | null; code: string }[] {
  return [...markdown.matchAll(/^( *)```tsx?\n([\s\S]*?)^\1```$/gm)].map((m) => {
    const before = markdown.slice(Math.max(0, m.index - 500), m.index);
    const named = [...before.matchAll(/`((?:src|server|tests)\/[\w./-]+\.tsx?)`/g)].pop();
    return { file: named?.[1] ?? null, code: m[2] };
  });
}

describe('the architecture page', () => {
  it('quotes whole files in its code examples', () => {
    const found = examples(fs.readFileSync(path.join(root, 'docs/ARCHITECTURE.md'), 'utf8'));
    expect(found.length).toBeGreaterThanOrEqual(2);
    for (const { file, code } of found) {
      expect(file, `an example without a file named before it:\n${code}`).not.toBeNull();
      expect(code.trim(), `${file} has changed: quote it again in docs/ARCHITECTURE.md`).toBe(
        fs.readFileSync(path.join(root, file!), 'utf8').trim(),
      );
    }
  });

  it('notices an example that no longer matches its file', () => {
    const page = 'See `src/providers.ts`:\n```ts\nexport const nothing = 1;\n```\n';
    const [example] = examples(page);
    expect(example.file).toBe('src/providers.ts');
    expect(example.code.trim()).not.toBe(fs.readFileSync(path.join(root, 'src/providers.ts'), 'utf8').trim());
  });
});
