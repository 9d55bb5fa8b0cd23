import {
  type CutMode,
  type DirectedRule,
  type IsolateRule,
  isDirected,
  type MemberDelay,
  type MemberLoss,
  type PartitionRule,
  type SplitRule,
} from '../lab/net-plan.js';
import { isNoFault, NO_FAULT, type LinkFault, type LinkRef } from './link-types.js';

/**
 * Partition rules and per-member delays, and the fault each link gets from them. Pure: no sockets, no clocks.
 * Members are names such as `zk1` or `c3`; a link is cut when some rule separates its two ends.
 */

export const MAX_DELAY_MS = 60_000;

export function isolate(member: string, mode: CutMode = 'blackhole'): IsolateRule {
  return { type: 'isolate', member, mode };
}

export function split(groups: readonly (readonly string[])[], mode: CutMode = 'blackhole'): SplitRule {
  return { type: 'split', groups, mode };
}

/** Cuts `from`'s packets to `to`; `to`'s to `from` still flow. The node network only. `type`: the kind's name. */
export function directed(type: string, from: string, to: string, mode: CutMode = 'blackhole'): DirectedRule {
  return { type, from, to, mode };
}

/** Every member a rule names. */
export function ruleMembers(rule: PartitionRule): string[] {
  if (isDirected(rule)) return [rule.from, rule.to];
  if (rule.type === 'isolate') return [rule.member];
  return rule.groups.flat();
}

export function delay(member: string, delayMs: number, jitterMs = 0): MemberDelay {
  return { member, delayMs, jitterMs };
}

/** The groups of a split, the implicit one (every member not named) last when it is not empty. */
export function splitGroups(rule: SplitRule, members: readonly string[]): string[][] {
  const named = new Set(rule.groups.flat());
  const rest = members.filter((m) => !named.has(m));
  const groups = rule.groups.map((g) => [...g]);
  return rest.length > 0 ? [...groups, rest] : groups;
}

export function validateRule(rule: PartitionRule, members: readonly string[]): string[] {
  const known = new Set(members);
  const errors: string[] = [];
  const unknown = (m: string): void => {
    if (!known.has(m)) errors.push(`unknown member '${m}' (members: ${members.join(', ') || 'none'})`);
  };
  if (rule.mode !== 'blackhole' && rule.mode !== 'reject')
    errors.push(`unknown mode '${String(rule.mode)}' (blackhole or reject)`);
  if (isDirected(rule)) {
    unknown(rule.from);
    unknown(rule.to);
    if (rule.from === rule.to) errors.push(`a ${rule.type} rule needs two members, got '${rule.from}' twice`);
    return errors;
  }
  if (rule.type === 'isolate') {
    unknown(rule.member);
    return errors;
  }
  const groupOf = new Map<string, number>();
  rule.groups.forEach((group, i) => {
    if (group.length === 0) errors.push(`group ${i + 1} is empty`);
    for (const m of group) {
      unknown(m);
      const seen = groupOf.get(m);
      if (seen === i) errors.push(`member '${m}' is listed twice in group ${i + 1}`);
      else if (seen !== undefined) errors.push(`member '${m}' is in two groups (${seen + 1} and ${i + 1})`);
      else groupOf.set(m, i);
    }
  });
  const count = splitGroups(rule, members).filter((g) => g.length > 0).length;
  if (count < 2) errors.push(`a split needs at least two groups, got ${count} (members not named form one more group)`);
  return errors;
}

export function validateDelay(d: MemberDelay, members: readonly string[]): string[] {
  const errors: string[] = [];
  if (!members.includes(d.member))
    errors.push(`unknown member '${d.member}' (members: ${members.join(', ') || 'none'})`);
  for (const [name, v] of [
    ['delay', d.delayMs],
    ['jitter', d.jitterMs],
  ] as const) {
    if (!Number.isFinite(v) || v < 0 || v > MAX_DELAY_MS)
      errors.push(`${name} ${v} ms for '${d.member}' is outside 0..${MAX_DELAY_MS} ms`);
  }
  return errors;
}

/** Every problem with a whole rule set; empty when it can be applied. */
export function validateNetRules(
  members: readonly string[],
  rules: readonly PartitionRule[],
  delays: readonly MemberDelay[],
): string[] {
  return [...rules.flatMap((r) => validateRule(r, members)), ...delays.flatMap((d) => validateDelay(d, members))];
}

/** True when `rule` separates `a` from `b`. Ends that are not members count as part of a split's implicit group. */
export function ruleCuts(rule: PartitionRule, a: string, b: string): boolean {
  if (a === b) return false;
  if (isDirected(rule)) return a === rule.from && b === rule.to;
  if (rule.type === 'isolate') return a === rule.member || b === rule.member;
  const groupIndex = (m: string): number => {
    const i = rule.groups.findIndex((g) => g.includes(m));
    return i === -1 ? rule.groups.length : i;
  };
  return groupIndex(a) !== groupIndex(b);
}

/**
 * The fault of every link: cut when any rule separates its ends (the last such rule decides blackhole or reject,
 * so a later rule can sharpen an earlier one), delayed by the sum of its two ends' delays, as if each member had
 * its own slow network interface. Links nothing applies to get NO_FAULT.
 */
export function computeLinkFaults<L extends Pick<LinkRef, 'id' | 'from' | 'to'>>(
  links: readonly L[],
  rules: readonly PartitionRule[],
  delays: readonly MemberDelay[],
): Map<string, LinkFault> {
  const delayOf = new Map(delays.map((d) => [d.member, d]));
  const faults = new Map<string, LinkFault>();
  for (const link of links) {
    const cutter = rules.findLast((r) => ruleCuts(r, link.from, link.to));
    const ends = link.from === link.to ? [link.from] : [link.from, link.to];
    const delayMs = ends.reduce((sum, m) => sum + (delayOf.get(m)?.delayMs ?? 0), 0);
    const jitterMs = ends.reduce((sum, m) => sum + (delayOf.get(m)?.jitterMs ?? 0), 0);
    const fault: LinkFault = { mode: cutter?.mode ?? 'pass', delayMs, jitterMs };
    faults.set(link.id, isNoFault(fault) ? NO_FAULT : fault);
  }
  return faults;
}

/**
 * The rules left after healing `target`: its own isolation and every split that cuts it off (a split as a whole)
 * are lifted; other members' isolations stay, although they cut `target` off from those members too. None are left
 * without a target.
 */
export function healRules(
  rules: readonly PartitionRule[],
  members: readonly string[],
  target?: string,
): PartitionRule[] {
  if (target === undefined) return [];
  const lifts = (r: PartitionRule): boolean =>
    !isDirected(r) && r.type === 'split'
      ? members.some((m) => ruleCuts(r, target, m))
      : ruleMembers(r).includes(target);
  return rules.filter((r) => !lifts(r));
}

/** Sets one member's delay, replacing any earlier one; a zero delay and jitter removes it. */
export function setDelay(delays: readonly MemberDelay[], d: MemberDelay): MemberDelay[] {
  const others = delays.filter((x) => x.member !== d.member);
  return d.delayMs === 0 && d.jitterMs === 0 ? others : [...others, d];
}

export function clearDelays(delays: readonly MemberDelay[], target?: string): MemberDelay[] {
  return target === undefined ? [] : delays.filter((d) => d.member !== target);
}

/** One line for humans: `isolate zk1 (blackhole)`, `split zk1,zk2 | zk3 (reject)`, `<type> c1 → c2 (blackhole)`. */
export function describeRule(rule: PartitionRule): string {
  const what = isDirected(rule)
    ? `${rule.type} ${rule.from} → ${rule.to}`
    : rule.type === 'isolate'
      ? `isolate ${rule.member}`
      : `split ${rule.groups.map((g) => g.join(',')).join(' | ')}`;
  return `${what} (${rule.mode})`;
}

/** Sets one member's packet loss, replacing any earlier one; 0 removes it. */
export function setLoss(losses: readonly MemberLoss[], l: MemberLoss): MemberLoss[] {
  const others = losses.filter((x) => x.member !== l.member);
  return l.percent === 0 ? others : [...others, l];
}

export function clearLosses(losses: readonly MemberLoss[], target?: string): MemberLoss[] {
  return target === undefined ? [] : losses.filter((l) => l.member !== target);
}

export const describeLoss = (l: MemberLoss): string => `loss ${l.member} ${l.percent}%`;
