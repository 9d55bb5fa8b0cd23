import { existsSync } from 'node:fs';
import { withLabLock } from '../lab/lock.js';
import type { LabPaths } from '../lab/paths.js';
import { readState, writeState, type LabState } from '../lab/state.js';
import { forgetGoneContenders, goneContenders } from './gone-contenders.js';
import type { ClientMember } from './link-table.js';

/** What the reaper needs from the link daemon. */
export interface ReaperHost {
  /** The members the daemon holds client links for (contenders), with their open connections. */
  clientMembers(): ReadonlyMap<string, ClientMember>;
  /** Removes links in turn with the daemon's requests (never beside another change); resolves the ids removed. */
  removeLinks(ids: readonly string[]): Promise<readonly string[]>;
  log(message: string): void;
}

/**
 * Closes a contender's links within moments of its process dying, whoever killed it, and has the lab state forget
 * their ports (through `forgetGoneContenders`, the code path `contenders stop` uses).
 *
 * How it hears of a death: when a process dies the kernel closes its sockets, so the proxy it was connected through
 * sees that connection end (`connectionLeft`); the reaper then looks at the contender's process (its pid from the
 * lab state, alive only with the lab's marker on its command line). A close alone proves nothing: a contender
 * that moves its session to another server closes its connection too, and one that is paused or partitioned is
 * alive. A contender with no open connection (between reconnects, or cut off by a `reject` partition, whose resets
 * leave it none) cannot signal its death that way, so the daemon's periodic `tick` looks at those, and only those.
 * A contender the state does not list yet (its spawn still holds the lab lock) is looked at again on each tick.
 *
 * The lab state is written under the lab lock, after the links are closed and outside the daemon's request queue:
 * a command holding the lock may be waiting for an answer from this daemon, so the links never wait for the lock.
 */
export class ContenderReaper {
  /** Members to look at as soon as possible. */
  private readonly suspects = new Set<string>();
  /** Members the lab state does not know yet: looked at again on the next tick. */
  private readonly undecided = new Set<string>();
  private checking = false;
  private checkAgain = false;
  private forgetting = false;
  private forgetAgain = false;
  private forgetOnTick = false;
  private stopped = false;
  private lastReadError: string | undefined;

  constructor(
    private readonly paths: LabPaths,
    private readonly host: ReaperHost,
  ) {}

  /** A connection of `member` was ended or closed by its side: look whether its process is still there. */
  connectionLeft(member: string): void {
    if (this.stopped) return;
    this.suspects.add(member);
    this.check();
  }

  /** Periodic: members with no open connection could die without a close to tell of it, so they are looked at. */
  tick(): void {
    if (this.stopped) return;
    for (const [member, m] of this.host.clientMembers()) if (m.open === 0) this.suspects.add(member);
    for (const member of this.undecided) this.suspects.add(member);
    this.undecided.clear();
    if (this.suspects.size > 0) this.check();
    if (this.forgetOnTick) void this.forget();
  }

  /** On start: contenders that died while no daemon ran may still have ports in the state. */
  start(): void {
    void this.forget();
  }

  stop(): void {
    this.stopped = true;
  }

  private check(): void {
    if (this.checking) {
      this.checkAgain = true;
      return;
    }
    this.checking = true;
    void this.reap()
      .catch((err: unknown) => this.host.log(`could not check on contenders: ${(err as Error).message}`))
      .finally(() => {
        this.checking = false;
        if (this.checkAgain && !this.stopped) {
          this.checkAgain = false;
          this.check();
        }
      });
  }

  private async reap(): Promise<void> {
    const held = this.host.clientMembers();
    const members = [...this.suspects].filter((m) => held.has(m));
    this.suspects.clear();
    if (members.length === 0) return;
    const state = this.readState();
    if (!state) return; // no lab state: nothing to judge a process by
    const known = new Map(state.contenders.map((c) => [c.id, c] as const));
    for (const m of members) if (!known.has(m)) this.undecided.add(m);
    const gone = new Set(goneContenders(this.paths, state));
    const dead = members.filter((m) => known.has(m) && gone.has(m));
    if (dead.length === 0 || this.stopped) return;
    const removed = await this.host.removeLinks(dead.flatMap((m) => held.get(m)!.linkIds));
    const who = dead.map((m) => `${m} (pid ${known.get(m)!.pid ?? 'unknown'})`).join(', ');
    this.host.log(`contender process gone: ${who}; removed ${removed.join(', ') || 'no links'}`);
    void this.forget();
  }

  /** Forgets gone contenders' ports in the lab state, under the lab lock; tried again on the next tick if it fails. */
  private async forget(): Promise<void> {
    if (this.stopped) return;
    if (this.forgetting) {
      this.forgetAgain = true;
      return;
    }
    this.forgetting = true;
    this.forgetOnTick = false;
    try {
      do {
        this.forgetAgain = false;
        // withLabLock makes the directory it locks: never bring back a lab that is being removed.
        if (!existsSync(this.paths.stateFile)) return;
        let removed: readonly string[] = [];
        const forgotten = await withLabLock(this.paths, async () => {
          const state = this.readState();
          if (!state || this.stopped) return [];
          const ids = await forgetGoneContenders(
            this.paths,
            state,
            async (linkIds) => (removed = await this.host.removeLinks(linkIds)),
          );
          if (ids.length > 0) writeState(this.paths, state);
          return ids;
        });
        // Links still open here belong to contenders that died unnoticed (or while no daemon ran).
        if (forgotten.length > 0)
          this.host.log(
            `the lab state forgets the link ports of ${forgotten.join(', ')}${removed.length > 0 ? `; removed ${removed.join(', ')}` : ''}`,
          );
      } while (this.forgetAgain && !this.stopped);
    } catch (err) {
      this.forgetOnTick = true;
      this.host.log(`could not update the lab state (will try again): ${(err as Error).message}`);
    } finally {
      this.forgetting = false;
    }
  }

  private readState(): LabState | undefined {
    try {
      const state = readState(this.paths);
      this.lastReadError = undefined;
      return state;
    } catch (err) {
      const message = (err as Error).message;
      if (message !== this.lastReadError) this.host.log(`cannot read the lab state: ${message}`);
      this.lastReadError = message;
      return undefined;
    }
  }
}
