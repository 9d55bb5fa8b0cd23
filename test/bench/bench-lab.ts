import { mkdtempSync, rmSync } from 'node:fs';
import { ensembleDown, ensembleUp } from '../../src/ensemble/service.js';
import { tailFile } from '../../src/lab/fs.js';
import { LabPaths } from '../../src/lab/paths.js';
import { directConnectString, readState } from '../../src/lab/state.js';
import { ZkClient } from '../../src/zk/client.js';
import { testRootPrefix } from '../helpers/paths.js';

/**
 * A fresh directory for a benchmark's lab or files. Under the test suite (its smoke runs) it lies under the run's
 * prefix, so that the suite's teardown finds whatever a failed benchmark left running.
 */
export function benchDir(name: string): string {
  const prefix = process.env.ZKLAB_TEST_RUN === undefined ? '/tmp/zklab-bench-' : `${testRootPrefix()}bench-`;
  return mkdtempSync(`${prefix}${name}-`);
}

/** Polls `probe` every 20 ms until it holds; throws naming `what` after `timeoutMs`. */
export async function until(probe: () => boolean | Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * A fresh 3-server lab for one benchmark, with a client straight to its servers; taken down and deleted after
 * `fn`, whatever happens.
 */
export async function withBenchLab<T>(name: string, fn: (paths: LabPaths, zk: ZkClient) => Promise<T>): Promise<T> {
  const paths = new LabPaths(benchDir(name));
  let zk: ZkClient | undefined;
  try {
    await ensembleUp(paths, { servers: 3, tickMs: 200 });
    zk = await ZkClient.connect({
      connect: directConnectString(readState(paths)!),
      sessionTimeoutMs: 10_000,
      connectTimeoutMs: 10_000,
      quiet: true,
    });
    return await fn(paths, zk);
  } catch (e) {
    // The lab directory goes below: what its link daemon said last ("shutting down: why", "crashed: …", or nothing
    // when it was killed) is the one record of a daemon that went away mid-benchmark.
    process.stderr.write(`bench: ${name} failed; the end of its link daemon's log:\n${tailFile(paths.netLog, 20)}\n`);
    throw e;
  } finally {
    await zk?.close();
    await ensembleDown(paths, { purge: true }).catch(() => undefined);
    rmSync(paths.root, { recursive: true, force: true });
  }
}
