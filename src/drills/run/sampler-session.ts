import type { LabPaths } from '../../lab/paths.js';
import { directConnectString, readState, type LabState } from '../../lab/state.js';
import { openObserver } from '../../zk/observer.js';
import type { ZkPort } from '../../zk/port.js';

/** How long the last turn at the end of a drill may take (ZooKeeper may be away then: quorum lost). */
const LAST_TURN_MS = 1000;
/**
 * The samplers' session: short, because a client leaves a silent server only after 2/3 of it, and what the drill
 * cannot see meanwhile is not judged; a session that expires (quorum away longer) is replaced.
 */
const SESSION_MS = 4000;
const open = (state: LabState) => openObserver(directConnectString(state), 5000, SESSION_MS);

/** One thing a drill samples from ZooKeeper's own state, every `everyMs`, and records as lab events. */
export interface Sampler {
  readonly everyMs: number;
  /** Throws when ZooKeeper cannot answer now (a server killed, quorum lost): the next turn tries again. */
  sample(zk: ZkPort, state: LabState): Promise<void>;
}

/**
 * The one session the drill's samplers share. It lives in a process of its own (sampler-child.ts): in one process,
 * a ZooKeeper handle that is reconnecting after the servers restart keeps a second handle from getting a session
 * (seen: `kill leader` after `restart all` could not connect for 5 s while the sampler's handle was reconnecting).
 * Each sampler runs on its own timer, one turn at a time.
 */
export class SamplerSession {
  private zk: ZkPort | undefined;
  private reopening: Promise<void> | undefined;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly busy = new Set<Sampler>();
  private stopped = false;

  constructor(
    private readonly paths: LabPaths,
    private readonly samplers: readonly Sampler[],
  ) {}

  async start(): Promise<void> {
    const state = readState(this.paths);
    if (!state) return;
    this.zk = await open(state);
    for (const s of this.samplers) this.timers.push(setInterval(() => void this.turn(s), s.everyMs));
  }

  private async turn(s: Sampler): Promise<void> {
    if (!this.zk && !this.stopped) await this.reopen();
    const zk = this.zk;
    if (this.stopped || !zk || this.busy.has(s)) return;
    this.busy.add(s);
    try {
      const state = readState(this.paths);
      if (state) await s.sample(zk, state);
    } catch {
      if (zk.state === 'expired') await this.reopen();
    } finally {
      this.busy.delete(s);
    }
  }

  /** A session that expired (the ensemble was away longer than its timeout) is replaced, not sampled in vain. */
  private reopen(): Promise<void> {
    this.reopening ??= (async () => {
      const state = readState(this.paths);
      if (!state || this.stopped || (this.zk && this.zk.state !== 'expired')) return;
      await this.zk?.close().catch(() => undefined);
      this.zk = undefined;
      this.zk = await open(state).catch(() => undefined);
    })().finally(() => {
      this.reopening = undefined;
    });
    return this.reopening;
  }

  /**
   * Ends sampling with one last turn of each sampler, then closes the session: the drill judges up to its end, and a
   * hand-over in its last 100 ms would otherwise be missing from ZooKeeper's side of the history.
   */
  async stop(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    if (!this.stopped) {
      this.stopped = true;
      const last = Promise.all(this.samplers.map((s) => this.lastTurn(s)));
      await Promise.race([last, new Promise((resolve) => setTimeout(resolve, LAST_TURN_MS).unref())]);
    }
    await this.zk?.close().catch(() => undefined);
  }

  private async lastTurn(s: Sampler): Promise<void> {
    while (this.busy.has(s)) await new Promise((resolve) => setTimeout(resolve, 10));
    const zk = this.zk;
    const state = readState(this.paths);
    if (zk && state) await s.sample(zk, state).catch(() => undefined);
  }
}
