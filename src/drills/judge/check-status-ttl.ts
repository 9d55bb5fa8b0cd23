import { formatDuration, formatOffset } from '../../duration.js';
import type { CheckDetail, CheckResult } from './check-types.js';
import type { History } from './history.js';
import { TTL_REAPER_INTERVAL_MS as REAPER_INTERVAL_MS } from '../../ensemble/jvm.js';
import { duration, strict } from '../core/zod-helpers.js';
import { type Checker, needsScheduler } from './checker.js';

export const DEFAULT_TTL_SLACK_MS = 2000;

/** One status znode as the drill's sampler saw it: from the first listing that had it to the first that did not. */
interface StatusNode {
  readonly path: string;
  readonly job: string;
  readonly seenAt: number;
  readonly ctime: number;
  readonly ttlMs: number | null;
  goneAt: number | null;
}

function statusNodes(h: History): StatusNode[] {
  const open = new Map<string, StatusNode>();
  const out: StatusNode[] = [];
  for (const e of h.lab) {
    if (e.event !== 'status-seen' && e.event !== 'status-gone') continue;
    const key = `${e.path}\u0000${e.job}`;
    const node = open.get(key);
    if (e.event === 'status-seen' && !node) {
      const n: StatusNode = { path: e.path, job: e.job, seenAt: e.t, ctime: e.ctime, ttlMs: e.ttlMs, goneAt: null };
      open.set(key, n);
      out.push(n);
    } else if (e.event === 'status-gone' && node) {
      node.goneAt = e.t;
      open.delete(key);
    }
  }
  return out;
}

/**
 * A finished job's status node is a TTL znode: it must go once its TTL has run out, give or take one run of the
 * servers' reaper and `slack` (the sampler's own delay among it). Only nodes whose deadline passed during the drill
 * (or that went) are judged; a drill in which none did has not shown anything and fails.
 */
export function checkStatusTtl(h: History, options: { readonly slack?: number } = {}): CheckResult {
  const slack = options.slack ?? DEFAULT_TTL_SLACK_MS;
  const nodes = statusNodes(h);
  const at = (t: number) => formatOffset(t, h.start);
  const bound = (ttl: number) =>
    `its TTL ${formatDuration(ttl)} + ${formatDuration(REAPER_INTERVAL_MS)} reaper interval + ${formatDuration(slack)} slack`;
  const details: CheckDetail[] = [];
  let judged = 0;
  let worstOver: number | null = null;
  for (const n of nodes) {
    const name = `status of ${n.job}`;
    if (n.ttlMs === null) {
      judged++;
      details.push({
        level: 'violation',
        t: n.seenAt,
        message: `${name} (seen ${at(n.seenAt)}) carries no TTL in its data: nothing says when it should go`,
      });
      continue;
    }
    const deadline = n.ctime + n.ttlMs + REAPER_INTERVAL_MS + slack;
    if (n.goneAt !== null) {
      judged++;
      const lifetime = n.goneAt - n.ctime;
      worstOver = Math.max(worstOver ?? -Infinity, lifetime - n.ttlMs);
      if (n.goneAt > deadline) {
        details.push({
          level: 'violation',
          t: n.goneAt,
          message: `${name} went ${formatDuration(lifetime)} after its creation at ${at(n.ctime)}, later than ${bound(n.ttlMs)}`,
        });
      } else if (lifetime < n.ttlMs) {
        details.push({
          level: 'warning',
          t: n.goneAt,
          message:
            `${name} went ${formatDuration(lifetime)} after its creation, ` +
            `before its TTL ${formatDuration(n.ttlMs)} was up (deleted rather than reaped?)`,
        });
      }
    } else if (deadline <= h.end) {
      judged++;
      details.push({
        level: 'violation',
        t: deadline,
        message:
          `${name} was still there at the end, ${formatDuration(h.end - n.ctime)} after its creation ` +
          `at ${at(n.ctime)}, later than ${bound(n.ttlMs)}`,
      });
    }
  }
  const measurements = [
    { name: 'status nodes judged', value: judged, unit: 'count' as const },
    { name: 'longest life beyond the TTL', value: worstOver, unit: 'ms' as const },
  ];
  if (judged === 0) {
    const message =
      nodes.length === 0
        ? 'no status node was seen: nothing to judge (submit jobs and let them finish)'
        : `none of the ${nodes.length} status node(s) seen outlived its TTL during the drill: the drill must ` +
          `outlast the TTL (+ ${formatDuration(REAPER_INTERVAL_MS + slack)}) after the last job is done (add a sleep)`;
    return {
      name: 'statusTtl',
      passed: false,
      summary: message,
      details: [...details, { level: 'violation', message }],
      measurements,
    };
  }
  const violations = details.filter((d) => d.level === 'violation').length;
  return {
    name: 'statusTtl',
    passed: violations === 0,
    summary:
      violations === 0
        ? `${judged} status node(s) went in time, at most ${formatDuration(Math.max(0, worstOver ?? 0))} past their TTL`
        : `${violations} of ${judged} status node(s) outlived their TTL + ${formatDuration(REAPER_INTERVAL_MS + slack)} or carried none`,
    details,
    measurements,
  };
}

const options = strict({ slack: duration().optional() });

export const statusTtlChecker: Checker<'statusTtl', typeof options> = {
  name: 'statusTtl',
  options,
  needs: needsScheduler,
  run: (h, opts) => checkStatusTtl(h, opts),
};
