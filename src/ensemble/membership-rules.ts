/** What a membership change must respect before it touches the lab: the lab's state in, a verdict out. */
import { UsageError } from '../errors.js';
import { MAX_SERVERS, serverName } from '../lab/ports.js';
import type { LabState, ServerRecord } from '../lab/state.js';
import { wholeNumber } from '../validate.js';
import { describeLoss, describeRule, ruleMembers } from '../net/partition.js';
import { describeDelay } from '../net/status.js';
import { compareVersions } from './discover.js';

/** ZooKeeper refuses server ids above this when TTL nodes are on (extendedTypesEnabled): the id shares a byte with the TTL marker. */
export const MAX_SERVER_ID_WITH_TTL = 254;
/** Dynamic reconfiguration arrived in ZooKeeper 3.5.0. */
export const MIN_RECONFIG_VERSION = '3.5.0';

/** A refusal when the lab's ZooKeeper predates dynamic reconfiguration; null when it has it (or cannot tell). */
export function reconfigRefusal(version: string | undefined): string | null {
  if (version === undefined || compareVersions(version, MIN_RECONFIG_VERSION) >= 0) return null;
  return `ZooKeeper ${version} has no dynamic reconfiguration (it arrived in ${MIN_RECONFIG_VERSION})`;
}

/**
 * Why a server named by the lab's network faults cannot leave, with the commands that lift them, or null: a rule
 * naming a member that is gone would leave the rules invalid for the next daemon start. A heal lifts partitions
 * alone, `net clear` delays and losses alone.
 */
export function faultRefusal(state: LabState, name: string): { message: string; hint: string } | null {
  const net = state.net;
  if (!net) return null;
  const cuts = net.rules.filter((r) => ruleMembers(r).includes(name)).map(describeRule);
  const slows = [
    ...net.delays.filter((d) => d.member === name).map(describeDelay),
    ...(net.losses ?? []).filter((l) => l.member === name).map(describeLoss),
  ];
  const faults = [...cuts, ...slows];
  if (faults.length === 0) return null;
  const lifts = [
    ...(cuts.length > 0 ? [`\`zklab heal ${name}\``] : []),
    ...(slows.length > 0 ? [`\`zklab net clear ${name}\``] : []),
  ];
  const one = faults.length === 1;
  return {
    message: `${name} is named by ${one ? 'a fault' : 'faults'} of the lab's network: ${faults.join('; ')}`,
    hint: `lift ${one ? 'it' : 'them'} first: ${lifts.join(', then ')}`,
  };
}

/** The server id to add: the one asked for (checked), or the lowest the lab does not use. */
export function chooseServerId(state: LabState, asked: unknown): number {
  const used = new Set(state.servers.map((s) => s.id));
  if (asked !== undefined) {
    const range = `choose an id from 1 to ${MAX_SERVERS}`;
    // A whole number past the lab's range is told why it is refused; anything else gets the one range.
    const beyond = /^\s*\+?\d+\s*$/.test(String(asked)) ? Number(asked) : 0;
    if (beyond > MAX_SERVER_ID_WITH_TTL)
      throw new UsageError(
        `server id ${beyond} is beyond ZooKeeper's limit of ${MAX_SERVER_ID_WITH_TTL} with TTL nodes on (extendedTypesEnabled)`,
        range,
      );
    if (beyond > MAX_SERVERS)
      throw new UsageError(`server id ${beyond} is beyond the ${MAX_SERVERS} servers a lab plans ports for`, range);
    const id = wholeNumber(asked, '--id', 1, MAX_SERVERS, range);
    if (used.has(id))
      throw new UsageError(`${serverName(id)} is already a member of this lab`, 'choose another --id, or leave it out');
    return id;
  }
  for (let id = 1; id <= MAX_SERVERS; id++) if (!used.has(id)) return id;
  throw new UsageError(
    `the lab already runs ${MAX_SERVERS} servers, the most it plans ports for`,
    'remove one first (`zklab ensemble remove zkN`)',
  );
}

/**
 * Why removing `target` must be refused, or null. The new configuration needs two voters (a replicated ensemble
 * never shrinks to a standalone one) and a live majority of its voters, or the reconfiguration could never commit.
 */
export function removalRefusal(
  servers: readonly ServerRecord[],
  target: ServerRecord,
  live: ReadonlySet<string>,
): string | null {
  // An observer's removal leaves the voters as they are; they still need a live majority to commit it.
  const after = servers.filter((s) => s.role !== 'observer' && s.name !== target.name);
  if (target.role !== 'observer' && after.length < 2) {
    const voters = `${after.length} voting server${after.length === 1 ? '' : 's'}`;
    return `removing ${target.name} would leave ${voters}; a replicated ensemble keeps at least 2`;
  }
  const alive = after.filter((s) => live.has(s.name));
  if (alive.length * 2 <= after.length) {
    const dead = after.filter((s) => !live.has(s.name)).map((s) => s.name);
    const down = `${dead.join(', ')} ${dead.length === 1 ? 'is' : 'are'} down`;
    const voters = after.map((s) => s.name).join(', ');
    return `removing ${target.name} would leave the voters ${voters} without a live majority (${down})`;
  }
  return null;
}
