import { describe, expect, it } from 'vitest';
import type { ContenderEventFields, ContenderEventHead, ContenderEventName } from '../../../src/lab/events.js';
import { contenderEvent } from '../../helpers/events.js';
import { summarizeContenderEvents } from '../../../src/inspect/contender-summary.js';

let t = 0;
const e = <E extends ContenderEventName>(
  event: E,
  fields: Partial<ContenderEventFields[E]> & Partial<ContenderEventHead> = {},
) => contenderEvent(++t, 'c1', event, { session: '0x00A1', znode: '/election/n_1', ...fields });

describe('summarizeContenderEvents', () => {
  it('knows nothing before the first event', () => {
    expect(summarizeContenderEvents([])).toEqual({
      sessionId: null,
      pastSessionIds: [],
      state: 'unknown',
      stateSince: null,
      childWatches: [],
      recipe: null,
      probed: undefined,
      acquired: [],
    });
  });

  it('follows the claimed state, and returns to it after a pause', () => {
    const log = [
      e('started', { session: null, recipe: 'herd' }),
      e('connected'),
      e('follower'),
      e('leader'),
      e('paused'),
      e('resumed'),
    ];
    expect(summarizeContenderEvents(log)).toMatchObject({ sessionId: 'a1', state: 'leader', recipe: 'herd' });
    expect(summarizeContenderEvents(log.slice(0, 5)).state).toBe('paused');
  });

  it("maps the single-file recipe's state events", () => {
    expect(summarizeContenderEvents([e('state', { state: 'active' })]).state).toBe('leader');
    expect(summarizeContenderEvents([e('state', { state: 'inactive' })]).state).toBe('follower');
    expect(
      summarizeContenderEvents([e('state', { state: 'active' }), e('state', { state: 'paused' }), e('resumed')]).state,
    ).toBe('leader');
  });

  it('keeps earlier sessions and forgets the claims of an expired one', () => {
    const s = summarizeContenderEvents([e('leader'), e('expired'), e('connected', { session: 'b2' })]);
    expect(s).toMatchObject({ sessionId: 'b2', pastSessionIds: ['a1'], state: 'unknown' });
  });

  it('tracks armed child watches: set by watching, spent by a children or deleted notification', () => {
    const watch = (path: string, kind: 'children' | 'exists' = 'children') => e('watching', { path, kind });
    expect(summarizeContenderEvents([watch('/election'), watch('/election/x', 'exists')]).childWatches).toEqual([
      '/election',
    ]);
    expect(
      summarizeContenderEvents([watch('/election'), e('notified', { path: '/election', type: 'children' })])
        .childWatches,
    ).toEqual([]);
    expect(
      summarizeContenderEvents([watch('/a'), e('notified', { path: '/a', type: 'deleted' })]).childWatches,
    ).toEqual([]);
    expect(
      summarizeContenderEvents([watch('/election'), e('notified', { path: '/election', type: 'changed' })])
        .childWatches,
    ).toEqual(['/election']);
    expect(summarizeContenderEvents([watch('/election'), e('expired')]).childWatches).toEqual([]);
  });

  it('reports a clean stop as stopped', () => {
    expect(summarizeContenderEvents([e('follower'), e('stopped')]).state).toBe('stopped');
  });
});
