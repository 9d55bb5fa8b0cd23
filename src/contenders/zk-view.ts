import type { ContenderRecord } from '../lab/state.js';
import { readLeader, type LeadingZnode } from '../recipes/leadership.js';
import { ephemeralsBelow } from '../zk/ephemerals.js';
import type { ZkPort } from '../zk/port.js';
import { normalizeSessionId } from '../zk/session-id.js';
import { ruleOf } from './leader-rule.js';
import { runsProgram } from './spec.js';

/** What ZooKeeper says of one contender, beside what it says of itself. */
export interface ZkContenderView {
  /** It owns the leading znode of its election path, by the path's leader rule. */
  readonly leads: boolean;
  /** The ephemeral znodes under its election path that one of its sessions owns (a program's: at any depth). */
  readonly znodes: readonly string[];
}

/**
 * ZooKeeper's view of each contender: the znodes its sessions own under its path and whether it leads. `sessionsOf`
 * gives every session a contender has had (its own log and the link daemon's record of its connections).
 */
export async function readZkView(
  zk: ZkPort,
  records: readonly ContenderRecord[],
  sessionsOf: (id: string) => readonly string[],
): Promise<Map<string, ZkContenderView>> {
  const owner = new Map<string, string>();
  for (const r of records) for (const s of sessionsOf(r.id)) owner.set(normalizeSessionId(s), r.id);
  const znodes = new Map<string, string[]>(records.map((r) => [r.id, []]));
  const leaders = new Set<string>();
  for (const path of new Set(records.map((r) => r.path))) {
    // zklab's recipes keep their znodes right under the path; a program may keep them deeper (<path>/members/<id>).
    const deep = records.some((r) => r.path === path && runsProgram(r.recipe));
    for (const e of await ephemeralsBelow(zk, path, deep ? {} : { depth: 1 })) {
      const id = owner.get(e.owner);
      if (id) znodes.get(id)!.push(e.znode);
    }
    const lead = await readLeader(zk, path, ruleOf(records, path));
    const id = lead && owner.get(lead.owner);
    if (id) leaders.add(id);
  }
  return new Map(records.map((r) => [r.id, { leads: leaders.has(r.id), znodes: znodes.get(r.id)! }]));
}

/** Who leads one election path by ZooKeeper's state: the leading znode, and the contender whose session owns it. */
export interface PathLeader extends LeadingZnode {
  readonly path: string;
  /** null: a session no contender of the lab owns (another client). */
  readonly contender: ContenderRecord | null;
}

/** The leader of each election path of `records` (nobody: left out), by the paths' leader rules. */
export async function readPathLeaders(
  zk: ZkPort,
  records: readonly ContenderRecord[],
  sessionsOf: (id: string) => readonly string[],
): Promise<PathLeader[]> {
  const out: PathLeader[] = [];
  for (const path of new Set(records.map((r) => r.path))) {
    const lead = await readLeader(zk, path, ruleOf(records, path));
    if (!lead) continue;
    const contender = records.find((r) => sessionsOf(r.id).some((s) => normalizeSessionId(s) === lead.owner)) ?? null;
    out.push({ ...lead, path, contender });
  }
  return out;
}
