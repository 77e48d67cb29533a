import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export interface Background {
  /**
   * Starts `task` without waiting for it (the reply goes first); a failure is logged, never thrown, on `log`: the
   * request's logger, so the line carries the request's id.
   */
  run(name: string, task: () => Promise<unknown>, log?: FastifyBaseLogger): void;
  /** Resolves once every task started so far has finished (tests; closing the app waits for it too). */
  settled(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    background: Background;
  }
}

/** Work a request starts after replying (forgot-password's look-up and mail), tracked so shutdown can wait for it. */
export const backgroundPlugin = fp((app: FastifyInstance, _opts: unknown, done: () => void) => {
  const pending = new Set<Promise<unknown>>();
  const background: Background = {
    run(name, task, log = app.log) {
      const work: Promise<unknown> = Promise.resolve()
        .then(task)
        .catch((err: unknown) => log.error({ err }, `${name} failed`))
        .finally(() => pending.delete(work));
      pending.add(work);
    },
    async settled() {
      while (pending.size) await Promise.all(pending);
    },
  };
  app.decorate('background', background);
  app.addHook('onClose', () => background.settled());
  done();
});
