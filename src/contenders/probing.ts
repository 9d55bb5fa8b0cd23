import { existsSync } from 'node:fs';
import { UsageError } from '../errors.js';
import type { LabPaths } from '../lab/paths.js';
import { pidLockHolder } from '../lab/pid-lock.js';
import { isOurs, spawnDetached } from '../lab/node/procs.js';
import type { ContenderRecord, LabState } from '../lab/state.js';
import { entryPoint } from '../entry-points.js';
import { fillPlaceholders, type PlaceholderValues } from './placeholders.js';
import { fillSpawnPlaceholders, resolveProgram } from './program.js';
import type { ContenderSpec } from './spec.js';

/**
 * Probes: a command zklab runs for each contender, every interval, while its node has a process left; exit 0 says the
 * node acts as the leader now. One prober per lab runs them all (src/contenders/prober.ts), outside every node, so
 * that it keeps asking when a node's agent is dead and its data plane lives on, and a node fault never stops it.
 */
export const PROBER_ENTRY = entryPoint('contenders/prober');

/** The name probes carry in ZKLAB_NODE: clearing the lab finds a probe that outlived its prober. */
export const PROBES_NODE = 'probes';

/**
 * The probe's words with the spawn's placeholders filled in and its program resolved, before the lab changes (a
 * probe that cannot run is bad input).
 */
export async function resolveProbe(spec: ContenderSpec): Promise<readonly string[] | undefined> {
  if (!spec.probe) return undefined;
  try {
    const [command, ...args] = await fillSpawnPlaceholders(spec.probe.argv);
    return [resolveProgram(command!), ...args];
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    throw new UsageError(`probe: ${e.message}`, e.hint);
  }
}

/** A contender's probe as its record keeps it: resolved (resolveProbe), the contender's placeholders filled in. */
export function probeOf(
  spec: ContenderSpec,
  resolved: readonly string[] | undefined,
  c: PlaceholderValues,
): ContenderRecord['probe'] {
  if (!spec.probe || resolved === undefined) return undefined;
  return { argv: [resolved[0]!, ...fillPlaceholders(resolved.slice(1), c)], everyMs: spec.probe.everyMs };
}

/** The lab's prober, if it runs. */
export function proberPid(paths: LabPaths): number | undefined {
  const pid = pidLockHolder(paths.proberPidFile);
  return pid !== undefined && isOurs(pid, [paths.nodeMarker]) ? pid : undefined;
}

/** Starts the lab's prober unless it runs; it leaves by itself once no node with a probe is left. */
export function ensureProber(paths: LabPaths, state: LabState): void {
  if (!state.contenders.some((c) => c.probe) || proberPid(paths) !== undefined) return;
  if (!existsSync(PROBER_ENTRY)) return;
  spawnDetached(process.execPath, ['--max-old-space-size=32', PROBER_ENTRY, paths.nodeMarker], paths.proberLog);
}
