import { setTimeout as sleep } from 'node:timers/promises';
import { sessionsOf } from '../contenders/service.js';
import type { ContenderSpec } from '../contenders/spec.js';
import { DrillLab } from '../drills/lab/drill-lab.js';
import { directConnectString, readState } from '../lab/state.js';
import type { LeaderRule } from '../recipes/leadership.js';
import { ephemeralsBelow } from '../zk/ephemerals.js';
import { openObserver } from '../zk/observer.js';
import { normalizeSessionId } from '../zk/session-id.js';
import type { AuditLab } from './build.js';

/** An election a program keeps: where, and how ZooKeeper's view names its leader there. */
export interface Election {
  readonly path: string;
  readonly rule: LeaderRule;
  /** What it was found from, for the line the audit prints. */
  readonly why: string;
}

/** An ephemeral znode a member owns. */
export interface Owned {
  readonly znode: string;
  readonly member: string;
}

const SEQUENCED = /\d{10}$/;
const parentOf = (znode: string) => znode.slice(0, znode.lastIndexOf('/')) || '/';
const nameOf = (znode: string) => znode.slice(znode.lastIndexOf('/') + 1);

/**
 * The elections the members' ephemeral znodes show. Below one parent: sequential znodes of two members or more are
 * an election by the lowest sequence (a lock or latch all wait in: Curator's LeaderLatch); one sequential znode of
 * one member alone is a lock its holder keeps while the others try without waiting (tooz's leader lock); one plain
 * znode of one member alone is a leader key (Patroni's `/service/<scope>/leader`). Plain znodes of several members
 * below one parent are a membership list, not an election.
 */
export function electionsIn(owned: readonly Owned[]): Election[] {
  const byParent = new Map<string, Owned[]>();
  for (const o of owned) byParent.set(parentOf(o.znode), [...(byParent.get(parentOf(o.znode)) ?? []), o]);
  const out: Election[] = [];
  for (const [path, kids] of [...byParent].sort(([a], [b]) => a.localeCompare(b))) {
    const members = new Set(kids.map((k) => k.member));
    const sequenced = kids.filter((k) => SEQUENCED.test(nameOf(k.znode)));
    const sequencedBy = new Set(sequenced.map((k) => k.member));
    if (sequencedBy.size >= 2)
      out.push({
        path,
        rule: { kind: 'lowest-sequence' },
        why: `sequential znodes of ${sequencedBy.size} members below ${path}`,
      });
    else if (members.size === 1 && kids.length === 1)
      out.push(
        sequenced.length === 1
          ? // A lock its holder alone keeps a znode in, the others trying without waiting (tooz's leader lock).
            { path, rule: { kind: 'lowest-sequence' }, why: `${kids[0]!.znode}, a lock held by ${kids[0]!.member}` }
          : {
              path,
              rule: { kind: 'single-node', name: nameOf(kids[0]!.znode) },
              why: `${kids[0]!.znode}, owned by ${kids[0]!.member} alone`,
            },
      );
  }
  return out;
}

/** How long the members are given, once they joined, to hold what they hold while they run (a leader's key). */
const SETTLE_MS = 3000;

/**
 * Where the members keep their election: they run on a lab of their own for a moment (a member joins once it owns
 * an ephemeral znode anywhere), and their ephemeral znodes are read from ZooKeeper.
 */
export async function discoverElections(
  spec: ContenderSpec,
  members: number,
  lab: AuditLab,
  opts: { readonly signal?: AbortSignal; readonly labDir?: string; readonly zkHome?: string } = {},
): Promise<Election[]> {
  const l = DrillLab.open('audit: where is the election', opts.labDir);
  try {
    await l.up(
      { servers: lab.servers, observers: 0, tick: 200, net: lab.net },
      {
        ...(opts.signal ? { signal: opts.signal } : {}),
        ...(opts.zkHome ? { zkHome: opts.zkHome } : {}),
        ...(lab.hosts ? { hosts: lab.hosts } : {}),
      },
    );
    await l.spawn({ ...spec, path: '/' }, members, opts.signal);
    await sleep(SETTLE_MS, undefined, { signal: opts.signal });
    const state = readState(l.paths)!;
    const sessions = sessionsOf(l.paths, state);
    const memberOf = new Map(
      state.contenders.flatMap((c) => sessions(c.id).map((s) => [normalizeSessionId(s), c.id] as const)),
    );
    const zk = await openObserver(directConnectString(state));
    try {
      const found = await ephemeralsBelow(zk, '/');
      return electionsIn(
        found.flatMap((e) => (memberOf.has(e.owner) ? [{ znode: e.znode, member: memberOf.get(e.owner)! }] : [])),
      );
    } finally {
      await zk.close();
    }
  } finally {
    await l.close();
  }
}
