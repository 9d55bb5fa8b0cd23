import { isContenderEventName, type ContenderEventName } from '../lab/events.js';
import { normalizeSessionId } from '../zk/session-id.js';

/**
 * What a program run as a contender says about itself: stdout lines `ZKLAB {"event":"leader","token":42}`. They are
 * its beliefs, recorded in its event log beside what ZooKeeper says; never instructions (nothing in them is run).
 */
export const BELIEF_PREFIX = 'ZKLAB ';

/** Events only the lab writes: the supervisor (started, exited) and the link daemon (session). */
const LAB_ONLY: ReadonlySet<ContenderEventName> = new Set(['started', 'exited', 'session', 'probed']);
/** Keys of an event line's head, which the supervisor sets itself. */
const HEAD_KEYS = new Set(['t', 'id', 'pid', 'event', 'session', 'znode', 'source']);

export type BeliefLine =
  | { readonly kind: 'text' }
  | { readonly kind: 'invalid'; readonly reason: string }
  | {
      readonly kind: 'event';
      readonly event: ContenderEventName;
      readonly fields: Readonly<Record<string, unknown>>;
      /** The session the program names (normalized hex), when it names one. */
      readonly session?: string;
      readonly znode?: string;
      /** What the line gave that was not taken, each said for the contender's log: `token "abc" is not a number`. */
      readonly ignored?: readonly string[];
    };

const TOKEN_EVENTS: ReadonlySet<string> = new Set(['leader', 'act', 'resigned']);

/**
 * The type of every field the lab's readers use, so that a program's line can never hand them something else: a
 * field of another type is dropped (the readers treat it as absent). Fields not listed are kept as they are.
 */
const FIELD_TYPES: Readonly<Record<string, 'string' | 'boolean' | 'number'>> = {
  path: 'string',
  kind: 'string',
  type: 'string',
  state: 'string',
  reason: 'string',
  op: 'string',
  message: 'string',
  predecessor: 'string',
  watching: 'string',
  elected: 'string',
  waitingFor: 'string',
  candidate: 'string',
  policy: 'string',
  previous: 'string',
  from: 'string',
  wasLeader: 'boolean',
  wasTakingOver: 'boolean',
  exhausted: 'boolean',
  timeoutMs: 'number',
  gapMs: 'number',
  attempt: 'number',
  delayMs: 'number',
  afterMs: 'number',
};
/** Events the readers cannot use without these fields. */
const REQUIRED: Partial<Record<ContenderEventName, readonly string[]>> = {
  watching: ['path', 'kind'],
  notified: ['path', 'type'],
  state: ['state'],
};

/** Reads one stdout line. Not a ZKLAB line: text; a ZKLAB line that cannot be an event: invalid, with why. */
export function parseBeliefLine(line: string): BeliefLine {
  if (!line.startsWith(BELIEF_PREFIX)) return { kind: 'text' };
  let v: unknown;
  try {
    v = JSON.parse(line.slice(BELIEF_PREFIX.length));
  } catch {
    return { kind: 'invalid', reason: 'not JSON after "ZKLAB "' };
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return { kind: 'invalid', reason: 'not a JSON object' };
  const o = v as Record<string, unknown>;
  const event = o.event;
  if (typeof event !== 'string' || !isContenderEventName(event))
    return { kind: 'invalid', reason: `unknown event ${JSON.stringify(event)}` };
  if (LAB_ONLY.has(event)) return { kind: 'invalid', reason: `"${event}" is written by the lab, not by a program` };
  const fields: Record<string, unknown> = {};
  const ignored: string[] = [];
  for (const [k, x] of Object.entries(o)) {
    if (HEAD_KEYS.has(k) || k === '__proto__') continue;
    const want = Object.hasOwn(FIELD_TYPES, k) ? FIELD_TYPES[k] : undefined;
    if (want === undefined || typeof x === want) fields[k] = x;
    else ignored.push(`${k} ${JSON.stringify(x)} is not a ${want}`);
  }
  const missing = (REQUIRED[event] ?? []).filter((k) => fields[k] === undefined);
  if (missing.length > 0) return { kind: 'invalid', reason: `"${event}" needs ${missing.join(' and ')}` };
  // A fencing token is a number or nothing; anything else would poison the checkers' comparisons.
  if (TOKEN_EVENTS.has(event)) {
    const token = fields.token;
    const number = typeof token === 'number' && Number.isFinite(token);
    if (token !== undefined && token !== null && !number)
      ignored.push(`token ${JSON.stringify(token)} is not a number`);
    fields.token = number ? token : null;
  }
  const session =
    typeof o.session === 'string' && /^(0x)?[0-9a-fA-F]{1,16}$/.test(o.session)
      ? normalizeSessionId(o.session)
      : undefined;
  const znode = typeof o.znode === 'string' && o.znode.startsWith('/') ? o.znode : undefined;
  return {
    kind: 'event',
    event,
    fields,
    ...(session === undefined ? {} : { session }),
    ...(znode === undefined ? {} : { znode }),
    ...(ignored.length === 0 ? {} : { ignored }),
  };
}

/** The contender log's line for what an event line gave and zklab did not take; undefined when it took everything. */
export function ignoredNote(b: BeliefLine, line: string): string | undefined {
  if (b.kind !== 'event' || b.ignored === undefined) return undefined;
  const [it, was] = b.ignored.length === 1 ? ['it', 'it was'] : ['them', 'they were'];
  return `zklab: ${b.ignored.join('; ')}, so ${was} ignored; the ${b.event} event is recorded without ${it}: ${line}`;
}
