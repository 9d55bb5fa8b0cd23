import { appendFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { LabPaths } from './paths.js';
import { ensureDir } from './fs.js';

/** Appends one JSON line to the lab's own event log (faults, ups and downs) for inspect and drills to read. */
export function recordLabEvent(paths: LabPaths, fields: Readonly<Record<string, unknown>>): void {
  try {
    ensureDir(dirname(paths.labEventsFile));
    appendFileSync(paths.labEventsFile, JSON.stringify({ t: Date.now(), source: 'lab', ...fields }) + '\n');
  } catch {
    // The event log is an aid for observers; failing to write it must not fail the command.
  }
}
