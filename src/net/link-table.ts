import { LinkProxy } from './link-proxy.js';
import type { MemberDelay, PartitionRule } from '../lab/net-plan.js';
import { computeLinkFaults, validateNetRules } from './partition.js';
import type { LinkInfo, LinkSpec, NetResponses } from './protocol.js';
import { seededRandom } from './seeded-random.js';

/** The request was refused and nothing changed. */
export class InvalidRequestError extends Error {
  override readonly name = 'InvalidRequestError';
}

interface Entry {
  readonly spec: LinkSpec;
  readonly proxy: LinkProxy;
}

/** One member's client links (a contender's, one per server) and how many connections are open on them now. */
export interface ClientMember {
  readonly linkIds: readonly string[];
  readonly open: number;
}

/** Every link proxy of a lab, and the rules and delays that set their faults. */
export class LinkTable {
  private readonly entries = new Map<string, Entry>();
  private rules: readonly PartitionRule[] = [];
  private delays: readonly MemberDelay[] = [];
  private explicitMembers: readonly string[] | undefined;
  /** Seeds every link's jitter when set (drills' --seed); Math.random otherwise. */
  private seed: number | undefined;
  private readonly randoms = new Map<string, () => number>();

  /**
   * On client links only: `onClientLeft` hears of every connection whose connecting side ended or closed,
   * `onSession` of every session a server grants on one.
   */
  constructor(
    private readonly onClientLeft?: (spec: LinkSpec) => void,
    private readonly onSession?: (spec: LinkSpec, session: string, timeoutMs: number) => void,
  ) {}

  /** Starts proxies for new links (current rules apply from the first connection). All or nothing. */
  async add(specs: readonly LinkSpec[]): Promise<NetResponses['add-links']['links']> {
    const ids = new Set<string>();
    const fresh: LinkSpec[] = [];
    const result: { id: string; port: number }[] = [];
    for (const spec of specs) {
      if (ids.has(spec.id)) throw new InvalidRequestError(`link '${spec.id}' appears twice in the request`);
      ids.add(spec.id);
      const existing = this.entries.get(spec.id);
      if (!existing) fresh.push(spec);
      else if (sameLink(existing, spec)) result.push({ id: spec.id, port: existing.proxy.port });
      else
        throw new InvalidRequestError(`link '${spec.id}' already exists with a different definition; remove it first`);
    }
    const faults = computeLinkFaults(fresh, this.rules, this.delays);
    const started: Entry[] = [];
    try {
      for (const spec of fresh) {
        if (this.seed !== undefined) this.randoms.set(spec.id, seededRandom(this.seed, spec.id));
        const client = spec.kind === 'client';
        const onClientLeft = client && this.onClientLeft ? () => this.onClientLeft?.(spec) : undefined;
        const onSession =
          client && this.onSession
            ? (session: string, timeoutMs: number) => this.onSession?.(spec, session, timeoutMs)
            : undefined;
        const proxy = new LinkProxy({
          ...spec,
          fault: faults.get(spec.id),
          random: () => (this.randoms.get(spec.id) ?? Math.random)(),
          onClientLeft,
          onSession,
        });
        try {
          await proxy.start();
        } catch (err) {
          throw new Error(
            `link '${spec.id}' cannot listen on ${spec.listenHost ?? '127.0.0.1'}:${spec.listenPort}: ${(err as Error).message}`,
            { cause: err },
          );
        }
        started.push({ spec, proxy });
      }
    } catch (err) {
      await Promise.all(started.map((e) => e.proxy.stop()));
      throw err;
    }
    for (const e of started) {
      this.entries.set(e.spec.id, e);
      result.push({ id: e.spec.id, port: e.proxy.port });
    }
    return specs.map((s) => result.find((r) => r.id === s.id)!);
  }

  /** Stops the named links' proxies; ids that do not exist are ignored (and not reported as removed). */
  async remove(ids: readonly string[]): Promise<string[]> {
    const gone = ids.flatMap((id) => {
      const e = this.entries.get(id);
      if (!e) return [];
      this.entries.delete(id);
      this.randoms.delete(id);
      return [e];
    });
    await Promise.all(gone.map((e) => e.proxy.stop()));
    return gone.map((e) => e.spec.id);
  }

  /** Replaces rules and delays and applies the resulting fault to every link at once. */
  setRules(
    rules: readonly PartitionRule[],
    delays: readonly MemberDelay[],
    members?: readonly string[],
    seed?: number,
  ): Map<string, LinkInfo['fault']> {
    const effective = members ?? this.linkMembers();
    const errors = validateNetRules(effective, rules, delays);
    if (errors.length > 0) throw new InvalidRequestError(errors.join('; '));
    if (seed !== undefined && seed !== this.seed) {
      this.seed = seed;
      for (const id of this.entries.keys()) this.randoms.set(id, seededRandom(seed, id));
    }
    this.rules = rules;
    this.delays = delays;
    this.explicitMembers = members;
    const faults = computeLinkFaults(
      [...this.entries.values()].map((e) => e.spec),
      rules,
      delays,
    );
    for (const [id, fault] of faults) this.entries.get(id)?.proxy.setFault(fault);
    return faults;
  }

  list(): Omit<NetResponses['list'], 'ok'> {
    const links = [...this.entries.values()].map(({ spec, proxy }) => ({
      ...spec,
      port: proxy.port,
      fault: proxy.fault,
      stats: proxy.stats(),
    }));
    return { links, members: this.explicitMembers ?? this.linkMembers(), rules: this.rules, delays: this.delays };
  }

  /** The members that connect through client links (contenders), by name. */
  clientMembers(): Map<string, ClientMember> {
    const members = new Map<string, ClientMember>();
    for (const { spec, proxy } of this.entries.values()) {
      if (spec.kind !== 'client') continue;
      const m = members.get(spec.from) ?? { linkIds: [], open: 0 };
      members.set(spec.from, { linkIds: [...m.linkIds, spec.id], open: m.open + proxy.stats().open });
    }
    return members;
  }

  async stopAll(): Promise<void> {
    const all = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(all.map((e) => e.proxy.stop()));
  }

  private linkMembers(): string[] {
    const members = new Set<string>();
    for (const { spec } of this.entries.values()) members.add(spec.from).add(spec.to);
    return [...members].sort();
  }
}

function sameLink(existing: Entry, spec: LinkSpec): boolean {
  const a = existing.spec;
  return (
    a.from === spec.from &&
    a.to === spec.to &&
    a.kind === spec.kind &&
    a.listenHost === spec.listenHost &&
    a.targetHost === spec.targetHost &&
    a.targetPort === spec.targetPort &&
    (spec.listenPort === 0 || spec.listenPort === existing.proxy.port)
  );
}
