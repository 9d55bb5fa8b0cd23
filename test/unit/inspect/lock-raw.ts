import type { LabEventOf } from '../../../src/lab/events.js';
import type { RawZnode, SnapshotInput } from '../../../src/inspect/snapshot-input.js';
import { NOW, contender, znode } from './raw-inputs.js';

/** Raw facts of the lock workload at /lock, hand-written (the tests do not lean on the daemon's fold to make them). */

export const LOCK = '/lock';

/** A lock znode as the election recipes name it: `<guid>-n_<10-digit seq>`, with the member data they write. */
export function lockZnode(
  seq: number,
  f: { owner: string; id?: string; recipe?: string; czxid: number; ctime?: number },
): RawZnode {
  const name = `${(0x5e0000 + seq * 31).toString(16)}-9f3d-4b8a-2a6b5c4d3e2f-n_${String(seq).padStart(10, '0')}`;
  const data = f.id
    ? JSON.stringify({ id: f.id, pid: 1000 + Number(f.id.slice(1)), recipe: f.recipe ?? 'predecessor' })
    : '';
  return znode(`${LOCK}/${name}`, { owner: f.owner, czxid: f.czxid, ctime: f.ctime, data });
}

export function configured(fencing: boolean, t = NOW - 60_000, resource = LOCK): LabEventOf<'resource-configured'> {
  return { t, source: 'lab', event: 'resource-configured', resource, fencing };
}

export function write(
  f: {
    holder: string;
    token: number;
    value: number;
    accepted: boolean;
    lastToken: number;
    previousValue: number;
    fencing: boolean;
  },
  t = NOW - 1000,
  resource = LOCK,
): LabEventOf<'resource-write'> {
  return { t, source: 'lab', event: 'resource-write', resource, ...f };
}

/**
 * Fencing on: 56 holds by c1..c4 (tokens 0x101…, values 1…56), then c2's hold with token 0x1a2 (value 57), then c1's
 * late write with its old token 0x19f, refused.
 */
export function fencedHistory(): LabEventOf<'resource-configured' | 'resource-write'>[] {
  const out: LabEventOf<'resource-configured' | 'resource-write'>[] = [configured(true)];
  for (let i = 1; i <= 56; i++) {
    out.push(
      write(
        {
          holder: `c${(i % 4) + 1}`,
          token: 0x100 + i,
          value: i,
          accepted: true,
          lastToken: i === 1 ? 0 : 0x100 + i - 1,
          previousValue: i - 1,
          fencing: true,
        },
        NOW - 50_000 + i * 100,
      ),
    );
  }
  out.push(
    write(
      { holder: 'c2', token: 0x1a2, value: 57, accepted: true, lastToken: 0x138, previousValue: 56, fencing: true },
      NOW - 2000,
    ),
  );
  out.push(
    write(
      { holder: 'c1', token: 0x19f, value: 57, accepted: false, lastToken: 0x1a2, previousValue: 57, fencing: true },
      NOW - 1000,
    ),
  );
  return out;
}

/** Fencing off: c1 (0x20) then c2 (0x28) write; then c1, woken from a freeze, writes with 0x20 again and is accepted. */
export function unfencedHistory(): LabEventOf<'resource-configured' | 'resource-write'>[] {
  return [
    configured(false),
    write(
      { holder: 'c1', token: 0x20, value: 1, accepted: true, lastToken: 0, previousValue: 0, fencing: false },
      NOW - 3000,
    ),
    write(
      { holder: 'c2', token: 0x28, value: 2, accepted: true, lastToken: 0x20, previousValue: 1, fencing: false },
      NOW - 2000,
    ),
    write(
      { holder: 'c1', token: 0x20, value: 2, accepted: true, lastToken: 0x28, previousValue: 2, fencing: false },
      NOW - 1000,
    ),
  ];
}

/** The lock both inspect test files use: c2 holds (#3, czxid 0x1a2, for 120 ms); c4 (#5) and c1 (#7) wait, all on one recipe. */
export function heldLock(recipe: 'predecessor' | 'herd'): Pick<SnapshotInput, 'znodes' | 'contenders'> {
  return {
    znodes: [
      znode(LOCK),
      // Queued 1.26s ago, holding for the last 120ms (its lock-acquired line).
      lockZnode(3, { owner: 'a2', id: 'c2', recipe, czxid: 0x1a2, ctime: NOW - 1260 }),
      lockZnode(5, { owner: 'a4', id: 'c4', recipe, czxid: 0x1a5 }),
      lockZnode(7, { owner: 'a1', id: 'c1', recipe, czxid: 0x1a9 }),
    ],
    contenders: [
      contender('c1', 'a1', { recipe }),
      contender('c2', 'a2', { recipe, state: 'leader', acquired: [{ token: 0x1a2, t: NOW - 120 }] }),
      contender('c4', 'a4', { recipe }),
    ],
  };
}
