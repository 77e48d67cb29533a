import { defineConfig } from 'vitest/config';
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
          exclude,
          setupFiles: ['src/test/setup.ts'],
          // Files share a worker, so react-admin, MUI and jsdom load once per worker instead of once per file;
          // src/test/setup.ts still gives each file fresh app modules.
          pool: 'threads',
          isolate: false,
          // A first react-admin render in jsdom takes seconds on 2 busy cores.
          testTimeout: 20000,
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
          testTimeout: 30000,
          hookTimeout: 60000,
        },
      },
    ],
  },
});
