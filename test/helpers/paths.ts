import { mkdtempSync } from 'node:fs';
import { LabPaths } from '../../src/lab/paths.js';

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

export function tempLab(): LabPaths {
  return new LabPaths(`${tempDir()}/lab`);
}
