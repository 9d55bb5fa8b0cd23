import { describe, expect, it } from 'vitest';
import { SingleFileStates } from '../../../src/recipes/single-file-states.js';

function tracker(pauseOnDisconnect = true) {
  const reported: { state: string; from: string | null; reason?: string }[] = [];
  const states = new SingleFileStates((f) => reported.push(f), pauseOnDisconnect);
  return { states, reported, names: () => reported.map((r) => r.state) };
}

describe('SingleFileStates', () => {
  it('reports each change once, with where it came from', () => {
    const t = tracker();
    t.states.decided(false);
    t.states.decided(false);
    t.states.decided(true);
    expect(t.reported).toEqual([
      { state: 'inactive', from: null },
      { state: 'active', from: 'inactive' },
    ]);
  });

  it('pauses from active or inactive on a disconnect, and only the re-check decides afterwards', () => {
    const t = tracker();
    t.states.decided(true);
    t.states.connection('connecting');
    t.states.connection('connecting');
    t.states.connection('connected');
    expect(t.names()).toEqual(['active', 'paused']);
    t.states.decided(true);
    expect(t.reported.at(-1)).toEqual({ state: 'active', from: 'paused' });

    const f = tracker();
    f.states.decided(false);
    f.states.connection('connecting');
    f.states.connection('connected');
    f.states.decided(false);
    expect(f.names()).toEqual(['inactive', 'paused', 'inactive']);
  });

  it('ignores outcomes while still disconnected', () => {
    const t = tracker();
    t.states.decided(false);
    t.states.connection('connecting');
    t.states.decided(true);
    expect(t.names()).toEqual(['inactive', 'paused']);
  });

  it('goes inactive on expiry, from paused or active', () => {
    const t = tracker();
    t.states.decided(true);
    t.states.connection('connecting');
    t.states.connection('expired');
    expect(t.reported.at(-1)).toEqual({ state: 'inactive', from: 'paused', reason: 'expired' });

    const a = tracker();
    a.states.decided(true);
    a.states.connection('expired');
    expect(a.reported.at(-1)).toEqual({ state: 'inactive', from: 'active', reason: 'expired' });
  });

  it('reports nothing for session events before the first decision', () => {
    const t = tracker();
    t.states.connection('connecting');
    t.states.connection('expired');
    expect(t.reported).toEqual([]);
  });

  it('does not pause when told to ignore disconnects (the leader keeps acting)', () => {
    const t = tracker(false);
    t.states.decided(true);
    t.states.connection('connecting');
    t.states.decided(true);
    expect(t.names()).toEqual(['active']);
  });

  it('pauses an active contender that stalled, and only an active one', () => {
    const t = tracker();
    t.states.decided(true);
    t.states.stalled();
    expect(t.reported.at(-1)).toEqual({ state: 'paused', from: 'active', reason: 'stalled' });
    const i = tracker();
    i.states.decided(false);
    i.states.stalled();
    expect(i.names()).toEqual(['inactive']);
  });
});
