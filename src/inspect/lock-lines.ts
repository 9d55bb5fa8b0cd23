import { formatDuration } from '../duration.js';
import { formatToken } from '../lab/fenced-resource.js';
import type {
  LockHolder,
  LockNodeFacts,
  LockQueueEntry,
  LockResource,
  LockSummary,
  LockWait,
  LockWrite,
  NodeState,
} from './snapshot.js';

/** The lock workload in words: a note per tree row and the lines of the summary pane. Pure. */

export interface LockLine {
  readonly text: string;
  readonly color?: string;
}

/** How many queue members the queue line names. */
export const QUEUE_NAMED = 8;

function label(q: Pick<LockQueueEntry, 'contender' | 'session' | 'znode'>): string {
  return q.contender ?? q.session ?? q.znode;
}

/** How a waiter waits: "waits on c3", "waits on c3 (expired)", "waits on the queue (herd)". */
export function waitLine(w: LockWait): LockLine {
  switch (w.kind) {
    case 'children':
      return { text: 'waits on the queue (herd)' };
    case 'unknown':
      return { text: 'waits (not a lab contender: its watch is unknown)' };
    case 'predecessor': {
      const who = w.owner ?? w.znode;
      if (w.state === 'expired' || w.state === 'paused')
        return { text: `waits on ${who} (${w.state})`, color: 'yellow' };
      return { text: `waits on ${who}` };
    }
  }
}

/** What a row of the tree says about its znode's part in the lock. */
export function lockNote(f: LockNodeFacts): LockLine {
  return f.role === 'holder'
    ? { text: `holds the lock · token ${formatToken(f.token)}`, color: 'green' }
    : waitLine(f.waitsOn);
}

function holderState(state: NodeState): LockLine | null {
  switch (state) {
    case 'paused':
      return { text: 'paused, still holding it', color: 'yellow' };
    case 'expired':
      return { text: 'owner gone: held until its session expires', color: 'red' };
    case 'foreign':
      return { text: 'not a lab contender', color: 'magenta' };
    default:
      return null;
  }
}

/** "holder c2 · token 0x1a2 · for 120ms", or "nobody holds the lock". */
export function holderLine(h: LockHolder | null): LockLine {
  if (!h) return { text: 'nobody holds the lock' };
  const state = holderState(h.state);
  const held = h.heldMs === null ? '' : ` · for ${formatDuration(h.heldMs)}`;
  const text = `holder ${h.contender ?? h.session ?? h.znode} · token ${formatToken(h.token)}${held}`;
  return state ? { text: `${text} · ${state.text}`, color: state.color } : { text };
}

/** "queue c2 ← c4 ← c1 (FIFO by sequence)": each waits behind the one on its left. */
export function queueLine(lock: LockSummary): LockLine {
  if (lock.queue.length === 0) return { text: 'queue empty' };
  const named = lock.queue.slice(0, QUEUE_NAMED).map(label);
  const more = lock.queue.length - named.length;
  const waiters = lock.queue.filter((q) => q.waitsOn !== null).length;
  const herd = lock.queue.filter((q) => q.waitsOn?.kind === 'children').length;
  const how =
    herd === 0
      ? ''
      : herd === waiters
        ? '; herd: every waiter watches the children'
        : `; herd: ${herd} of ${waiters} waiters watch the children`;
  return { text: `queue ${named.join(' ← ')}${more > 0 ? ` … +${more}` : ''} (FIFO by sequence${how})` };
}

function writeText(w: LockWrite): string {
  return `${w.holder} token ${formatToken(w.token)} < ${formatToken(w.lastToken)}`;
}

/** "resource /lock · fencing on · last accepted token 0x1a2 from c2 · value 57". */
export function resourceLine(path: string, r: LockResource): LockLine {
  if (!r.state) return { text: `resource ${path} · not set up yet (no resource-configured event)`, color: 'yellow' };
  const head = `resource ${path} · fencing ${r.state.fencing ? 'on' : 'off'}`;
  if (!r.lastAccepted) return { text: `${head} · value ${r.state.value}` };
  // Without fencing the last accepted write may be a stale one: the highest token is then someone else's.
  const highest = r.lastAccepted.token < r.state.token ? ` (highest ${formatToken(r.state.token)})` : '';
  return {
    text:
      `${head} · last accepted token ${formatToken(r.lastAccepted.token)} from ${r.lastAccepted.holder}${highest}` +
      ` · value ${r.state.value}`,
  };
}

/** "57 accepted, 1 refused (last: c1 token 0x19f < 0x1a2)", "no writes yet". */
export function writesLine(r: LockResource): LockLine {
  if (!r.state || r.state.accepted + r.state.rejected === 0) return { text: 'no writes yet' };
  const refused = `${r.state.rejected} refused${r.lastRefused ? ` (last: ${writeText(r.lastRefused)})` : ''}`;
  const counts = `${r.state.accepted} accepted, ${refused}`;
  if (r.lastStale) {
    // Only a resource without fencing takes a stale token, so the write was one of those whatever fencing is now.
    const w = r.lastStale;
    const which = `${formatToken(w.token)} from ${w.holder} < ${formatToken(w.lastToken)}`;
    const stale =
      r.staleAccepted === 1
        ? `accepted stale token ${which}`
        : `${r.staleAccepted} stale tokens accepted, last ${which}`;
    return { text: `${counts} · ${stale} (fencing off)`, color: 'red' };
  }
  return r.lastRefused ? { text: counts, color: 'yellow' } : { text: counts };
}

/** The pane: the holder, the queue, the resource and its writes. */
export function lockLines(lock: LockSummary): LockLine[] {
  return [holderLine(lock.holder), queueLine(lock), resourceLine(lock.path, lock.resource), writesLine(lock.resource)];
}
