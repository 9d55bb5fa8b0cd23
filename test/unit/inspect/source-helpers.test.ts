import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { FileTail } from '../../../src/inspect/source/file-tail.js';
import { withoutObserver } from '../../../src/inspect/source/hide-observer.js';
import { partitionsOf } from '../../../src/inspect/source/link-state-reader.js';
import { serversOf } from '../../../src/inspect/target.js';
import type { LinkInfo } from '../../../src/net/protocol.js';
import { server } from './raw-inputs.js';

describe('withoutObserver', () => {
  it('takes the observer session out of wchp, wchc and the watch count of the server it is on', () => {
    const mine = server('zk1', {
      mntr: new Map([['zk_watch_count', 7]]),
      wchp: new Map([
        ['/election', ['abc']],
        ['/election/n_1', ['c2', 'abc']],
      ]),
      wchc: new Map([
        ['abc', ['/election', '/election/n_1']],
        ['c2', ['/election/n_1']],
      ]),
    });
    const other = server('zk2', { mntr: new Map([['zk_watch_count', 3]]), wchp: new Map([['/election/n_2', ['c3']]]) });
    const [a, b] = withoutObserver([mine, other], '0xabc', { data: 2, child: 3 });
    expect([...a!.wchp!]).toEqual([['/election/n_1', ['c2']]]);
    expect([...a!.wchc!]).toEqual([['c2', ['/election/n_1']]]);
    // 7 watches, of which the observer holds 2 data and 3 child watches.
    expect(a!.mntr!.get('zk_watch_count')).toBe(2);
    expect(b).toBe(other);
    expect(withoutObserver([mine], null, { data: 0, child: 0 })[0]).toBe(mine);
  });
});

describe('FileTail', () => {
  it('returns complete lines as they are appended, and starts over when the file is replaced by a shorter one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'zklab-tail-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'c1.jsonl');
    const tail = new FileTail(file);
    expect(tail.read()).toEqual({ lines: [], reset: false });
    writeFileSync(file, '{"a":1}\n{"b":');
    expect(tail.read()).toEqual({ lines: ['{"a":1}'], reset: false });
    appendFileSync(file, '2}\n');
    expect(tail.read()).toEqual({ lines: ['{"b":2}'], reset: false });
    expect(tail.read().lines).toEqual([]);
    writeFileSync(file, '{"c":3}\n');
    expect(tail.read()).toEqual({ lines: ['{"c":3}'], reset: true });
  });
});

describe('partitionsOf and serversOf', () => {
  it('one entry per faulted direction and kind of fault, whatever the link kinds', () => {
    const link = (from: string, to: string, kind: LinkInfo['kind'], mode: LinkInfo['fault']['mode'], delayMs = 0) =>
      ({
        id: `${kind}:${from}->${to}`,
        from,
        to,
        kind,
        listenPort: 0,
        port: 1,
        targetHost: '127.0.0.1',
        targetPort: 2,
        fault: { mode, delayMs, jitterMs: 0 },
        stats: {},
      }) as unknown as LinkInfo;
    expect(
      partitionsOf([
        link('zk1', 'zk2', 'quorum', 'blackhole'),
        link('zk1', 'zk2', 'election', 'blackhole'),
        link('c1', 'zk1', 'client', 'reject'),
        link('c2', 'zk1', 'client', 'pass', 200),
        link('c3', 'zk1', 'client', 'pass'),
      ]),
    ).toEqual([
      { from: 'zk1', to: 'zk2', fault: 'partition' },
      { from: 'c1', to: 'zk1', fault: 'reject' },
      { from: 'c2', to: 'zk1', fault: 'delay', delayMs: 200 },
    ]);
  });

  it('names --connect servers by port on one host, else by host:port', () => {
    expect(serversOf('127.0.0.1:2181,127.0.0.1:2182').map((s) => s.name)).toEqual(['2181', '2182']);
    expect(serversOf('a:2181,b:2181')).toEqual([
      { host: 'a', port: 2181, name: 'a:2181' },
      { host: 'b', port: 2181, name: 'b:2181' },
    ]);
  });
});
