import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LabPaths } from '../../src/lab/paths.js';

/**
 * The last telling lines of each log of a lab (its servers' peer states and warnings, the link daemon's rules and
 * errors), for a failure message: a CI log keeps only its end, so this stays short.
 */
export function labLogTails(paths: LabPaths, perLog = 6): string {
  const dir = paths.logDir;
  if (!existsSync(dir)) return `(no logs at ${dir})`;
  // A server's changes of peer state and its errors (not its election's every notification, nor the warnings every
  // lost peer connection writes); the daemon's rules and complaints, not each link it adds.
  const telling = /\] - (LOOKING|LEADING|FOLLOWING|OBSERVING)\s*$|ERROR|net-daemon\[\d+\] (?!added|listening)/;
  return readdirSync(dir)
    .filter((f) => /^(zk\d+|net)\.log$/.test(f))
    .sort()
    .map((f) => {
      const lines = readFileSync(join(dir, f), 'utf8')
        .split('\n')
        .filter((l) => telling.test(l))
        .slice(-perLog)
        .map((l) => `  ${l.slice(0, 200)}`);
      return `${f}:\n${lines.join('\n')}`;
    })
    .join('\n');
}
