import chalk from 'chalk';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { buildSnapshot } from '../../../src/inspect/build-snapshot.js';
import { planPanes } from '../../../src/inspect/layout.js';
import { lockResource } from '../../../src/inspect/lock-facts.js';
import {
  holderLine,
  lockLines,
  lockNote,
  queueLine,
  resourceLine,
  writesLine,
} from '../../../src/inspect/lock-lines.js';
import { renderSnapshotText } from '../../../src/inspect/render-text.js';
import type { LockHolder, LockQueueEntry, LockSummary } from '../../../src/inspect/snapshot.js';
import { InspectApp } from '../../../src/inspect/views/InspectApp.js';
import { LockPane } from '../../../src/inspect/views/LockPane.js';
import { LOCK, configured, fencedHistory, heldLock, unfencedHistory, write } from './lock-raw.js';
import { lineWith, lines, masked, plain } from './frame.js';
import { NOW, input, server } from './raw-inputs.js';

const level = chalk.level;
afterEach(() => {
  chalk.level = level;
});

/** The lock at /lock as buildSnapshot makes it: c2 holds, c4 and c1 wait. */
function lockSnapshot(
  recipe: 'predecessor' | 'herd',
  resourceEvents = recipe === 'herd' ? unfencedHistory() : fencedHistory(),
) {
  return buildSnapshot(
    input({
      path: LOCK,
      ...heldLock(recipe),
      servers: [server('zk1'), server('zk2'), server('zk3')],
      lockPaths: [LOCK],
      resourceEvents,
    }),
  );
}

const holder: LockHolder = {
  znode: 'x-n_0000000003',
  contender: 'c2',
  session: '0xa2',
  token: 0x1a2,
  since: NOW - 120,
  heldMs: 120,
  state: 'leader',
};
const entry = (contender: string, f: Partial<LockQueueEntry> = {}): LockQueueEntry => ({
  znode: `${contender}-n`,
  sequence: 1,
  contender,
  session: null,
  state: 'follower',
  waitsOn: { kind: 'children' },
  ...f,
});

describe('the lock in words', () => {
  it('notes each row: the holder and its token, what each waiter waits on', () => {
    expect(lockNote({ role: 'holder', token: 0x1a2 })).toEqual({
      text: 'holds the lock · token 0x1a2',
      color: 'green',
    });
    expect(
      lockNote({
        role: 'waiter',
        waitsOn: { kind: 'predecessor', znode: 'g-n_0000000004', owner: 'c3', state: 'follower' },
      }),
    ).toEqual({ text: 'waits on c3' });
    expect(
      lockNote({
        role: 'waiter',
        waitsOn: { kind: 'predecessor', znode: 'g-n_0000000004', owner: 'c3', state: 'expired' },
      }),
    ).toEqual({ text: 'waits on c3 (expired)', color: 'yellow' });
    expect(
      lockNote({
        role: 'waiter',
        waitsOn: { kind: 'predecessor', znode: 'g-n_0000000004', owner: null, state: 'unknown' },
      }).text,
    ).toBe('waits on g-n_0000000004');
    expect(lockNote({ role: 'waiter', waitsOn: { kind: 'children' } }).text).toBe('waits on the queue (herd)');
    expect(lockNote({ role: 'waiter', waitsOn: { kind: 'unknown' } }).text).toBe(
      'waits (not a lab contender: its watch is unknown)',
    );
  });

  it('says who holds, with which token, for how long, and when the holder cannot let go', () => {
    expect(holderLine(holder)).toEqual({ text: 'holder c2 · token 0x1a2 · for 120ms' });
    expect(holderLine({ ...holder, state: 'paused', heldMs: 4500 })).toEqual({
      text: 'holder c2 · token 0x1a2 · for 4.5s · paused, still holding it',
      color: 'yellow',
    });
    expect(holderLine({ ...holder, state: 'expired' }).text).toBe(
      'holder c2 · token 0x1a2 · for 120ms · owner gone: held until its session expires',
    );
    expect(holderLine(null).text).toBe('nobody holds the lock');
  });

  it('shows the queue in sequence order, and says when waiters watch the whole queue', () => {
    const lock = (queue: LockQueueEntry[]): LockSummary => ({
      path: LOCK,
      recipes: [],
      holder,
      queue,
      resource: lockResource(LOCK, []),
    });
    const predecessor = { kind: 'predecessor', znode: 'z', owner: null, state: 'follower' } as const;
    expect(
      queueLine(
        lock([
          entry('c2', { waitsOn: null }),
          entry('c4', { waitsOn: predecessor }),
          entry('c1', { waitsOn: predecessor }),
        ]),
      ).text,
    ).toBe('queue c2 ← c4 ← c1 (FIFO by sequence)');
    expect(queueLine(lock([entry('c2', { waitsOn: null }), entry('c4'), entry('c1')])).text).toBe(
      'queue c2 ← c4 ← c1 (FIFO by sequence; herd: every waiter watches the children)',
    );
    expect(
      queueLine(lock([entry('c2', { waitsOn: null }), entry('c4', { waitsOn: predecessor }), entry('c1')])).text,
    ).toBe('queue c2 ← c4 ← c1 (FIFO by sequence; herd: 1 of 2 waiters watch the children)');
    const many = Array.from({ length: 11 }, (_, i) => entry(`c${i + 1}`, { waitsOn: i === 0 ? null : predecessor }));
    expect(queueLine(lock(many)).text).toBe('queue c1 ← c2 ← c3 ← c4 ← c5 ← c6 ← c7 ← c8 … +3 (FIFO by sequence)');
    expect(queueLine(lock([])).text).toBe('queue empty');
  });

  it('with fencing: the last accepted token and value, the counts, and the last refused write', () => {
    const r = lockResource(LOCK, fencedHistory());
    expect(resourceLine(LOCK, r)).toEqual({
      text: 'resource /lock · fencing on · last accepted token 0x1a2 from c2 · value 57',
    });
    expect(writesLine(r)).toEqual({ text: '57 accepted, 1 refused (last: c1 token 0x19f < 0x1a2)', color: 'yellow' });
  });

  it('without fencing: a stale token accepted is shown as such, and so is the highest token it went under', () => {
    const r = lockResource(LOCK, unfencedHistory());
    expect(resourceLine(LOCK, r).text).toBe(
      'resource /lock · fencing off · last accepted token 0x20 from c1 (highest 0x28) · value 2',
    );
    expect(writesLine(r)).toEqual({
      text: '3 accepted, 0 refused · accepted stale token 0x20 from c1 < 0x28 (fencing off)',
      color: 'red',
    });
    const again = lockResource(LOCK, [
      ...unfencedHistory(),
      write({ holder: 'c3', token: 0x30, value: 3, accepted: true, lastToken: 0x28, previousValue: 2, fencing: false }),
      write({ holder: 'c2', token: 0x28, value: 3, accepted: true, lastToken: 0x30, previousValue: 3, fencing: false }),
    ]);
    expect(writesLine(again).text).toBe(
      '5 accepted, 0 refused · 2 stale tokens accepted, last 0x28 from c2 < 0x30 (fencing off)',
    );
    expect(resourceLine(LOCK, again).text).toBe(
      'resource /lock · fencing off · last accepted token 0x28 from c2 (highest 0x30) · value 3',
    );
  });

  it('before any write, and before the lab set the resource up', () => {
    const set = lockResource(LOCK, [configured(false)]);
    expect([resourceLine(LOCK, set).text, writesLine(set).text]).toEqual([
      'resource /lock · fencing off · value 0',
      'no writes yet',
    ]);
    const none = lockResource(LOCK, []);
    expect(resourceLine(LOCK, none)).toEqual({
      text: 'resource /lock · not set up yet (no resource-configured event)',
      color: 'yellow',
    });
    expect(writesLine(none).text).toBe('no writes yet');
  });

  it('makes the pane of four lines, in that order', () => {
    expect(lockLines(lockSnapshot('predecessor').lock!).map((l) => l.text)).toEqual([
      'holder c2 · token 0x1a2 · for 120ms',
      'queue c2 ← c4 ← c1 (FIFO by sequence)',
      'resource /lock · fencing on · last accepted token 0x1a2 from c2 · value 57',
      '57 accepted, 1 refused (last: c1 token 0x19f < 0x1a2)',
    ]);
  });
});

describe('the lock on screen', () => {
  it('--once: the holder marked and noted, each waiter noted, and the lock pane', () => {
    chalk.level = 0;
    const text = renderSnapshotText(lockSnapshot('predecessor'));
    expect(masked(lines(text)[0])).toBe('zklab inspect /lock · lock · holder c2 #3 · 4 znodes · --:--:--.---');
    expect(lineWith(text, '★ HOLDER')).toMatch(/#3 .*c2 pid 1002 .*holds the lock · token 0x1a2$/);
    expect(lineWith(text, 'n_0000000005')).toMatch(/c4 pid 1004 .*waits on c2$/);
    expect(lineWith(text, 'n_0000000007')).toMatch(/waits on c4$/);
    expect(text).not.toContain('"id"'); // the member data says what the row does
    expect(lineWith(text, '── lock /lock')).toMatch(/^── lock \/lock ─+$/);
    const pane = lines(text)
      .slice(lines(text).findIndex((l) => l.startsWith('── lock')) + 1)
      .slice(0, 5);
    expect(pane).toEqual([
      'holder c2 · token 0x1a2 · for 120ms',
      'queue c2 ← c4 ← c1 (FIFO by sequence)',
      'resource /lock · fencing on · last accepted token 0x1a2 from c2 · value 57',
      '57 accepted, 1 refused (last: c1 token 0x19f < 0x1a2)',
      `── watches ${'─'.repeat(100 - '── watches '.length)}`,
    ]);
  });

  it('--once with the herd recipe and no fencing', () => {
    chalk.level = 0;
    const text = renderSnapshotText(lockSnapshot('herd'));
    expect(lineWith(text, 'n_0000000005')).toMatch(/waits on the queue \(herd\)$/);
    expect(text).toContain('queue c2 ← c4 ← c1 (FIFO by sequence; herd: every waiter watches the children)');
    expect(text).toContain('3 accepted, 0 refused · accepted stale token 0x20 from c1 < 0x28 (fencing off)');
  });

  it('says "no writes yet" before the first hold ends', () => {
    chalk.level = 0;
    expect(renderSnapshotText(lockSnapshot('predecessor', [configured(true)]))).toContain(
      'resource /lock · fencing on · value 0\nno writes yet\n',
    );
  });

  it('the live view shows the pane, and caps it', () => {
    const frame = render(<InspectApp snapshot={lockSnapshot('predecessor')} width={100} height={30} />).lastFrame();
    expect(lineWith(frame, '── lock /lock')).toMatch(/^── /);
    expect(lineWith(frame, 'holder c2 · token')).toBe('holder c2 · token 0x1a2 · for 120ms');
    expect(lines(frame)[0]).toContain('holder c2 #3');
    const capped = plain(
      render(<LockPane summary={lockSnapshot('predecessor').lock!} width={100} maxLines={3} />).lastFrame(),
    );
    expect(capped.split('\n')).toEqual([
      'holder c2 · token 0x1a2 · for 120ms',
      'queue c2 ← c4 ← c1 (FIFO by sequence)',
      '… 2 more',
    ]);
  });

  it('gets a pane of its own, which gives way to the tree last', () => {
    const demand = { treeRows: 40, problems: 0, watchLines: 1, ensembleLines: 3, events: 20 };
    expect(planPanes(120, 40, demand).lock).toBe(0);
    expect(planPanes(120, 40, { ...demand, lockLines: 4 })).toMatchObject({ lock: 4, watch: 1, ensemble: 3 });
    expect(planPanes(120, 16, { ...demand, lockLines: 4 })).toMatchObject({
      lock: 4,
      watch: 0,
      ensemble: 3,
      events: 0,
      tree: 5,
    });
    expect(planPanes(120, 15, { ...demand, lockLines: 4 })).toMatchObject({
      lock: 4,
      watch: 0,
      ensemble: 0,
      events: 0,
      tree: 8,
    });
    expect(planPanes(120, 40, { ...demand, lockLines: 30 }).lock).toBe(4);
  });
});
