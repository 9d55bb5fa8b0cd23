import { mkdtempSync } from 'node:fs';
import { basename } from 'node:path';
import { LabPaths } from '../../src/lab/paths.js';
import { ownLab } from '../../src/lab/owner.js';

/**
 * Every test lab of one `vitest` run lives under this prefix, so the global teardown can find what a failed test
 * left behind, without touching the labs of another run going on at the same time.
 */
export function testRootPrefix(): string {
  return `/tmp/zklab-test-${process.env.ZKLAB_TEST_RUN ?? 'adhoc'}-`;
}

export function tempDir(): string {
  return mkdtempSync(testRootPrefix());
}

/** A lab owned by this test process: if the process dies (a failed run, a SIGKILL), the lab's warden clears it. */
export function tempLab(): LabPaths {
  const paths = new LabPaths(`${tempDir()}/lab`);
  ownLab(paths, { command: `test ${basename(process.argv[1] ?? 'vitest')}`, removeDir: true });
  return paths;
}
