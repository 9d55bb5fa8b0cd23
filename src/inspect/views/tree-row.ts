import { formatDuration } from '../../duration.js';
import { cell, formatTtl, truncateMiddle } from '../format.js';
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

const SEQ = 8;
const SESSION = 19;
const STATE = 10;
const AGE = 8;
const MARKER = 2;

/** Which columns fit: the session goes first, then the pid; names get what is left (12–48). */
export function treeColumns(width: number): TreeColumns {
  const session = width >= 90;
  const pid = width >= 70;
  const who = pid ? 16 : 9;
  const fixed = MARKER + SEQ + (session ? SESSION : 0) + who + STATE + AGE;
  // Leave room after the age for a TTL or data column.
  const name = Math.min(48, Math.max(12, width - fixed - 12));
  return { name, session, pid };
}

export function stateColor(state: NodeState): string | undefined {
  switch (state) {
    case 'leader':
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

function ownerText(n: SnapshotNode): Segment {
  if (n.sessionId) return { text: n.sessionId };
  return { text: n.ttlRemainingMs !== null ? 'ttl node' : 'persistent', dim: true };
}

function whoText(n: SnapshotNode, withPid: boolean): Segment {
  if (n.contender) return { text: withPid && n.pid !== null ? `${n.contender} pid ${n.pid}` : n.contender, bold: true };
  return n.ephemeral ? { text: 'foreign', color: 'magenta' } : { text: '' };
}

function stateText(n: SnapshotNode): Segment {
  if (n.leader) return { text: LEADER_MARK, color: 'green', bold: true };
  return { text: n.state === 'unknown' ? '' : n.state, color: stateColor(n.state) };
}

/** One tree row: connector and name, sequence, owner session, contender and pid, state, age, TTL, data. */
export function treeRowSegments(n: SnapshotNode, prefix: string, cols: TreeColumns): Segment[] {
  const nameRoom = Math.max(6, cols.name - prefix.length);
  const who = whoText(n, cols.pid);
  const owner = ownerText(n);
  const state = stateText(n);
  const out: Segment[] = [
    { text: prefix, dim: true },
    { text: cell(truncateMiddle(n.name, nameRoom), nameRoom) + ' ', bold: n.leader, color: n.leader ? 'green' : undefined },
    { text: cell(n.sequence === null ? '' : `#${n.sequence}`, SEQ - 1) + ' ', dim: true },
  ];
  if (cols.session) out.push({ ...owner, text: cell(owner.text, SESSION - 1) + ' ' });
  out.push({ ...who, text: cell(who.text, (cols.pid ? 16 : 9) - 1) + ' ' });
  out.push({ ...state, text: cell(state.text, STATE - 1) + ' ' });
  out.push({ text: cell(formatDuration(n.ageMs, 1), AGE - 1) + ' ', dim: true });
  const ttl = formatTtl(n.ttlRemainingMs);
  if (ttl) out.push({ text: `${ttl} `, color: n.ttlRemainingMs !== null && n.ttlRemainingMs <= 0 ? 'red' : 'cyan' });
  if (n.data) out.push({ text: `"${n.data}"`, color: 'cyan' });
  return out;
}
