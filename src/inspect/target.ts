import { UsageError } from '../errors.js';
import { DEFAULT_PATH } from '../contenders/spec.js';
import { connectArg, znodePathArg } from '../validate.js';
import { parseConnectString } from '../connect-string.js';
import type { LabPaths } from '../lab/paths.js';
import { directConnectString, nodeHost, readState } from '../lab/state.js';
import type { ServerTarget } from './source/server-poller.js';

/** What one `zklab inspect` looks at. */
export interface InspectTarget {
  readonly path: string;
  /** Direct client addresses ("host:port,…"): the observer never goes through the lab's link proxies. */
  readonly connect: string;
  readonly servers: readonly ServerTarget[];
  /** The lab whose contenders, processes and event logs are followed; null with --connect and no lab. */
  readonly lab: LabPaths | null;
}

export interface TargetArgs {
  readonly paths: LabPaths;
  readonly path?: string;
  readonly connect?: string;
}

/** Servers of a connect string, named by port when they share a host (what fits the ensemble pane), else host:port. */
export function serversOf(connect: string): ServerTarget[] {
  const parsed = parseConnectString(connect);
  const oneHost = new Set(parsed.map((p) => p.host)).size === 1;
  return parsed.map((p) => ({ ...p, name: oneHost ? String(p.port) : `${p.host}:${p.port}` }));
}

/** The lab, or --connect, or a UsageError saying neither is there. Reads the lab; changes nothing. */
export function resolveInspectTarget(args: TargetArgs): InspectTarget {
  const state = readState(args.paths);
  const hasLab = state !== undefined && (state.servers.length > 0 || state.contenders.length > 0);
  const lab = hasLab ? args.paths : null;
  // Scheduler workers are best seen from their scheduler's root, which shows their election too; a lock contender's
  // path is its lock.
  const latest = state?.contenders.at(-1);
  const path = znodePathArg(args.path ?? latest?.scheduler?.root ?? latest?.path ?? DEFAULT_PATH);
  if (args.connect !== undefined) {
    const connect = connectArg(args.connect);
    return { path, connect, servers: serversOf(connect), lab };
  }
  if (!state || !hasLab) {
    throw new UsageError(
      `there is no lab at ${args.paths.root} to inspect`,
      'start one with `zklab ensemble up`, or inspect any ensemble with --connect HOST:PORT,…',
    );
  }
  if (state.servers.length > 0) {
    const servers = state.servers.map((s) => ({ name: s.name, host: nodeHost(state, s.name), port: s.clientPort }));
    return { path, connect: directConnectString(state), servers, lab };
  }
  if (state.externalConnect)
    return { path, connect: state.externalConnect, servers: serversOf(state.externalConnect), lab };
  throw new UsageError(
    `the lab at ${args.paths.root} has no ensemble and its contenders name none`,
    'start one with `zklab ensemble up`, or give --connect HOST:PORT,…',
  );
}
