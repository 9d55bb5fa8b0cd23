import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isOurs } from '../../../../src/lab/node/procs.js';

/**
 * A node starts as `sh -c '…; exec "$@"' sh PROGRAM … MARKER`: while the shell execs the program, /proc/PID/cmdline
 * reads empty for a moment. A process in that moment is still the lab's; taking it for gone made a fresh contender
 * "exit while joining" and a restarted server "exit while starting", under load.
 */
describe('isOurs across an exec', () => {
  it('a process in the middle of exec is still ours; one that is gone is not', async () => {
    let emptySeen = 0;
    let wrong = 0;
    for (let i = 0; i < 60; i++) {
      const marker = `zklab-exec-test-${process.pid}-${i}`;
      const child = spawn('sh', ['-c', 'exec "$@"', 'sh', 'python3', '-c', 'import time; time.sleep(5)', marker], {
        stdio: 'ignore',
      });
      const until = Date.now() + 30;
      while (Date.now() < until) {
        // The test's own look at the kernel: the moment isOurs has to see through.
        try {
          if (readFileSync(`/proc/${child.pid}/cmdline`, 'utf8') === '') emptySeen++;
        } catch {
          // not there yet
        }
        if (!isOurs(child.pid, [marker])) wrong++;
      }
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      expect(isOurs(child.pid, [marker])).toBe(false);
    }
    expect(wrong).toBe(0);
    // Without an empty read at all, this test would prove nothing on this machine.
    expect(emptySeen).toBeGreaterThan(0);
  });
});
