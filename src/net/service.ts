import { UsageError } from '../errors.js';
import { withLabLock } from '../lab/lock.js';
import type { LabPaths } from '../lab/paths.js';
import { requireNetwork, writeState, type LabNetState, type LabState } from '../lab/state.js';
import { emptyNet, labMembers, perDirectionDelays } from './lab-links.js';
import { withDaemon } from './control.js';
import { CUT_MODES, type CutMode } from '../lab/net-plan.js';
import { isNoFault } from './link-types.js';
import * as rules from './partition.js';
import type { LinkInfo } from './protocol.js';
import { networkStatus, type NetworkStatus } from './status.js';
import { applyKernelDelays, applyKernelRules } from './node-faults.js';

/**
 * What the fault kinds (src/faults/kinds/) change the lab's network with: `changeNet`, the one way a rule, a delay
 * or a drop between members is applied (validated before anything is touched: a UsageError leaves the network as
 * it was; applied by the link daemon or each node's kernel; then recorded in the lab state, so that a restarted
 * daemon gets it back), the checks of what a fault names, and the network's listing. Each kind records its own
 * line in the lab's event log.
 */

// Loaded for a lab on hosts alone: its SSH channel (execa) costs every other command ~70 ms of start-up.
const hostFaults = () => import('./host-faults.js');

export function parseMode(mode: string | undefined): CutMode {
  const m = mode ?? 'blackhole';
  if (!(CUT_MODES as readonly string[]).includes(m)) {
    throw new UsageError(
      `unknown mode "${m}"`,
      'use --mode blackhole (silence, sockets stay open; the default) or --mode reject (connections reset)',
    );
  }
  return m as CutMode;
}

/** Refuses a delay or jitter outside 0..MAX_DELAY_MS; bad input is refused before anything is asked or touched. */
export function checkMs(what: string, v: number): void {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > rules.MAX_DELAY_MS) {
    throw new UsageError(
      `${what} must be a number of milliseconds from 0 to ${rules.MAX_DELAY_MS}, got ${String(v)}`,
      'e.g. `zklab net delay c1 300 --jitter 50`',
    );
  }
}

/**
 * Validates the next network against the lab, has it applied (by the link daemon, or on the node network by the
 * kernel), then records it. All under the lab lock. The one way a fault changes the lab's network.
 */
export async function changeNet(paths: LabPaths, change: (net: LabNetState) => LabNetState): Promise<LabNetState> {
  return withLabLock(paths, async () => {
    const state = requireNetwork(paths);
    const before = state.net ?? emptyNet();
    const next = change(before);
    const members = labMembers(state);
    const errors = rules.validateNetRules(members, next.rules, next.delays);
    if (errors.length > 0) throw new UsageError(errors.join('; '), membersHint(state));
    if (state.hosts) {
      await (await hostFaults()).applyHostRules(paths, state, next);
    } else if (state.nodeNet) {
      applyKernelDelays(paths, state, next, before);
      applyKernelRules(paths, state, next);
    } else {
      await withDaemon(paths, (ctl) =>
        ctl.request({ op: 'set-rules', rules: next.rules, delays: perDirectionDelays(next.delays), members }),
      );
    }
    state.net = next;
    writeState(paths, state);
    return next;
  });
}

/** What a network fault can name, for hints. */
function membersHint(state: LabState): string {
  return `members: ${labMembers(state).join(', ')}; or leader, zk-leader`;
}

/** Refuses a name that is no member of the lab (aliases such as `leader` are resolved in src/faults/). */
export function requireMember(state: LabState, name: string): string {
  if (!labMembers(state).includes(name)) throw new UsageError(`unknown target "${name}"`, membersHint(state));
  return name;
}

export interface NetListing extends NetworkStatus {
  /** Links whose fault is not a plain pass, as the daemon reports them (empty when it is not running). */
  readonly faultyLinks: readonly LinkInfo[];
  readonly linkCount: number;
}

export async function listNetwork(paths: LabPaths): Promise<NetListing> {
  const state: LabState = requireNetwork(paths);
  const status = await networkStatus(paths, state);
  if (!status.daemon.running) return { ...status, faultyLinks: [], linkCount: 0 };
  const { links } = await withDaemon(paths, (ctl) => ctl.request({ op: 'list' }));
  const faultyLinks = links.filter((l) => !isNoFault(l.fault));
  return { ...status, faultyLinks, linkCount: links.length };
}
