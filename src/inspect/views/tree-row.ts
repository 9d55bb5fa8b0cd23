import { formatDuration } from '../../duration.js';
import { formatTtl } from '../format.js';
import { cell, truncateMiddle } from '../../text.js';
import { lockNote } from '../lock-lines.js';
import { noteReplacesData, schedulerNote } from '../scheduler-lines.js';
import type { NodeState, SnapshotNode } from '../snapshot.js';

/** A styled run of text; a row is a few of them. Kept apart from Ink so the columns are plain data. */
export interface Segment {
  readonly text: string;
  readonly color?: string;
  readonly bold?: boolean;
  readonly dim?: boolean;
}

export interface TreeColumns {
  readonly name: number;
  readonly session: boolean;
  readonly pid: boolean;
}

export const LEADER_MARK = '★ LEADER';
/** A lock's leading znode is its holder's. */
export const HOLDER_MARK = '★ HOLDER';

const SEQ = 8;
const SESSION = 19;
const STATE = 10;
const AGE = 8;
const MARKER = 2;

/**
 * Which columns fit: the session goes first, then the pid; names get what is left (12–48). A scheduler's or a lock's
 * rows say what they are after the age (a job's attempt, a status and its TTL; who holds, who waits on whom), so
 * there names give way to that note, and the session waits for a wide terminal.
 */
export function treeColumns(width: number, notes = false): TreeColumns {
  const session = width >= (notes ? 150 : 90);
  const pid = width >= 70;
  const who = pid ? 16 : 9;
  const fixed = MARKER + SEQ + (session ? SESSION : 0) + who + STATE + AGE;
  const name = notes ? Math.min(36, Math.max(12, width - fixed - 36)) : Math.min(48, Math.max(12, width - fixed - 12));
  return { name, session, pid };
}

export function stateColor(state: NodeState): string | undefined {
  switch (state) {
    case 'leader':
    case 'alive':
      return 'green';
    case 'paused':
      return 'yellow';
    case 'expired':
      return 'red';
    case 'foreign':
      return 'magenta';
    default:
      return undefined;
  }
}

/**
 * The owner session; without one, what ZooKeeper tells a client is only that no session owns the znode: it hands
 * every client ephemeralOwner 0 for a persistent, a TTL and a container znode alike. So only a TTL the lab wrote
 * into the data itself is named.
 */
function ownerText(n: SnapshotNode): Segment {
  if (n.sessionId) return { text: n.sessionId };
  return { text: n.ttl ? 'ttl (status data)' : 'no session owns', dim: true };
}

function whoText(n: SnapshotNode, withPid: boolean): Segment {
  if (n.contender) return { text: withPid && n.pid !== null ? `${n.contender} pid ${n.pid}` : n.contender, bold: true };
  return n.ephemeral ? { text: 'foreign', color: 'magenta' } : { text: '' };
}

function stateText(n: SnapshotNode): Segment {
  if (n.leader) return { text: n.lock ? HOLDER_MARK : LEADER_MARK, color: 'green', bold: true };
  return { text: n.state === 'unknown' ? '' : n.state, color: stateColor(n.state) };
}

/**
 * One tree row: connector and name, sequence, owner session, contender and pid, state, age, TTL, scheduler or lock
 * note, data. A lock member's data is the {id, pid, recipe} the row already shows, so its note takes its place.
 */
export function treeRowSegments(n: SnapshotNode, prefix: string, cols: TreeColumns): Segment[] {
  const nameRoom = Math.max(6, cols.name - prefix.length);
  const who = whoText(n, cols.pid);
  const owner = ownerText(n);
  const state = stateText(n);
  const out: Segment[] = [
    { text: prefix, dim: true },
    {
      text: `${cell(truncateMiddle(n.name, nameRoom), nameRoom)} `,
      bold: n.leader,
      color: n.leader ? 'green' : undefined,
    },
    { text: `${cell(n.sequence === null ? '' : `#${n.sequence}`, SEQ - 1)} `, dim: true },
  ];
  if (cols.session) out.push({ ...owner, text: `${cell(owner.text, SESSION - 1)} ` });
  out.push({ ...who, text: `${cell(who.text, (cols.pid ? 16 : 9) - 1)} ` });
  out.push({ ...state, text: `${cell(state.text, STATE - 1)} ` });
  out.push({ text: `${cell(formatDuration(n.ageMs, 1), AGE - 1)} `, dim: true });
  if (n.ttl) out.push({ text: `${formatTtl(n.ttl.remainingMs)} `, color: n.ttl.remainingMs <= 0 ? 'red' : 'cyan' });
  const note = n.scheduler ? schedulerNote(n.scheduler) : n.lock ? lockNote(n.lock) : null;
  const data = n.data && !(n.scheduler && noteReplacesData(n.scheduler)) && !n.lock;
  if (note) out.push({ text: data ? `${note.text} ` : note.text, color: note.color });
  if (data) out.push({ text: `"${n.data}"`, color: 'cyan' });
  return out;
}
