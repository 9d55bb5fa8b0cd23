import { readFileSync, renameSync, writeFileSync, existsSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { dirname } from 'node:path';
import type { ContainmentKind } from './node/containment.js';
import type { NetMode, NodeNet } from './node/net.js';
import type { LabPaths } from './paths.js';
import { ensureDir } from './fs.js';
import type { MemberDelay, MemberLoss, PartitionRule } from './net-plan.js';
import { parseConnectString } from '../connect-string.js';
import type { ServerRole } from './ports.js';

export interface ServerRecord {
  readonly id: number;
  readonly name: string;
  readonly clientPort: number;
  readonly quorumPort: number;
  readonly electionPort: number;
  /** Absent: a voting participant (labs from before observers). */
  readonly role?: ServerRole;
  pid?: number;
}

export interface ContenderRecord {
  readonly id: string;
  pid?: number;
  readonly recipe: string;
  readonly path: string;
  readonly priority?: number;
  readonly site?: string;
  /** priority recipe: false when spawned with --no-preempt. */
  readonly preempt?: boolean;
  /** priority recipe: how its elector chooses (priority, site, first, round-robin). */
  readonly policy?: string;
  readonly sessionTimeoutMs: number;
  readonly startedAt: number;
  stoppedAt?: number;
  /** Programs run as contenders: how ZooKeeper's view says who leads (src/recipes/leadership.ts reads it). */
  readonly leaderRule?: string;
  /** Programs run as contenders: the command line as given (placeholders not filled in). */
  readonly program?: readonly string[];
  /** The scheduler workload: this contender is a worker of the scheduler at `root` (its election is `path`). */
  readonly scheduler?: { readonly root: string; readonly strategy: string; readonly statusTtlMs: number };
  /** `--via observers`: the contender connects to the lab's observers only (read scaling, as clients of observers). */
  readonly via?: ContenderVia;
  /** The lock workload: this contender loops on the lock at `path`, writing to its protected resource. */
  readonly lock?: { readonly holdMs: number; readonly thinkMs: number; readonly fencing: boolean };
  /** Its probe, placeholders filled in, the program resolved; run by the lab's prober (src/contenders/probing.ts). */
  readonly probe?: { readonly argv: readonly string[]; readonly everyMs: number };
}

/** A server of an ensemble zklab did not start (`--connect`): faults only act on the links to it. */
export interface ExternalServer {
  readonly name: string;
  readonly host: string;
  readonly port: number;
}

export const CONTENDER_VIA = ['all', 'observers'] as const;
/** Which of the lab's servers a contender connects to: all (the default) or the observers only. */
export type ContenderVia = (typeof CONTENDER_VIA)[number];

/**
 * Where a contender's links lead: the lab's own servers (only its observers with `via` observers), or the servers
 * of the ensemble it was pointed at.
 */
export function upstreams(
  state: LabState,
  via: ContenderVia = 'all',
): { readonly name: string; readonly host: string; readonly port: number }[] {
  const servers = via === 'observers' ? state.servers.filter((s) => s.role === 'observer') : state.servers;
  if (state.servers.length > 0)
    return servers.map((s) => ({ name: s.name, host: nodeHost(state, s.name), port: s.clientPort }));
  return state.external ?? [];
}

/** `host:port,…` as external servers x1..xN (validated by the caller); IPv6 literals keep their brackets off. */
export function externalServers(connect: string): ExternalServer[] {
  return parseConnectString(connect).map((s, i) => ({ name: `x${i + 1}`, ...s }));
}

export function emptyState(): LabState {
  return {
    version: 1,
    createdAt: new Date().toISOString(),
    tickMs: 0,
    basePort: 0,
    zkHome: '',
    servers: [],
    contenders: [],
    nextContender: 1,
  };
}

export interface LabState {
  version: 1;
  createdAt: string;
  tickMs: number;
  basePort: number;
  zkHome: string;
  servers: ServerRecord[];
  contenders: ContenderRecord[];
  /** Contender ids keep counting up across spawns and stops. */
  nextContender: number;
  /** Set when contenders were pointed at an ensemble outside the lab with --connect. */
  externalConnect?: string;
  /** That ensemble's servers, named x1..xN: each contender reaches each through a link proxy of its own. */
  external?: ExternalServer[];
  /** The lab network as asked for, so a restarted link daemon gets it back (src/net/ gives it meaning). */
  net?: LabNetState;
  /** How the lab holds its nodes (src/lab/node/containment.ts) and where its control groups are, chosen when it was made. */
  containment?: { readonly kind: ContainmentKind; readonly base: string };
  /**
   * `ns`: every node of the lab in a network namespace of its own on the lab's bridge, at an address of the lab's
   * /24 (src/lab/node/net.ts); absent: the link proxies of src/net/ (`proxy`).
   */
  nodeNet?: NodeNet;
  /** A lab on hosts reached over SSH (src/hosts/): where each node runs; absent: this machine. */
  hosts?: LabHosts;
}

/** A machine of a lab on hosts, as its hosts file names it (src/hosts/hosts-file.ts reads it). */
export interface LabHost {
  readonly name: string;
  readonly user: string;
  readonly host: string;
  readonly port: number;
  /** The private key, an absolute path. */
  readonly key: string;
  /** The address the lab's nodes use on it. */
  readonly addr: string;
}

export interface LabHosts {
  readonly file: string;
  readonly knownHosts: string;
  readonly hosts: readonly LabHost[];
  /** Node name → host name. */
  readonly place: Readonly<Record<string, string>>;
  /** Where `--place` puts contenders (cN → host) when they are spawned. */
  readonly asked?: Readonly<Record<string, string>>;
  /** The lab's directory on every host. */
  readonly dir: string;
  /** Set by a `down` that left nothing on any host; cleared when servers start there again. */
  readonly clean?: boolean;
}

/** Where a lab's members run and how they reach each other: its link proxies, its node network, or hosts. */
export type LabNetMode = NetMode | 'hosts';

/** How the lab's members reach each other: `hosts` on hosts, `ns` when its nodes have networks of their own, else `proxy`. */
export const netModeOf = (state: Pick<LabState, 'nodeNet' | 'hosts'> | undefined): LabNetMode =>
  state?.hosts ? 'hosts' : state?.nodeNet ? 'ns' : 'proxy';

/** The host a node of a lab on hosts runs on. */
export function hostOf(state: Pick<LabState, 'hosts'>, node: string): LabHost | undefined {
  const name = state.hosts?.place[node];
  return name === undefined ? undefined : state.hosts?.hosts.find((h) => h.name === name);
}

/** Where a node of the lab is reached: its host's address, its address on the lab's bridge, or loopback. */
export function nodeHost(state: Pick<LabState, 'nodeNet' | 'hosts'>, name: string): string {
  return hostOf(state, name)?.addr ?? state.nodeNet?.addrs[name] ?? '127.0.0.1';
}

export interface LabNetState {
  rules: PartitionRule[];
  /** As the user gave them: added round-trip latency per member. */
  delays: MemberDelay[];
  /** Each contender's own proxy port towards each server: contender id → server name → port. */
  contenderPorts: Record<string, Record<string, number>>;
  /** Seeds the links' delay jitter (a drill's --seed), so a run can be repeated; absent: unseeded. */
  seed?: number;
  /** The node network only: a fraction of each member's packets dropped at random. */
  losses?: MemberLoss[];
}

export function readState(paths: LabPaths): LabState | undefined {
  if (!existsSync(paths.stateFile)) return undefined;
  const raw = readFileSync(paths.stateFile, 'utf8');
  const parsed = JSON.parse(raw) as LabState;
  parsed.contenders ??= [];
  parsed.nextContender ??= parsed.contenders.length + 1;
  return parsed;
}

/** The state, or undefined when there is none or it cannot be read (a lab being removed, a broken state file). */
export function readStateIfAny(paths: LabPaths): LabState | undefined {
  try {
    return readState(paths);
  } catch {
    return undefined;
  }
}

/** Writes through a temporary file and a rename, so a crash never leaves half a state file. */
export function writeState(paths: LabPaths, state: LabState): void {
  ensureDir(dirname(paths.stateFile));
  const tmp = `${paths.stateFile}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(state, null, 2)}\n`);
  renameSync(tmp, paths.stateFile);
}

export function serverByName(state: LabState, name: string): ServerRecord | undefined {
  return state.servers.find((s) => s.name === name);
}

/** The lab's state, or a UsageError telling the user to create one. Never creates anything. */
export function requireState(paths: LabPaths): LabState {
  const state = readState(paths);
  if (!state || (state.servers.length === 0 && state.contenders.length === 0)) {
    throw new UsageError(
      `there is no lab at ${paths.root}`,
      'start one with `zklab ensemble up` (or point at yours with --lab DIR / ZKLAB_LAB)',
    );
  }
  return state;
}

/** The lab's state when it has an ensemble of its own; a UsageError otherwise. */
export function requireEnsemble(paths: LabPaths): LabState {
  const state = requireState(paths);
  if (state.servers.length === 0) {
    throw new UsageError(
      `the lab at ${paths.root} has no ensemble of its own (its contenders use --connect ${state.externalConnect ?? ''})`.trim(),
      'start one with `zklab ensemble up`',
    );
  }
  return state;
}

/** The lab's state when its contenders' links can be cut: it has an ensemble of its own, or one it was pointed at. */
export function requireNetwork(paths: LabPaths): LabState {
  const state = requireState(paths);
  if (state.servers.length === 0 && !state.external?.length) {
    throw new UsageError(
      `the lab at ${paths.root} has no network of its own (its contenders connect to ${state.externalConnect ?? 'nothing'} directly)`,
      'start an ensemble with `zklab ensemble up`, or spawn contenders with --connect',
    );
  }
  return state;
}

/** Lab servers as a connect string: each at its host (loopback unless it has an address of its own). */
export function serversConnectString(
  servers: readonly { readonly clientPort: number; readonly host?: string }[],
): string {
  return servers.map((s) => `${s.host ?? '127.0.0.1'}:${s.clientPort}`).join(',');
}

/** Where observers and contenders reach the ensemble directly. */
export function directConnectString(state: LabState, via: ContenderVia = 'all'): string {
  if (state.servers.length === 0) return state.externalConnect ?? '';
  const servers = via === 'observers' ? state.servers.filter((s) => s.role === 'observer') : state.servers;
  return serversConnectString(servers.map((s) => ({ clientPort: s.clientPort, host: nodeHost(state, s.name) })));
}
