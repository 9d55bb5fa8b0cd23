import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ensureDir } from './fs.js';
import { labNow } from './lab-time.js';
import type { LabPaths } from './paths.js';
import { readState } from './state.js';
import {
  isContenderEvent,
  isLabEvent,
  type ContenderEvent,
  type ContenderEventFields,
  type ContenderEventHead,
  type ContenderEventName,
  type LabEvent,
  type LabEventFields,
  type LabEventName,
} from './events.js';
import type { EventSchemas, FieldsOf } from './event-schema.js';

/** Appends a contender's events synchronously: a line is on disk before the next step, even if SIGKILL follows. */
export class EventLogWriter {
  constructor(
    private readonly file: string,
    private readonly id: string,
  ) {
    ensureDir(dirname(file));
  }

  write<E extends ContenderEventName>(
    event: E,
    session: string | null,
    znode: string | null,
    fields: ContenderEventFields[E],
    source?: ContenderEventHead['source'],
  ): void {
    // The lab's time, not the node's own wall clock, which a clock fault may fake.
    const head = { t: labNow(), id: this.id, pid: process.pid, session, znode, ...(source ? { source } : {}) };
    appendFileSync(this.file, `${JSON.stringify({ ...head, event, ...fields })}\n`);
  }
}

/** Appends one line to the lab's own event log (faults, ups and downs) for inspect and drills to read. */
export function recordLabEvent<E extends LabEventName>(paths: LabPaths, event: E, fields: LabEventFields[E]): void {
  appendLabLine(paths, event, fields);
}

/**
 * Appends a line of an event declared elsewhere (a fault kind's own, src/faults/kinds/): `schemas` holds it, and
 * the fields are what its declaration says.
 */
export function recordLabLine<S extends EventSchemas, E extends keyof S & string>(
  paths: LabPaths,
  _schemas: S,
  event: E,
  fields: FieldsOf<S>[E],
): void {
  appendLabLine(paths, event, fields);
}

function appendLabLine(paths: LabPaths, event: string, fields: object): void {
  try {
    ensureDir(dirname(paths.labEventsFile));
    appendFileSync(paths.labEventsFile, `${JSON.stringify({ t: labNow(), source: 'lab', event, ...fields })}\n`);
  } catch {
    // The event log is an aid for observers; failing to write it must not fail the command.
  }
}

/** The lines that parse as `accept` says; a line cut short by a SIGKILL mid-write, or of an unknown kind, is skipped. */
export function parseLines<T>(text: string, accept: (v: unknown) => v is T): T[] {
  const out: T[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const v: unknown = JSON.parse(line);
      if (accept(v)) out.push(v);
    } catch {
      // skipped, see above
    }
  }
  return out;
}

const readLines = <T>(file: string, accept: (v: unknown) => v is T): T[] =>
  existsSync(file) ? parseLines(readFileSync(file, 'utf8'), accept) : [];

export function readEventFile(file: string): ContenderEvent[] {
  return readLines(file, isContenderEvent);
}

/** The lab's own lines; `accept` may take more events than the lab's own (a fault kind's, src/faults/kinds/). */
export function readLabEvents(file: string): LabEvent[];
export function readLabEvents<T>(file: string, accept: (v: unknown) => v is T): T[];
export function readLabEvents(file: string, accept: (v: unknown) => boolean = isLabEvent): unknown[] {
  return readLines(file, accept as (v: unknown) => v is unknown);
}

/**
 * Everything a lab has logged so far: the event logs of the contenders in its state (of `fallbackIds` when it has
 * no state), one after the other, and its own event log.
 */
export function readLabLogs(
  paths: LabPaths,
  fallbackIds?: readonly string[],
): { contender: ContenderEvent[]; lab: LabEvent[] };
export function readLabLogs<T>(
  paths: LabPaths,
  fallbackIds: readonly string[],
  accept: (v: unknown) => v is T,
): { contender: ContenderEvent[]; lab: T[] };
export function readLabLogs(
  paths: LabPaths,
  fallbackIds: readonly string[] = [],
  accept: (v: unknown) => boolean = isLabEvent,
): { contender: ContenderEvent[]; lab: unknown[] } {
  const ids = readState(paths)?.contenders.map((c) => c.id) ?? fallbackIds;
  return {
    contender: ids.flatMap((id) => readEventFile(paths.contenderEvents(id))),
    lab: readLabEvents(paths.labEventsFile, accept as (v: unknown) => v is unknown),
  };
}
