import type { Snapshot } from '../../src/inspect/snapshot.js';
import type { InspectSource } from '../../src/inspect/source/inspect-source.js';

/**
 * The first snapshot of `source` that satisfies `test`: the current one when it already does (unless `onlyNew`,
 * for measuring the latency of a change), else the next one emitted; a timeout names what was expected.
 */
export function nextSnapshot(
  source: InspectSource,
  test: (s: Snapshot) => boolean,
  what: string,
  timeoutMs = 20_000,
  onlyNew = false,
): Promise<Snapshot> {
  return new Promise((resolve, reject) => {
    if (!onlyNew && test(source.current())) return resolve(source.current());
    const timer = setTimeout(() => {
      off();
      reject(
        new Error(
          `timed out after ${timeoutMs} ms waiting for ${what}; last problems: ${source.current().problems.join(' | ')}`,
        ),
      );
    }, timeoutMs);
    const off = source.subscribe((s) => {
      if (!test(s)) return;
      clearTimeout(timer);
      off();
      resolve(s);
    });
  });
}
