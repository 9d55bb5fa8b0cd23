import { isCode, unlessGone } from '../zk/errors.js';
import type { ZkPort } from '../zk/port.js';
import { electorDecision, type CurrentView, type ElectorMember } from './priority-decisions.js';
import { parseMemberInfo, watchdogMsOf, type MemberInfo, type PriorityPaths } from './priority-layout.js';
import type { WatchSet } from './priority-watches.js';
import type { ElectedRead } from './priority-znodes.js';
import { sequenceOf, sortBySequence } from './sequence.js';
import { EMPTY_POLICY, parseAdminPolicy, policyPath, type AdminPolicy } from './priority-policy.js';
import type { ElectorPolicy, RecipeIO, RecipeOptions } from './types.js';

/** A nodes/ entry as read: what it says, whose session owns it, and its raw data and version (for the doorbell). */
interface MemberEntry {
  readonly info: MemberInfo;
  readonly session: string;
  readonly raw: string;
  version: number;
}

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
  /** nodes/ as read last, with each entry's owner session; see readMembers. */
  private memberInfos: MemberEntry[] | null = null;
  private lastLeader: string | null = null;
  private watchdog: { candidate: string; timer: NodeJS.Timeout } | null = null;
  private fired: string | null = null;
  private reportedNone = false;
  /** `<candidate>@<elected version>` the doorbell was last rung for: once per naming is enough. */
  private rung: string | null = null;
  /**
   * The administrator's policy znode as read last, and its mzxid then (-1: none; mzxid, not version: a znode deleted
   * and created again starts at version 0 once more).
   */
  private admin: AdminPolicy = EMPTY_POLICY;
  private adminVersion: number | null = null;

  constructor(private readonly ctx: ElectorContext) {}

  get policy(): ElectorPolicy {
    return this.ctx.opts.policy ?? 'priority';
  }

  /** One pass over the election (members from readMembers); returns what it wrote to leader/elected, or null when it wrote nothing. */
  async evaluate(
    members: readonly ElectorMember[],
    elected: ElectedRead | null,
    current: CurrentView | null,
  ): Promise<ElectedRead | null> {
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
      siteOrder: this.admin.sites,
      preempt: this.ctx.opts.preempt ?? true,
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
        if (decision.blockedBy !== null) {
          this.clearWatchdog();
          return null;
        }
        this.armWatchdog(decision.candidate);
        // Named by an earlier elector or by hand, or named while blocked: it may not know yet.
        if (
          elected &&
          decision.candidate !== this.ctx.opts.id &&
          this.rung !== `${decision.candidate}@${elected.version}`
        ) {
          await this.ringDoorbell(decision.candidate);
          this.rung = `${decision.candidate}@${elected.version}`;
        }
        return null;
      case 'none': {
        this.clearWatchdog();
        if (!this.reportedNone) {
          this.reportedNone = true;
          this.ctx.io.log('error', { message: 'no members to elect; waiting for members to join' });
        }
        return null;
      }
      case 'elect': {
        if (decision.reason === 'forgiven') this.excluded.clear();
        // The doorbell goes out with the write and is served after it: the candidate reads elected naming it.
        const [version] = await Promise.all([
          this.writeElected(decision.candidate, elected),
          decision.candidate === this.ctx.opts.id ? null : this.ringDoorbell(decision.candidate),
        ]);
        if (version === null) {
          this.ctx.schedule();
          return null;
        }
        this.rung = `${decision.candidate}@${version}`;
        this.reportedNone = false;
        this.ctx.io.log('elected', {
          candidate: decision.candidate,
          policy: this.policy,
          reason: decision.reason,
          previous: elected?.id ?? null,
        });
        this.clearWatchdog();
        this.armWatchdog(decision.candidate);
        return { id: decision.candidate, version };
      }
    }
  }

  /** Ends the role: no watchdog may fire for it afterwards. */
  stop(): void {
    this.clearWatchdog();
  }

  /** Conditional on the version read, so two writers (a stale elector, a hand edit) cannot both win. Returns the new version. */
  private async writeElected(candidate: string, elected: ElectedRead | null): Promise<number | null> {
    const zk = this.ctx.zk();
    try {
      if (elected) return (await zk.setData(this.ctx.paths.elected, candidate, elected.version)).version;
      await zk.create(this.ctx.paths.elected, candidate, 'persistent');
      return 0;
    } catch (e) {
      if (isCode(e, 'NONODE') && !elected) await zk.mkdirp(this.ctx.paths.leader);
      if (isCode(e, 'BADVERSION', 'NODEEXISTS', 'NONODE')) return null;
      throw e;
    }
  }

  /**
   * Tells the candidate it was named: followers do not watch leader/elected (every election would wake them all),
   * each watches its own nodes/<id>, and the elector rewrites that entry's data unchanged: when it names the
   * candidate, or later when the candidate is free to take over and was not rung for this naming yet. Conditional on
   * the version read, so an entry re-created by another process with the same id keeps its own data. A lost ring
   * costs one watchdog period: the watchdog then names someone else.
   */
  private async ringDoorbell(candidate: string): Promise<void> {
    const entry = this.memberInfos?.find((m) => m.info.id === candidate);
    if (!entry) return;
    try {
      entry.version = (
        await this.ctx.zk().setData(`${this.ctx.paths.nodes}/${candidate}`, entry.raw, entry.version)
      ).version;
    } catch (e) {
      if (!isCode(e, 'NONODE', 'BADVERSION')) throw e;
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

  /**
   * nodes/ is read again only after its children watch fired: ZooKeeper delivers a watch event before any reply
   * that reflects the change, so while the watch stays armed the list read last (and each entry, whose data never
   * changes) is still what the servers hold. The entries themselves are read in one pipelined round.
   */
  /** `listed`: nodes/ as the caller just listed it without a watch, so the entries can be read in the same round. */
  async readMembers(
    electionChildren: readonly string[],
    listed: readonly string[] | null = null,
  ): Promise<ElectorMember[]> {
    const [sequences, infos] = await Promise.all([
      this.readSequences(electionChildren),
      this.readMemberInfos(listed),
      this.readAdminPolicy(),
    ]);
    return infos.map(({ info, session }) => ({
      id: info.id,
      priority: Object.hasOwn(this.admin.priorities, info.id) ? this.admin.priorities[info.id]! : info.priority,
      site: info.site,
      sequence: sequences.get(info.id) ?? Infinity,
      session,
    }));
  }

  /**
   * nodes/ is read again only after its children watch fired: ZooKeeper delivers a watch event before any reply
   * that reflects the change, so while the watch stays armed the list read last (and each entry, whose data never
   * changes) is still what the servers hold. The entries are read in one pipelined round, together with the
   * watched listing when the caller brought a fresh one; entries that listing adds are read in one more.
   */
  private async readMemberInfos(listed: readonly string[] | null): Promise<readonly MemberEntry[]> {
    const { nodes } = this.ctx.paths;
    if (this.memberInfos !== null && this.ctx.watches.isArmed('children', nodes)) return this.memberInfos;
    const zk = this.ctx.zk();
    const entries = new Map<string, MemberEntry | null>();
    const read = async (names: readonly string[]): Promise<void> => {
      const got = await Promise.all(names.map((name) => this.readMember(zk, name)));
      names.forEach((name, i) => {
        entries.set(name, got[i]!);
      });
    };
    const [names] = await Promise.all([
      this.ctx.watches.read('children', nodes, (w) => zk.getChildren(nodes, w)),
      read(listed ?? []),
    ]);
    await read(names.filter((name) => !entries.has(name)));
    this.memberInfos = names.map((name) => entries.get(name) ?? null).filter((m) => m !== null);
    return this.memberInfos;
  }

  /**
   * The policy znode, with a watch: read again only after the watch fired (as nodes/ is). Its change triggers a
   * new pass, which may pre-empt the leader. A policy that cannot be read in full is used as far as it can be.
   */
  private async readAdminPolicy(): Promise<void> {
    const path = policyPath(this.ctx.opts.path);
    if (this.adminVersion !== null && this.ctx.watches.isArmed('exists', path)) return;
    const zk = this.ctx.zk();
    const [, read] = await Promise.all([
      this.ctx.watches.read('exists', path, (w) => zk.exists(path, w)),
      unlessGone(zk.getData(path)),
    ]);
    const version = read ? read.stat.mzxid : -1;
    if (version === this.adminVersion) return;
    this.adminVersion = version;
    const { policy, problems } = read ? parseAdminPolicy(read.data.toString()) : { policy: EMPTY_POLICY, problems: [] };
    this.admin = policy;
    this.ctx.io.log('policy', { sites: [...policy.sites], priorities: { ...policy.priorities }, problems });
  }

  private async readMember(zk: ZkPort, name: string): Promise<MemberEntry | null> {
    const read = await unlessGone(zk.getData(`${this.ctx.paths.nodes}/${name}`));
    if (!read) return null;
    const raw = read.data.toString();
    const info = parseMemberInfo(name, raw);
    this.sites.set(info.id, info.site);
    return { info, session: read.stat.ephemeralOwner, raw, version: read.stat.version };
  }

  /** Contender id → its lowest election sequence. The names not seen before are read in one pipelined round. */
  private async readSequences(children: readonly string[]): Promise<Map<string, number>> {
    const zk = this.ctx.zk();
    const sorted = sortBySequence(children);
    const unknown = sorted.filter((name) => !this.electionIds.has(name));
    const reads = await Promise.all(
      unknown.map((name) => unlessGone(zk.getData(`${this.ctx.paths.election}/${name}`))),
    );
    unknown.forEach((name, i) => {
      if (reads[i]) this.electionIds.set(name, reads[i].data.toString());
    });
    for (const name of this.electionIds.keys()) if (!children.includes(name)) this.electionIds.delete(name);
    const out = new Map<string, number>();
    for (const name of sorted) {
      const id = this.electionIds.get(name);
      if (id !== undefined && !out.has(id)) out.set(id, sequenceOf(name)!);
    }
    return out;
  }
}
