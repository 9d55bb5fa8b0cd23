import { sessionsOf } from '../../contenders/service.js';
import { readPathLeaders } from '../../contenders/zk-view.js';
import { recordLabEvent } from '../../lab/event-log.js';
import type { LabPaths } from '../../lab/paths.js';
import type { LabState } from '../../lab/state.js';
import type { ZkPort } from '../../zk/port.js';
import type { Sampler } from './sampler-session.js';

/** Often enough to place a hand-over within a tenth of a second, rarely enough to cost the servers nothing. */
const SAMPLE_MS = 100;

/**
 * Follows who leads by ZooKeeper's own state during a drill and records each change as a `zk-leader` lab event, so
 * the checkers can judge what contenders believe (and programs that say nothing) against it.
 */
export class ZkLeaderSampler implements Sampler {
  readonly everyMs = SAMPLE_MS;
  private last = '';

  constructor(private readonly paths: LabPaths) {}

  async sample(zk: ZkPort, state: LabState): Promise<void> {
    if (state.contenders.length === 0) return;
    const sessions = sessionsOf(this.paths, state);
    const [lead] = await readPathLeaders(zk, state.contenders, sessions);
    const path = lead?.path ?? state.contenders[0]!.path;
    const fields = {
      path,
      leader: lead?.contender?.id ?? null,
      znode: lead?.znode ?? null,
      session: lead?.owner ?? null,
    };
    const key = JSON.stringify(fields);
    if (key === this.last) return;
    this.last = key;
    recordLabEvent(this.paths, 'zk-leader', fields);
  }
}
