import { describe, expect, it } from 'vitest';
import { formatDuration } from '../../../src/duration.js';
import { formatClock, formatTtl } from '../../../src/inspect/format.js';
import { truncateMiddle, wrapWords } from '../../../src/text.js';
import { toSnapshotEvent } from '../../../src/inspect/snapshot-events.js';
import { fitSegments } from '../../../src/inspect/views/SegmentLine.js';
import { treePrefixes, visibleWindow } from '../../../src/inspect/tree-rows.js';
import { ownerSession } from '../../../src/inspect/znode-facts.js';

describe('znode facts', () => {
  it('takes a nonzero ephemeralOwner as the owner session, and 0 as no owner, never as a type', () => {
    expect(ownerSession('0')).toBeNull();
    expect(ownerSession('0x0')).toBeNull();
    expect(ownerSession('0x0000100a3f2c0001')).toBe('100a3f2c0001');
    // The server's TTL and container markers never reach a client (it reports 0 for both); a value that looks like
    // one is not decoded into a type.
    expect(ownerSession('FF000000000003E8')).toBe('ff000000000003e8');
    expect(ownerSession('8000000000000000')).toBe('8000000000000000');
  });
});

describe('format', () => {
  it('formats clock times with milliseconds', () => {
    expect(formatClock(new Date(2025, 0, 2, 3, 4, 5, 6).getTime())).toBe('03:04:05.006');
  });

  it('formats ages at a useful precision', () => {
    expect([0, 850, 3249, 59_999, 65_000, 7_380_000].map((ms) => formatDuration(ms, 1))).toEqual([
      '0ms',
      '850ms',
      '3.2s',
      '59.9s',
      '1m05s',
      '2h03m',
    ]);
    expect([null, 4200, 0, -5].map(formatTtl)).toEqual(['', 'ttl 4.2s', 'ttl due', 'ttl due']);
  });

  it('keeps both ends of a long name', () => {
    expect(truncateMiddle('7c1e0000-aaaa-n_0000000003', 18)).toBe('7c1e…-n_0000000003');
    expect(truncateMiddle('short', 18)).toBe('short');
    expect(truncateMiddle('abcdef', 3)).toHaveLength(3);
  });
});

describe('tree rows', () => {
  it('draws connectors from depths', () => {
    // /e, a, a/x, a/y, b, b/z
    expect(treePrefixes([0, 1, 2, 2, 1, 2])).toEqual(['', '├─ ', '│  ├─ ', '│  └─ ', '└─ ', '   └─ ']);
  });

  it('windows the rows around the selection, clamped to the ends', () => {
    expect(visibleWindow(10, 3, 20)).toEqual({ start: 0, end: 10 });
    expect(visibleWindow(500, 0, 10)).toEqual({ start: 0, end: 10 });
    expect(visibleWindow(500, 250, 10)).toEqual({ start: 245, end: 255 });
    expect(visibleWindow(500, 499, 10)).toEqual({ start: 490, end: 500 });
    expect(visibleWindow(500, 9999, 10)).toEqual({ start: 490, end: 500 });
    expect(visibleWindow(500, null, 0)).toEqual({ start: 0, end: 0 });
  });
});

describe('toSnapshotEvent', () => {
  it('keeps the fields that are news, and shortens long znode paths', () => {
    const znode = '/election/7c1e0000-4b8a-9f3d-n_0000000003';
    expect(toSnapshotEvent({ t: 1, id: 'c3', pid: 9, session: 'a3', znode, event: 'joined' as const }).detail).toBe(
      'znode=7c1e0000-4b8a-9f3d-n_0000000003',
    );
    expect(
      toSnapshotEvent({ t: 1, id: 'c3', pid: 9, session: 'a3', znode, event: 'connected' as const, timeoutMs: 2000 })
        .detail,
    ).toBe('session=0xa3 timeoutMs=2000');
    expect(
      toSnapshotEvent({
        t: 1,
        id: 'c3',
        pid: 9,
        session: 'a3',
        znode,
        event: 'watching' as const,
        path: '/election',
        kind: 'children' as const,
      }).detail,
    ).toBe('path=/election kind=children');
  });
});

describe('fitSegments', () => {
  const text = (w: number) =>
    fitSegments([{ text: 'abc ' }, { text: 'def ', bold: true }, { text: '   ' }], w)
      .map((s) => s.text)
      .join('');

  it('cuts the runs to the width, marking the cut', () => {
    expect(text(20)).toBe('abc def    ');
    expect(text(6)).toBe('abc d…');
    expect(text(4)).toBe('abc…');
    expect(text(0)).toBe('');
  });

  it('does not mark a cut when only blank runs were left out', () => {
    expect(text(8)).toBe('abc def ');
  });
});

describe('wrapWords', () => {
  it('breaks prose at word boundaries within the width, indenting what follows', () => {
    const text = 'the demo cleans its lab up; to look closer, do it by hand: zklab ensemble up, zklab inspect';
    const lines = wrapWords(text, 40, '  ').split('\n');
    expect(lines.every((l) => l.length <= 40)).toBe(true);
    expect(lines.join(' ').replace(/ {2,}/g, ' ')).toBe(text);
    expect(lines.slice(1).every((l) => l.startsWith('  '))).toBe(true);
    expect(wrapWords('short', 40)).toBe('short');
    expect(wrapWords('a-word-longer-than-the-line stays', 10)).toBe('a-word-longer-than-the-line\nstays');
  });
});
