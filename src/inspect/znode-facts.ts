import { decodeStatusData, type StatusData } from '../recipes/scheduler-layout.js';
import { basename, parentPath } from '../zk/paths.js';
import { normalizeSessionId } from '../zk/session-id.js';
import type { ZnodeTtl } from './snapshot.js';
import type { RawZnode } from './snapshot-input.js';

/**
 * The owner session of an ephemeral znode (normalized hex), or null. A server hands every client ephemeralOwner 0
 * for persistent, TTL and container znodes alike (it keeps their type to itself), so null says "no session owns
 * it" and nothing about which of the three it is.
 */
export function ownerSession(ephemeralOwner: string): string | null {
  const hex = normalizeSessionId(ephemeralOwner);
  return hex === '0' || hex === '' ? null : hex;
}

/**
 * A scheduler worker's status of the job this znode is named after, when it sits in a `status` folder; null for
 * any other znode, whatever its data.
 */
export function statusOf(z: RawZnode): StatusData | null {
  if (basename(parentPath(z.path)) !== 'status') return null;
  const status = decodeStatusData(z.data);
  return status && status.job === basename(z.path) ? status : null;
}

/** ZooKeeper reaps a TTL znode that has gone unmodified (and childless) for its TTL, on its next reaper run. */
export function ttlFromStatus(z: RawZnode, status: StatusData | null, now: number): ZnodeTtl | null {
  if (!status || status.ttlMs <= 0) return null;
  return { ms: status.ttlMs, remainingMs: (z.stat.mtime ?? z.stat.ctime) + status.ttlMs - now, source: 'status-data' };
}

/** Session ids as ZooKeeper prints them. */
export function sessionLabel(hex: string): string {
  return `0x${normalizeSessionId(hex)}`;
}

/** Data shown in a row: printable, one line, at most max characters. */
export function shortData(data: string, max = 24): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  const flat = data.replace(/[\u0000-\u001f\u007f]/g, '·');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
