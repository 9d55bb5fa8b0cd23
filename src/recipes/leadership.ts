import { unlessGone } from '../zk/errors.js';
import { childPath } from '../zk/paths.js';
import type { ZkPort } from '../zk/port.js';
import { sortBySequence } from './sequence.js';

/**
 * Who leads an election path, by ZooKeeper's facts alone: the one rule behind `kill leader`, drill targets,
 * inspect's marker and the demo. Recipes are told apart by the znodes they leave:
 *   priority     a child `nodes` or `election`: the owner of leader/current leads (PROGRESS or READY alike: it
 *                holds the seat, and a takeover under way is still leadership being taken)
 *   sequential   children with ZooKeeper's 10-digit suffix (zklab, Curator, kazoo): the lowest live one
 *   single-file  an ephemeral `leader` child
 * A sequential election wins over a `leader` child beside it (an application may publish its leader there).
 */
export type ElectionLayout = 'empty' | 'priority' | 'sequential' | 'single-file';

export function electionLayout(children: readonly string[] | null): ElectionLayout {
  if (children === null) return 'empty';
  if (children.includes('nodes') || children.includes('election')) return 'priority';
  if (sortBySequence(children).length > 0) return 'sequential';
  if (children.includes('leader')) return 'single-file';
  return 'sequential';
}

/**
 * How a program run as a contender is judged to lead (`--leader-rule`): `lowest-sequence`, the rule of ZooKeeper's
 * recipe, Curator's LeaderLatch and LeaderSelector, and kazoo's Election and Lock, or `single-node NAME`: whoever
 * owns `<path>/NAME`. The built-in recipes are told apart by their znodes instead (`auto`).
 */
export type LeaderRule =
  | { readonly kind: 'auto' }
  | { readonly kind: 'lowest-sequence' }
  | { readonly kind: 'single-node'; readonly name: string };

export const AUTO_RULE: LeaderRule = { kind: 'auto' };
export const LEADER_RULE_NAMES = ['lowest-sequence', 'single-node NAME'] as const;

/** `lowest-sequence`, `single-node NAME` (also `single-node:NAME`); undefined when it is neither. */
export function parseLeaderRule(text: string): LeaderRule | undefined {
  const [kind, name, ...rest] = text.trim().split(/[\s:=]+/);
  if (kind === 'lowest-sequence' && name === undefined) return { kind };
  if (kind === 'single-node' && name !== undefined && rest.length === 0 && /^[A-Za-z0-9._-]+$/.test(name))
    return { kind, name };
  return undefined;
}

/** The rule as `parseLeaderRule` reads it back. */
export function formatLeaderRule(rule: LeaderRule): string {
  return rule.kind === 'single-node' ? `single-node ${rule.name}` : rule.kind;
}

/** The znodes that may hold leadership, in the order the rule tries them. */
export function leaderCandidates(
  root: string,
  children: readonly string[] | null,
  rule: LeaderRule = AUTO_RULE,
): string[] {
  if (children === null) return [];
  if (rule.kind === 'lowest-sequence') return sortBySequence(children).map((name) => childPath(root, name));
  if (rule.kind === 'single-node') return children.includes(rule.name) ? [childPath(root, rule.name)] : [];
  switch (electionLayout(children)) {
    case 'empty':
      return [];
    case 'priority':
      return [childPath(root, 'leader/current')];
    case 'single-file':
      return [childPath(root, 'leader')];
    case 'sequential':
      return sortBySequence(children).map((name) => childPath(root, name));
  }
}

export interface LeadingZnode {
  readonly znode: string;
  /** Owner session, normalized hex. */
  readonly owner: string;
  readonly layout: ElectionLayout;
}

/**
 * The first candidate that still exists and belongs to a session. `ownerOf` gives a znode's ephemeralOwner
 * ('0' for a persistent one), or null when it is gone (listed by getChildren, deleted since: an expired session).
 */
export function pickLeader(
  root: string,
  children: readonly string[] | null,
  ownerOf: (path: string) => string | null,
  rule: LeaderRule = AUTO_RULE,
): LeadingZnode | null {
  const layout = electionLayout(children);
  for (const znode of leaderCandidates(root, children, rule)) {
    const owner = ownerOf(znode);
    if (owner !== null && owner !== '0') return { znode, owner, layout };
  }
  return null;
}

/** The same rule over a live session: children of `root`, then each candidate's stat in turn. */
export async function readLeader(zk: ZkPort, root: string, rule: LeaderRule = AUTO_RULE): Promise<LeadingZnode | null> {
  const children = await unlessGone(zk.getChildren(root));
  const owners = new Map<string, string | null>();
  for (const znode of leaderCandidates(root, children, rule)) {
    const stat = await zk.exists(znode);
    owners.set(znode, stat?.ephemeralOwner ?? null);
    if (stat && stat.ephemeralOwner !== '0') break;
  }
  return pickLeader(root, children, (p) => owners.get(p) ?? null, rule);
}
