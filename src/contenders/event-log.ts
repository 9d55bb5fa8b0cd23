import { appendFileSync, readFileSync, existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseEventLines, type ContenderEvent, type ContenderEventName, type LabEvent } from './events.js';
import { ensureDir } from '../lab/fs.js';
import type { LabPaths } from '../lab/paths.js';
import { readState } from '../lab/state.js';

/** Appends a contender's events synchronously: a line is on disk before the next step, even if SIGKILL follows. */
export class EventLogWriter {
  constructor(
    private readonly file: string,
    private readonly id: string,
  ) {
    ensureDir(dirname(file));
  }

  write(event: ContenderEventName, session: string | null, znode: string | null, fields: Readonly<Record<string, unknown>> = {}): void {
    const line: ContenderEvent = { t: Date.now(), id: this.id, pid: process.pid, session, znode, event, ...fields };
    appendFileSync(this.file, JSON.stringify(line) + '\n');
  }
}

export function readEventFile(file: string): ContenderEvent[] {
  if (!existsSync(file)) return [];
  return parseEventLines(readFileSync(file, 'utf8'));
}

export function readLabEvents(file: string): LabEvent[] {
  if (!existsSync(file)) return [];
  return parseEventLines(readFileSync(file, 'utf8')) as unknown as LabEvent[];
}

/**
 * Everything a lab has logged so far: the event logs of the contenders in its state (of `fallbackIds` when it has
 * no state), one after the other, and its own event log.
 */
export function readLabLogs(paths: LabPaths, fallbackIds: readonly string[] = []): { contender: ContenderEvent[]; lab: LabEvent[] } {
  const ids = readState(paths)?.contenders.map((c) => c.id) ?? fallbackIds;
  return {
    contender: ids.flatMap((id) => readEventFile(paths.contenderEvents(id))),
    lab: readLabEvents(paths.labEventsFile),
  };
}
