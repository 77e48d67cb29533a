import { defineConfig } from 'vitest/config';
import { availableParallelism } from 'node:os';
import react from '@vitejs/plugin-react';

const exclude = ['**/node_modules/**', 'dist/**', 'tests/e2e/**'];

export default defineConfig({
  test: {
    exclude,
    projects: [
      {
        plugins: [react()],
        test: {
          name: 'unit',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}'],
          // The domain imports nothing from the browser: its tests run without jsdom (next project).
          exclude: [...exclude, 'src/domain/**'],
          setupFiles: ['src/test/setup.ts'],
          // Files share a worker, so react-admin, MUI and jsdom load once per worker instead of once per file;
          // src/test/setup.ts still gives each file fresh app modules.
          pool: 'threads',
          isolate: false,
          // Vitest's default leaves a core to its main process, which idles while jsdom runs: one worker on 2 cores.
          maxWorkers: availableParallelism(),
          // A first react-admin render in jsdom takes seconds on 2 busy cores.
          testTimeout: 20000,
        },
      },
      {
        test: {
          name: 'domain',
          environment: 'node',
          include: ['src/domain/**/*.test.ts'],
          exclude,
          pool: 'threads',
          isolate: false,
          // Run beside the unit project in one invocation, so the same worker count.
          maxWorkers: availableParallelism(),
        },
      },
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['tests/server/**/*.test.ts'],
          exclude,
          globalSetup: ['tests/server/global-setup.ts'],
          fileParallelism: true,
          // Files share a worker, so the server's modules load once per worker rather than once per file (about 3 of
          // each file's seconds). Each file still builds its own app on its own database (tests/server/helper.ts).
          isolate: false,
          // Each file has a database of its own, and a file spends much of its time waiting for PostgreSQL: two files at
          // a time on 2 cores (Vitest's default leaves one core to its main process, so one file at a time).
          maxWorkers: availableParallelism(),
          testTimeout: 30000,
          hookTimeout: 60000,
        },
      },
    ],
  },
});
