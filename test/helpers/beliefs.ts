import { readEventFile } from '../../src/lab/event-log.js';
import type { LabPaths } from '../../src/lab/paths.js';

/**
 * Spans in which each contender believed it led, by this test's own reading of the event files: from `leader` to
 * the next `resigned`, `paused`, `stopped` or `expired` (Infinity while it still leads).
 */
export function leadershipSpans(paths: LabPaths, ids: readonly string[]): { id: string; start: number; end: number }[] {
  const out: { id: string; start: number; end: number }[] = [];
  for (const id of ids) {
    let start: number | null = null;
    for (const e of readEventFile(paths.contenderEvents(id))) {
      if (e.event === 'leader' && start === null) start = e.t;
      if (
        (e.event === 'resigned' || e.event === 'paused' || e.event === 'stopped' || e.event === 'expired') &&
        start !== null
      ) {
        out.push({ id, start, end: e.t });
        start = null;
      }
    }
    if (start !== null) out.push({ id, start, end: Infinity });
  }
  return out;
}
