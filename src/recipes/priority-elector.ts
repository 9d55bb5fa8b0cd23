import { isCode } from '../zk/errors.js';
import type { ZkPort } from '../zk/port.js';
import { electorDecision, type CurrentView, type ElectorMember } from './priority-decisions.js';
import { parseMemberInfo, watchdogMsOf, type PriorityPaths } from './priority-layout.js';
import type { WatchSet } from './priority-watches.js';
import type { ElectedRead } from './priority-znodes.js';
import { sequenceOf, sortBySequence } from './sequence.js';
import type { ElectorPolicy, RecipeIO, RecipeOptions } from './types.js';

export interface ElectorContext {
  zk(): ZkPort;
  readonly io: RecipeIO;
  readonly opts: RecipeOptions;
  readonly paths: PriorityPaths;
  readonly watches: WatchSet;
  schedule(): void;
}

/**
 * The elector role of the priority recipe, held by the contender with the lowest election/ znode. It watches
 * nodes/ (and, through the recipe, leader/current and leader/elected), writes leader/elected when there is nobody to
 * wait for, and runs the transition watchdog. It never deletes leader/current: see the recipe's notes.
 *
 * Its memory (exclusions, the last leader and the sites it saw) lives as long as the role; a new elector starts
 * afresh from what ZooKeeper holds.
 */
export class Elector {
  /** Excluded candidate id → the session of its nodes/ entry when excluded: a new session gets a new chance. */
  private readonly excluded = new Map<string, string>();
  private readonly sites = new Map<string, string | null>();
  /** election/ znode name → contender id (its data never changes, so it is read once). */
  private readonly electionIds = new Map<string, string>();
  private lastLeader: string | null = null;
  private watchdog: { candidate: string; timer: NodeJS.Timeout } | null = null;
  private fired: string | null = null;
  private reportedNone = false;

  constructor(private readonly ctx: ElectorContext) {}

  get policy(): ElectorPolicy {
    return this.ctx.opts.policy ?? 'priority';
  }

  /** One pass over the election; returns the candidate it wrote to leader/elected, or null when it wrote nothing. */
  async evaluate(electionChildren: readonly string[], elected: ElectedRead | null, current: CurrentView | null): Promise<string | null> {
    const members = await this.readMembers(electionChildren);
    this.pruneExclusions(members);
    const previousLeader = this.lastLeader ?? elected?.id ?? null;
    const decision = electorDecision({
      policy: this.policy,
      members,
      elected: elected?.id ?? null,
      current,
      excluded: new Set(this.excluded.keys()),
      watchdogFired: this.fired,
      previousLeader,
      previousSite: previousLeader === null ? null : (this.sites.get(previousLeader) ?? null),
    });
    this.fired = null;
    if ((decision.kind === 'elect' || decision.kind === 'none') && decision.exclude !== null) {
      const who = members.find((m) => m.id === decision.exclude);
      if (who) this.excluded.set(who.id, who.session);
      this.ctx.io.log('excluded', { candidate: decision.exclude, afterMs: watchdogMsOf(this.ctx.opts) });
    }
    switch (decision.kind) {
      case 'settled':
        this.clearWatchdog();
        this.lastLeader = decision.leader;
        this.reportedNone = false;
        return null;
      case 'wait':
        if (decision.blockedBy === null) this.armWatchdog(decision.candidate);
        else this.clearWatchdog();
        return null;
      case 'none': {
        this.clearWatchdog();
        if (!this.reportedNone) {
          this.reportedNone = true;
          this.ctx.io.log('error', { message: 'no members to elect; waiting for members to join' });
        }
        return null;
      }
      case 'elect':
        if (decision.reason === 'forgiven') this.excluded.clear();
        if (!(await this.writeElected(decision.candidate, elected))) {
          this.ctx.schedule();
          return null;
        }
        this.reportedNone = false;
        this.ctx.io.log('elected', { candidate: decision.candidate, policy: this.policy, reason: decision.reason, previous: elected?.id ?? null });
        this.clearWatchdog();
        this.armWatchdog(decision.candidate);
        return decision.candidate;
    }
  }

  /** Ends the role: no watchdog may fire for it afterwards. */
  stop(): void {
    this.clearWatchdog();
  }

  /** Conditional on the version read, so two writers (a stale elector, a hand edit) cannot both win. */
  private async writeElected(candidate: string, elected: ElectedRead | null): Promise<boolean> {
    const zk = this.ctx.zk();
    try {
      if (elected) await zk.setData(this.ctx.paths.elected, candidate, elected.version);
      else await zk.create(this.ctx.paths.elected, candidate, 'persistent');
      return true;
    } catch (e) {
      if (isCode(e, 'NONODE') && !elected) await zk.mkdirp(this.ctx.paths.leader);
      if (isCode(e, 'BADVERSION', 'NODEEXISTS', 'NONODE')) return false;
      throw e;
    }
  }

  private armWatchdog(candidate: string): void {
    if (this.watchdog?.candidate === candidate) return;
    this.clearWatchdog();
    const timer = setTimeout(() => {
      this.watchdog = null;
      this.fired = candidate;
      this.ctx.schedule();
    }, watchdogMsOf(this.ctx.opts));
    timer.unref();
    this.watchdog = { candidate, timer };
  }

  private clearWatchdog(): void {
    if (this.watchdog) clearTimeout(this.watchdog.timer);
    this.watchdog = null;
  }

  private pruneExclusions(members: readonly ElectorMember[]): void {
    for (const [id, session] of this.excluded) {
      if (!members.some((m) => m.id === id && m.session === session)) this.excluded.delete(id);
    }
  }

  private async readMembers(electionChildren: readonly string[]): Promise<ElectorMember[]> {
    const zk = this.ctx.zk();
    const { nodes } = this.ctx.paths;
    const names = await this.ctx.watches.read('children', nodes, (w) => zk.getChildren(nodes, w));
    const sequences = await this.readSequences(electionChildren);
    const members: ElectorMember[] = [];
    for (const name of names) {
      try {
        const { data, stat } = await zk.getData(`${nodes}/${name}`);
        const info = parseMemberInfo(name, data.toString());
        this.sites.set(info.id, info.site);
        members.push({ id: info.id, priority: info.priority, site: info.site, sequence: sequences.get(info.id) ?? Infinity, session: stat.ephemeralOwner });
      } catch (e) {
        if (!isCode(e, 'NONODE')) throw e;
      }
    }
    return members;
  }

  /** Contender id → its lowest election sequence. */
  private async readSequences(children: readonly string[]): Promise<Map<string, number>> {
    const zk = this.ctx.zk();
    const out = new Map<string, number>();
    for (const name of sortBySequence(children)) {
      let id = this.electionIds.get(name);
      if (id === undefined) {
        try {
          id = (await zk.getData(`${this.ctx.paths.election}/${name}`)).data.toString();
        } catch (e) {
          if (isCode(e, 'NONODE')) continue;
          throw e;
        }
        this.electionIds.set(name, id);
      }
      if (!out.has(id)) out.set(id, sequenceOf(name)!);
    }
    for (const name of this.electionIds.keys()) if (!children.includes(name)) this.electionIds.delete(name);
    return out;
  }
}
