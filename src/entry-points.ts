import { join } from 'node:path';
import { PACKAGE_ROOT } from './templates.js';

/**
 * The processes zklab starts from its own build, each named by its source file under src/ without the ending. The
 * one naming rule: `src/<name>.ts` is built to `dist/<name>.js`, and that file is what runs.
 */
export const ENTRY_POINTS = [
  'contenders/child',
  'contenders/exec-child',
  'contenders/prober',
  'drills/run/sampler-child',
  'ensemble/class-data-build',
  'lab/warden',
  'net/daemon',
] as const;
export type EntryPoint = (typeof ENTRY_POINTS)[number];

/** The built file that runs an entry point. */
export function entryPoint(name: EntryPoint): string {
  return join(PACKAGE_ROOT, 'dist', `${name}.js`);
}
