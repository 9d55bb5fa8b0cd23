import { afterAll, beforeAll, expect } from 'vitest';
import type { LabPaths } from '../../src/lab/paths.js';
import { findMarked, stopProcesses } from '../../src/lab/procs.js';
import { zklab } from './cli.js';

/**
 * One 3-server ensemble for a whole test file, started with the CLI before its tests and taken down after them;
 * fails the file if `ensemble down` leaves a process of the lab behind (after stopping it).
 */
export function sharedEnsemble(paths: LabPaths): void {
  const lab = paths.root;
  beforeAll(async () => {
    const up = await zklab(['ensemble', 'up', '-n', '3'], { lab });
    expect(up.exitCode, up.stderr).toBe(0);
  }, 120_000);

  afterAll(async () => {
    await zklab(['contenders', 'stop', '--all'], { lab });
    const down = await zklab(['ensemble', 'down', '--purge'], { lab });
    // Whatever `down` missed still carries the lab's marker: stop it, then fail saying so.
    const left = findMarked(paths.markers);
    if (left.length > 0) await stopProcesses(left, 'SIGKILL');
    expect(left, `ensemble down (exit ${down.exitCode}) left lab processes: ${down.stderr}`).toEqual([]);
  }, 120_000);
}
