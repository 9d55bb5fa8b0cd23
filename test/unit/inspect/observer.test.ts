import { describe, expect, it } from 'vitest';
import { ObserverSession } from '../../../src/inspect/source/observer.js';
import type { ZkPort } from '../../../src/zk/port.js';
import { waitFor } from '../../helpers/wait.js';
import { FakeEnsemble, type FakeSession } from '../recipes/fake-zk.js';

function observer(zk: FakeEnsemble, serving: { now: boolean }, fail = { now: false }) {
  const sessions: ZkPort[] = [];
  const log: string[] = [];
  const o = new ObserverSession(
    {
      connect: 'fake:1',
      serving: () => serving.now,
      connectFn: async () => {
        if (fail.now) throw new Error('no session within 3000 ms');
        return zk.connect();
      },
    },
    {
      onSession: (s) => {
        sessions.push(s);
        log.push(`session ${s.sessionId}`);
      },
      onLost: () => log.push('lost'),
      onReconnected: () => log.push('reconnected'),
      onStateChange: () => undefined,
    },
  );
  return { o, sessions, log };
}

describe('ObserverSession', () => {
  it('does not try while no server serves, then connects on the next poke', async () => {
    const serving = { now: false };
    const { o, sessions } = observer(new FakeEnsemble(), serving);
    o.poke();
    expect(o.state).toBe('unreachable');
    expect(o.settled).toBe(1);
    expect(sessions).toHaveLength(0);
    serving.now = true;
    o.poke();
    await waitFor(() => o.state === 'connected', 'a session');
    expect(sessions).toHaveLength(1);
    o.poke(); // a session is held: nothing more
    expect(sessions).toHaveLength(1);
    await o.stop();
    expect((sessions[0] as FakeSession).state).toBe('expired');
  });

  it('makes a new session when the old one expires, and reports a disconnect in between', async () => {
    const zk = new FakeEnsemble();
    const { o, sessions, log } = observer(zk, { now: true });
    o.poke();
    await waitFor(() => sessions.length === 1, 'the first session');
    const first = sessions[0] as FakeSession;
    first.disconnect();
    expect(o.state).toBe('disconnected');
    first.reconnect();
    expect(o.state).toBe('connected');
    zk.expire(first);
    await waitFor(() => sessions.length === 2, 'a second session');
    expect(log).toEqual([`session ${first.sessionId}`, 'reconnected', 'lost', `session ${sessions[1]!.sessionId}`]);
    await o.stop();
  });

  it('keeps the failure as the reason and settles, so --once can stop waiting', async () => {
    const { o } = observer(new FakeEnsemble(), { now: true }, { now: true });
    o.poke();
    await waitFor(() => o.settled === 1, 'the failed attempt');
    expect(o.state).toBe('unreachable');
    expect(o.lastError).toBe('no session within 3000 ms');
    await o.stop();
  });
});
