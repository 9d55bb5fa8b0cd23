import { electorDecision, type ElectorMember, type ElectorView } from '../../../src/recipes/priority-decisions.js';

/** A member as the elector sees it; its session is `s-<id>`. */
export const member = (id: string, priority: number, sequence: number, site: string | null = null): ElectorMember => ({
  id,
  priority,
  sequence,
  site,
  session: `s-${id}`,
});

/** c1 (priority 1, site a, oldest), c2 (9, b), c3 (5, a). */
export const MEMBERS = [member('c1', 1, 0, 'a'), member('c2', 9, 1, 'b'), member('c3', 5, 2, 'a')];

/** leader/current held by `id`'s session. */
export const held = (id: string, ready: boolean) => ({ ownerSession: `s-${id}`, ready });

/** The elector's move on MEMBERS under the priority policy, nothing elected or held unless `v` says so. */
export const decide = (v: Partial<ElectorView>) =>
  electorDecision({
    policy: 'priority',
    members: MEMBERS,
    elected: null,
    current: null,
    excluded: new Set(),
    watchdogFired: null,
    previousLeader: null,
    previousSite: null,
    ...v,
  });
