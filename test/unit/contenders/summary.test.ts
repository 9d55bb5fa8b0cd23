import { describe, expect, it } from 'vitest';
import type { ContenderEventFields, ContenderEventHead, ContenderEventName } from '../../../src/lab/events.js';
import { contenderEvent } from '../../helpers/events.js';
import { summarizeEvents, withProcessFacts } from '../../../src/contenders/summary.js';

let t = 0;
const ev = <E extends ContenderEventName>(
  event: E,
  fields: Partial<ContenderEventFields[E]> & Partial<ContenderEventHead> = {},
) => contenderEvent(++t, 'c1', event, { session: 's1', znode: '/e/x-n_0000000001', ...fields });

describe('summarizeEvents', () => {
  it('follows a contender from join to leadership', () => {
    const s = summarizeEvents([
      ev('started', { session: null }),
      ev('connected'),
      ev('joined'),
      ev('watching', { path: '/e/a' }),
      ev('follower'),
      ev('notified', { path: '/e/a' }),
      ev('leader', { token: 42 }),
    ]);
    expect(s).toMatchObject({
      state: 'leader',
      session: 's1',
      znode: '/e/x-n_0000000001',
      watching: null,
      token: 42,
      sessions: ['s1'],
    });
  });

  it('returns to the state before a pause when the session survives', () => {
    expect(summarizeEvents([ev('connected'), ev('follower'), ev('paused'), ev('resumed')]).state).toBe('follower');
    expect(
      summarizeEvents([ev('connected'), ev('leader', { token: 1 }), ev('paused', { wasLeader: true })]).state,
    ).toBe('paused');
  });

  it('forgets the znode on expiry and remembers every session', () => {
    const s = summarizeEvents([
      ev('connected'),
      ev('leader', { token: 1 }),
      ev('expired'),
      ev('connected', { session: 's2' }),
      ev('joined', { session: 's2', znode: '/e/y-n_0000000009' }),
      ev('follower', { session: 's2' }),
    ]);
    expect(s).toMatchObject({
      state: 'follower',
      session: 's2',
      znode: '/e/y-n_0000000009',
      token: null,
      sessions: ['s1', 's2'],
    });
  });

  it("counts a side session of a recipe (the scheduler leader's multi session) as its own without standing on it", () => {
    const s = summarizeEvents([
      ev('started', { session: null, recipe: 'predecessor' }),
      ev('session', { session: 's1', znode: null, server: 'zk1', timeoutMs: 2000 }),
      ev('connected'),
      ev('leader', { token: 7 }),
      ev('session', { session: 's9', znode: null, server: 'zk2', timeoutMs: 2000 }),
    ]);
    expect(s).toMatchObject({ state: 'leader', session: 's1', sessions: ['s1', 's9'] });
  });

  it('never reports a dead process as leader, and a frozen one as paused', () => {
    const leader = summarizeEvents([ev('connected'), ev('leader', { token: 1 })]);
    expect(withProcessFacts(leader, false, false)).toMatchObject({ state: 'dead', token: null });
    expect(withProcessFacts(leader, true, true).state).toBe('paused');
    expect(withProcessFacts(summarizeEvents([ev('stopped')]), false, false).state).toBe('stopped');
  });
});
