import { join } from 'node:path';
import { PACKAGE_ROOT, PROGRAMS_DIR } from '../../src/templates.js';

// Beside, not from, the tests' ha-system helpers: those load vitest, and `npm run bench` runs outside it.
const HA_PROBE = join(PROGRAMS_DIR, 'ha_probe.py');

/** The audit's zoo: one small service in a right build and builds wrong in one way each (see the file). */
export const ZOO = join(PACKAGE_ROOT, 'test', 'programs', 'zoo_service.py');

/**
 * The words after `zklab audit [options]` that audit a program serving its role on a port (`--port-base B`, member N
 * on B+N), probed there: `--probe`, then `--exec -- PYTHON PROGRAM ARGS… --port-base B` (nothing may follow them). A
 * Python probe runs every 500 ms (half the forks of the default; the zoo's records were made at that interval).
 */
export function probedAuditWords(python: string, base: number, program: readonly string[]): string[] {
  return [
    '--probe',
    `${python} ${HA_PROBE} ${base} {n} {addr}`,
    '--probe-interval',
    '500ms',
    '--exec',
    '--',
    python,
    ...program,
    '--port-base',
    String(base),
  ];
}

/** The same for a build of the zoo. */
export const zooAuditWords = (python: string, base: number, flaw: string): string[] =>
  probedAuditWords(python, base, [ZOO, '--flaw', flaw]);
