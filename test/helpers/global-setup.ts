import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { findMarked, stopProcesses } from '../../src/lab/node/procs.js';
import { JVM_MARKER_PREFIX, NODE_MARKER_PREFIX } from '../../src/lab/paths.js';
import { testRootPrefix } from './paths.js';
import {
  labKernelObjects,
  leftSince,
  otherRuns,
  ownRegistryDir,
  removeLeftovers,
  runRoots,
} from './kernel-leftovers.js';
import { nodeProcessesUnder } from './node-processes.js';
import { readRegistry } from '../../src/lab/registry.js';
import { PACKAGE_ROOT } from '../../src/templates.js';

/** What the kernel held of any lab before this run, and where the developer's own labs are listed. */
let kernelBefore: string[] = [];
let ownRegistry = '';

export function setup(): void {
  if (!existsSync(join(PACKAGE_ROOT, 'dist', 'contenders', 'child.js'))) {
    throw new Error('dist/ is missing: run `npm test` (it builds first) or `npm run build`');
  }
  ownRegistry = ownRegistryDir();
  kernelBefore = labKernelObjects();
  // Set before the workers start, so they inherit it.
  process.env.ZKLAB_TEST_RUN = randomBytes(4).toString('hex');
  // This run's labs are listed in a registry of their own, not among the developer's labs.
  process.env.ZKLAB_REGISTRY = `${testRootPrefix()}registry`;
}

/** Every process this run's labs started must be gone by now; anything left is a defect, reported and then stopped. */
export async function teardown(): Promise<void> {
  const prefix = testRootPrefix();
  // The kernel's leftovers are this run's when they belong to one of its directories (read before they go), or when
  // no other test run goes on beside it: another checkout's run keeps what is its own.
  const roots = runRoots(prefix);
  const alone = !otherRuns(prefix);
  // A node's daemons carry no marker on their command line: their environment names the lab (ZKLAB_NODE).
  const left = [
    ...new Set([
      ...findMarked([`${JVM_MARKER_PREFIX}${prefix}`, `${NODE_MARKER_PREFIX}${prefix}`], true),
      ...nodeProcessesUnder(prefix),
    ]),
  ];
  // This run's lab directories go too (only once nothing runs in them).
  const cleanUp = () => {
    for (const d of readdirSync('/tmp'))
      if (`/tmp/${d}`.startsWith(prefix)) rmSync(`/tmp/${d}`, { recursive: true, force: true });
  };
  // Every step below runs whatever an earlier one found, so that one leftover never hides (or keeps) another: a run
  // that left processes once also left its control groups, as the early return here skipped the kernel's check.
  const problems: string[] = [];
  if (left.length > 0) {
    await stopProcesses(left, 'SIGKILL');
    problems.push(
      `tests left ${left.length} lab process(es) running (pids ${left.join(', ')}); they have been killed now`,
    );
  }
  // Every lab of this run is forgotten by now: owned ones by their owner or its warden (which may still be at it
  // for the last file's lab), long-lived ones by `ensemble down`. One still listed is a lab nobody cleared.
  const deadline = Date.now() + 10_000;
  while (readRegistry().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const listed = readRegistry();
  cleanUp();
  if (listed.length > 0)
    problems.push(
      `tests left ${listed.length} lab(s) in the registry: ${listed.map((e) => `${e.root} (${e.kind}, ${e.command})`).join('; ')}`,
    );
  // The kernel's own evidence: control groups, namespaces, links and tables that appeared during the run. A warden
  // may still be removing the last file's lab, so what is left is looked at again for a few seconds.
  const leftNow = () => leftSince(kernelBefore, ownRegistry, roots, alone);
  let inKernel = leftNow();
  const until = Date.now() + 5000;
  while (inKernel.length > 0 && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 100));
    inKernel = leftNow();
  }
  if (inKernel.length > 0) {
    removeLeftovers(inKernel);
    problems.push(
      `tests left ${inKernel.length} thing(s) of their labs in the kernel (removed now): ${inKernel.join('; ')}`,
    );
  }
  if (problems.length > 0) throw new Error(problems.join('\n'));
}
