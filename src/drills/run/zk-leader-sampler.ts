import { sessionsOf } from '../../contenders/service.js';
import { readPathLeaders } from '../../contenders/zk-view.js';
import { recordLabEvent } from '../../lab/event-log.js';
import { labNow } from '../../lab/lab-time.js';
import type { LabPaths } from '../../lab/paths.js';
import type { LabState } from '../../lab/state.js';
import type { ZkPort } from '../../zk/port.js';
import type { Sampler } from './sampler-session.js';

/** Often enough to place a hand-over within a tenth of a second, rarely enough to cost the servers nothing. */
const SAMPLE_MS = 100;
/**
 * A look that takes longer than this was waiting on a server that did not answer (a silent partition holds a read
 * for 2/3 of the session timeout): what ZooKeeper said meanwhile is not known, and is recorded so.
 */
const SLOW_MS = 500;
const BLIND = 'blind';

/**
 * Follows who leads by ZooKeeper's own state during a drill and records each change as a `zk-leader` lab event, so
 * the checkers can judge what contenders believe (and programs that say nothing) against it. While it cannot ask,
 * it says so: a stale answer would make a new leader look like one acting behind ZooKeeper's back.
 */
export class ZkLeaderSampler implements Sampler {
  readonly everyMs = SAMPLE_MS;
  private last = '';

  constructor(private readonly paths: LabPaths) {}

  async sample(zk: ZkPort, state: LabState): Promise<void> {
    if (state.contenders.length === 0) return;
    const path = state.contenders[0]!.path;
    const t0 = labNow();
    let lead: Awaited<ReturnType<typeof readPathLeaders>>[number] | undefined;
    try {
      [lead] = await readPathLeaders(zk, state.contenders, sessionsOf(this.paths, state));
    } catch (e) {
      if (this.last !== BLIND) {
        this.last = BLIND;
        const fields = { path, leader: null, znode: null, session: null, unknown: true as const };
        recordLabEvent(this.paths, 'zk-leader', { ...fields, blindSince: t0 });
      }
      throw e;
    }
    const fields = {
      path: lead?.path ?? path,
      leader: lead?.contender?.id ?? null,
      znode: lead?.znode ?? null,
      session: lead?.owner ?? null,
    };
    const slow = labNow() - t0 > SLOW_MS;
    const key = JSON.stringify(fields);
    if (key === this.last && !slow) return;
    this.last = key;
    recordLabEvent(this.paths, 'zk-leader', slow ? { ...fields, blindSince: t0 } : fields);
  }
}
