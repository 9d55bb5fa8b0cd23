import { describe, expect, it } from 'vitest';
import {
  applyWrite,
  emptyResource,
  formatToken,
  isResourceName,
  replayResources,
  type ResourceState,
  type ResourceWrite,
} from '../../../src/lab/fenced-resource.js';
import type { LabEvent } from '../../../src/lab/events.js';
import { labEvent } from '../../helpers/events.js';

const w = (holder: string, token: number, value: number): ResourceWrite => ({ holder, token, value });

/** Applies writes in order to a fresh register; the outcomes' accepted flags and the final state. */
function run(fencing: boolean, writes: readonly ResourceWrite[]): { accepted: boolean[]; state: ResourceState } {
  let state = emptyResource('/lock', fencing);
  const accepted: boolean[] = [];
  for (const x of writes) {
    const o = applyWrite(state, x);
    accepted.push(o.accepted);
    state = o.state;
  }
  return { accepted, state };
}

type Op =
  | { readonly configure: string; readonly fencing: boolean }
  | { readonly write: string; readonly w: ResourceWrite };

/**
 * What the lab's daemon does (src/net/resource-registers.ts), without its files: applies each operation to its
 * registers and logs the decision as the daemon does. Returns the registers and the log.
 */
function serve(ops: readonly Op[]): { registers: Map<string, ResourceState>; log: LabEvent[] } {
  const registers = new Map<string, ResourceState>();
  const log: LabEvent[] = [];
  ops.forEach((op, t) => {
    if ('configure' in op) {
      const was = registers.get(op.configure) ?? emptyResource(op.configure, op.fencing);
      registers.set(op.configure, { ...was, fencing: op.fencing });
      log.push(labEvent(t, 'resource-configured', { resource: op.configure, fencing: op.fencing }));
    } else {
      const o = applyWrite(registers.get(op.write)!, op.w);
      registers.set(op.write, o.state);
      log.push(
        labEvent(t, 'resource-write', {
          resource: op.write,
          holder: op.w.holder,
          token: op.w.token,
          value: op.w.value,
          accepted: o.accepted,
          lastToken: o.lastToken,
          previousValue: o.previousValue,
          fencing: o.state.fencing,
        }),
      );
    }
  });
  return { registers, log };
}

describe('formatToken', () => {
  it('prints tokens as zxids are printed', () => {
    expect([formatToken(0x1a2), formatToken(0), formatToken(0x200000012)]).toEqual(['0x1a2', '0x0', '0x200000012']);
  });
});

describe('emptyResource', () => {
  it('starts with no token, value 0, no holder and no counts', () => {
    expect(emptyResource('/lock', true)).toEqual({
      name: '/lock',
      fencing: true,
      token: 0,
      value: 0,
      holder: null,
      accepted: 0,
      rejected: 0,
    });
    expect(emptyResource('/l2', false).fencing).toBe(false);
  });
});

describe('applyWrite with fencing on', () => {
  const start = applyWrite(emptyResource('/lock', true), w('c1', 0x100, 1)).state;

  it('accepts a first write and records it', () => {
    const o = applyWrite(emptyResource('/lock', true), w('c1', 0x100, 1));
    expect(o).toEqual({
      accepted: true,
      lastToken: 0,
      previousValue: 0,
      state: { name: '/lock', fencing: true, token: 0x100, value: 1, holder: 'c1', accepted: 1, rejected: 0 },
    });
  });

  it('refuses a token below the highest accepted, and leaves the register as it was', () => {
    const o = applyWrite(start, w('c2', 0xff, 7));
    expect(o).toEqual({ accepted: false, lastToken: 0x100, previousValue: 1, state: { ...start, rejected: 1 } });
    expect(o.state.value).toBe(1);
    expect(o.state.holder).toBe('c1');
    expect(o.state.token).toBe(0x100);
  });

  it('accepts the same token again (a holder writes more than once in a hold)', () => {
    const o = applyWrite(start, w('c1', 0x100, 2));
    expect(o).toEqual({
      accepted: true,
      lastToken: 0x100,
      previousValue: 1,
      state: { ...start, value: 2, accepted: 2 },
    });
  });

  it('accepts a higher token and moves the token up', () => {
    const o = applyWrite(start, w('c2', 0x105, 2));
    expect(o).toEqual({
      accepted: true,
      lastToken: 0x100,
      previousValue: 1,
      state: { ...start, token: 0x105, value: 2, holder: 'c2', accepted: 2 },
    });
  });

  it('counts accepted and refused writes over a zombie run', () => {
    const r = run(true, [
      w('c1', 0x100, 1),
      w('c2', 0x105, 2),
      w('c1', 0x100, 2),
      w('c3', 0x10a, 3),
      w('c2', 0x105, 3),
    ]);
    expect(r.accepted).toEqual([true, true, false, true, false]);
    expect(r.state).toEqual({
      name: '/lock',
      fencing: true,
      token: 0x10a,
      value: 3,
      holder: 'c3',
      accepted: 3,
      rejected: 2,
    });
  });

  it('does not change the state it was given', () => {
    const before = { ...start };
    applyWrite(start, w('c2', 0x1, 9));
    applyWrite(start, w('c2', 0x200, 9));
    expect(start).toEqual(before);
  });
});

describe('applyWrite with fencing off', () => {
  it('accepts a stale token: the value goes back and the highest token stays', () => {
    const after2 = run(false, [w('c1', 0x100, 1), w('c2', 0x105, 2)]).state;
    const o = applyWrite(after2, w('c1', 0x100, 2));
    expect(o).toEqual({
      accepted: true,
      lastToken: 0x105,
      previousValue: 2,
      state: { name: '/lock', fencing: false, token: 0x105, value: 2, holder: 'c1', accepted: 3, rejected: 0 },
    });
    // A lost update: the stale holder writes a value read before the newer holder's write.
    const back = applyWrite(after2, w('c1', 0x100, 1));
    expect(back.accepted).toBe(true);
    expect(back.state.value).toBe(1);
    expect(back.state.token).toBe(0x105);
  });

  it('counts every write as accepted, none refused', () => {
    const r = run(false, [w('c1', 0x100, 1), w('c2', 0x105, 2), w('c1', 0x100, 2), w('c1', 0x1, 0)]);
    expect(r.accepted).toEqual([true, true, true, true]);
    expect(r.state).toEqual({
      name: '/lock',
      fencing: false,
      token: 0x105,
      value: 0,
      holder: 'c1',
      accepted: 4,
      rejected: 0,
    });
  });
});

describe('replayResources', () => {
  it('rebuilds the registers the writes made, configure first', () => {
    const { registers, log } = serve([
      { configure: '/lock', fencing: true },
      { write: '/lock', w: w('c1', 0x100, 1) },
      { write: '/lock', w: w('c2', 0x105, 2) },
      { write: '/lock', w: w('c1', 0x100, 2) },
      { write: '/lock', w: w('c2', 0x105, 3) },
    ]);
    const replayed = replayResources(log);
    expect(replayed).toEqual(registers);
    expect(replayed.get('/lock')).toEqual({
      name: '/lock',
      fencing: true,
      token: 0x105,
      value: 3,
      holder: 'c2',
      accepted: 3,
      rejected: 1,
    });
  });

  it('keeps one register per lock', () => {
    const { registers, log } = serve([
      { configure: '/a', fencing: true },
      { configure: '/b', fencing: false },
      { write: '/a', w: w('c1', 10, 1) },
      { write: '/b', w: w('c4', 20, 1) },
      { write: '/a', w: w('c2', 9, 5) },
      { write: '/b', w: w('c5', 19, 7) },
    ]);
    const replayed = replayResources(log);
    expect(replayed).toEqual(registers);
    expect([...replayed.keys()]).toEqual(['/a', '/b']);
    expect(replayed.get('/a')).toEqual({
      name: '/a',
      fencing: true,
      token: 10,
      value: 1,
      holder: 'c1',
      accepted: 1,
      rejected: 1,
    });
    expect(replayed.get('/b')).toEqual({
      name: '/b',
      fencing: false,
      token: 20,
      value: 7,
      holder: 'c5',
      accepted: 2,
      rejected: 0,
    });
  });

  it('a later configure flips fencing but keeps the register', () => {
    const { registers, log } = serve([
      { configure: '/lock', fencing: true },
      { write: '/lock', w: w('c1', 0x100, 1) },
      { write: '/lock', w: w('c2', 0x105, 2) },
      { configure: '/lock', fencing: false },
      // Now the stale token goes through.
      { write: '/lock', w: w('c1', 0x100, 2) },
    ]);
    const replayed = replayResources(log);
    expect(replayed).toEqual(registers);
    expect(replayed.get('/lock')).toEqual({
      name: '/lock',
      fencing: false,
      token: 0x105,
      value: 2,
      holder: 'c1',
      accepted: 3,
      rejected: 0,
    });
    // Back on: the register keeps its highest token, so the stale token is refused again.
    const again = serve([
      { configure: '/lock', fencing: false },
      { write: '/lock', w: w('c2', 0x105, 1) },
      { configure: '/lock', fencing: true },
      { write: '/lock', w: w('c1', 0x100, 2) },
    ]);
    expect(replayResources(again.log)).toEqual(again.registers);
    expect(replayResources(again.log).get('/lock')).toEqual({
      name: '/lock',
      fencing: true,
      token: 0x105,
      value: 1,
      holder: 'c2',
      accepted: 1,
      rejected: 1,
    });
  });

  it('replays a prefix of the log to the state at that point', () => {
    const ops: Op[] = [
      { configure: '/lock', fencing: true },
      { write: '/lock', w: w('c1', 5, 1) },
      { write: '/lock', w: w('c2', 3, 9) },
      { write: '/lock', w: w('c2', 8, 2) },
    ];
    const { log } = serve(ops);
    for (let n = 1; n <= ops.length; n++)
      expect(replayResources(log.slice(0, n))).toEqual(serve(ops.slice(0, n)).registers);
  });

  it('starts a register from a write logged without its configuration, with the fencing the write names', () => {
    const log = [
      labEvent(1, 'resource-write', {
        resource: '/lock',
        holder: 'c1',
        token: 7,
        value: 1,
        accepted: true,
        lastToken: 0,
        previousValue: 0,
        fencing: false,
      }),
    ];
    expect(replayResources(log).get('/lock')).toEqual({
      name: '/lock',
      fencing: false,
      token: 7,
      value: 1,
      holder: 'c1',
      accepted: 1,
      rejected: 0,
    });
  });

  it('ignores every other lab event, and an empty log gives no registers', () => {
    expect(replayResources([]).size).toBe(0);
    const log = [
      labEvent(0, 'ensemble-up', { servers: 3 }),
      labEvent(1, 'contender-killed', { contender: 'c1', pid: 1, signal: 'SIGKILL' }),
    ];
    expect(replayResources(log).size).toBe(0);
  });
});

describe('isResourceName', () => {
  it.each(['/lock', '/locks/a', '/a.b_c:d-e/f9', `/${'x'.repeat(199)}`])('takes %s', (name) => {
    expect(isResourceName(name)).toBe(true);
  });

  it.each(['', 'lock', '/', '/lock/', '//lock', '/lo ck', '/lock?x', '/lock\n', `/${'x'.repeat(200)}`])(
    'refuses %j',
    (name) => {
      expect(isResourceName(name)).toBe(false);
    },
  );
});
