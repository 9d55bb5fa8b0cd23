import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { LabPaths } from '../../src/lab/paths.js';
import { directConnectString, readState } from '../../src/lab/state.js';
import { ZkClient } from '../../src/zk/client.js';
import { findMarked, stopProcesses } from '../../src/lab/node/procs.js';
import { zklab } from './cli.js';
import { nodeProcessesUnder } from './node-processes.js';

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
    const left = [...new Set([...findMarked(paths.markers), ...nodeProcessesUnder(`${paths.root}:`)])];
    if (left.length > 0) await stopProcesses(left, 'SIGKILL');
    expect(left, `ensemble down (exit ${down.exitCode}) left lab processes: ${down.stderr}`).toEqual([]);
  }, 120_000);
}

export interface SharedLab {
  readonly paths: LabPaths;
  /** This file's own client, straight to the servers (no link proxy): what ZooKeeper says, from outside the lab. */
  zk(): ZkClient;
  /** Runs a zklab command on the lab; throws with its stderr unless it exits 0. */
  cli(args: string[]): Promise<string>;
}

/**
 * A shared ensemble (sharedEnsemble) with a client of the test's own, and every contender stopped after each test.
 * For test files that give each test a path of its own on one ensemble.
 */
export function sharedLab(paths: LabPaths): SharedLab {
  const lab = paths.root;
  sharedEnsemble(paths);
  let zk: ZkClient | undefined;
  beforeAll(async () => {
    zk = await ZkClient.connect({
      connect: directConnectString(readState(paths)!),
      sessionTimeoutMs: 10_000,
      connectTimeoutMs: 5000,
      quiet: true,
    });
  }, 30_000);
  afterAll(async () => {
    await zk?.close();
  });
  afterEach(async () => {
    await zklab(['contenders', 'stop', '--all'], { lab });
  }, 60_000);
  return {
    paths,
    zk: () => zk!,
    cli: async (args) => {
      const r = await zklab(args, { lab });
      if (r.exitCode !== 0) throw new Error(`zklab ${args.join(' ')} exited ${r.exitCode}: ${r.stderr.trim()}`);
      return r.stdout;
    },
  };
}
