import { isRecord } from '../validate.js';

/**
 * The administrator's part of the priority election (seed 002, 3.9): a znode `<path>/policy` any ZooKeeper client
 * may write, JSON `{"sites": ["b", "a"], "priorities": {"c3": 50}}`. `sites` orders the sites, most preferred
 * first (sites not listed come after, in no order among themselves); `priorities` overrides the priority a
 * contender registered with. The elector watches it and elects again on every change.
 */
export interface AdminPolicy {
  readonly sites: readonly string[];
  readonly priorities: Readonly<Record<string, number>>;
}

export const EMPTY_POLICY: AdminPolicy = { sites: [], priorities: {} };

export function policyPath(root: string): string {
  return `${root}/policy`;
}

/**
 * Reads the znode's data leniently: what is malformed is left out (the elector must not stop electing over a hand
 * edit), and `problems` says what, for the elector's log and `priority show`.
 */
export function parseAdminPolicy(text: string): { policy: AdminPolicy; problems: string[] } {
  const problems: string[] = [];
  if (text.trim() === '') return { policy: EMPTY_POLICY, problems };
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return { policy: EMPTY_POLICY, problems: ['the policy is not JSON; ignored'] };
  }
  if (!isRecord(v)) return { policy: EMPTY_POLICY, problems: ['the policy is not a JSON object; ignored'] };
  const sites: string[] = [];
  if (v.sites !== undefined) {
    if (Array.isArray(v.sites)) {
      for (const s of v.sites) {
        if (typeof s === 'string' && s !== '' && !sites.includes(s)) sites.push(s);
        else problems.push(`sites: ${JSON.stringify(s)} ignored (a site is a non-empty name, listed once)`);
      }
    } else problems.push('sites is not a list; ignored');
  }
  const priorities: [string, number][] = [];
  if (v.priorities !== undefined) {
    if (isRecord(v.priorities)) {
      for (const [id, p] of Object.entries(v.priorities)) {
        if (id === '') problems.push('priorities: an empty id ignored');
        else if (typeof p === 'number' && Number.isInteger(p)) priorities.push([id, p]);
        else problems.push(`priorities.${id}: ${JSON.stringify(p)} ignored (a priority is a whole number)`);
      }
    } else problems.push('priorities is not an object; ignored');
  }
  // fromEntries defines each id as a property of its own, whatever its name (even __proto__).
  return { policy: { sites, priorities: Object.fromEntries(priorities) }, problems };
}

export function serializeAdminPolicy(p: AdminPolicy): string {
  return JSON.stringify({ sites: p.sites, priorities: p.priorities });
}

/** The policy with `site` first (the rest keep their order): "move the leader to another site". */
export function preferSite(p: AdminPolicy, site: string, known: readonly string[]): AdminPolicy {
  const rest = [...new Set([...p.sites, ...known])].filter((s) => s !== site);
  return { ...p, sites: [site, ...rest] };
}

export function withPriority(p: AdminPolicy, id: string, priority: number): AdminPolicy {
  return {
    ...p,
    priorities: Object.fromEntries([...Object.entries(p.priorities).filter(([k]) => k !== id), [id, priority]]),
  };
}
