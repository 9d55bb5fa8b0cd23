import { isPaused, killNodes, newLabContainment } from '../lab/nodes.js';
import {
  ensureNodeNetwork,
  freeSubnet,
  netModeArg,
  type NetMode,
  nodeNetProblem,
  removeLabNet,
  serverAddr,
} from '../lab/node/net.js';
import { endLabProcesses, removeLabEntries } from '../lab/clear.js';
import { formatDuration } from '../duration.js';
import { existsSync, readdirSync, rmdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ProcessError, UsageError } from '../errors.js';
import type { HostsRequest } from '../hosts/hosts-file.js';
// A lab on hosts loads its part when it runs: its SSH channel (execa) costs every other command ~70 ms of start-up.
const onHosts = () => import('./host-servers.js');
import type { LabPaths } from '../lab/paths.js';
import { withLabLock } from '../lab/lock.js';
import { choosePorts, type ServerPorts, takenPorts } from '../lab/ports.js';
import { isOurs, stopProcesses } from '../lab/node/procs.js';
import {
  type LabNetMode,
  netModeOf,
  nodeHost,
  readState,
  requireEnsemble,
  writeState,
  type LabState,
  type ServerRecord,
} from '../lab/state.js';
import {
  DEFAULT_SERVERS,
  DEFAULT_TICK_MS,
  observerShape,
  serverName,
  validateObservers,
  validateServerCount,
  validateTick,
} from './config.js';
import { findJava, findZooKeeper } from './discover.js';
import { leadsQuorum, type ServerMode } from '../zk/four-letter.js';
import { ensureWritableLab, writeLabServerFiles } from './lab-files.js';
import { isServing, probeServer, restartRefusal, type Running, waitForQuorum } from './quorum.js';
import { launchServer } from './server-process.js';
import { recordLabEvent } from '../lab/event-log.js';
import { deregister, readEntry, registerLongLived } from '../lab/registry.js';
import { emptyNet } from '../net/lab-links.js';
import { daemonPid, ensureNetwork, stopNetwork } from '../net/lab-network.js';
import { networkStatus, serversExpectedToServe, type NetworkStatus } from '../net/status.js';

export { DEFAULT_SERVERS } from './config.js';
export const QUORUM_TIMEOUT_MS = 45_000;

export type UpProgress =
  | { readonly kind: 'starting'; readonly servers: readonly string[]; readonly repair: boolean }
  | { readonly kind: 'mode'; readonly server: string; readonly mode: ServerMode }
  | { readonly kind: 'warning'; readonly message: string };

export interface UpOptions {
  readonly servers?: number;
  /** Non-voting servers beside the `servers` voters. */
  readonly observers?: number;
  readonly tickMs?: number;
  readonly basePort?: number;
  readonly zkHome?: string;
  readonly signal?: AbortSignal;
  readonly onProgress?: (p: UpProgress) => void;
  readonly quorumTimeoutMs?: number;
  /** Seeds the lab links' delay jitter (drills' --seed). */
  readonly jitterSeed?: number | undefined;
  /** `ns`: every node in a network namespace of its own on the lab's bridge; default the lab's, or `proxy`. */
  readonly net?: NetMode;
  /** On hosts reached over SSH (src/hosts/): the hosts file read, and where nodes go (`--place`). */
  readonly hosts?: HostsRequest;
}

export interface ServerStatus {
  readonly id: number;
  readonly name: string;
  /** Where its client port listens: loopback, or its node's address on the lab's node network. */
  readonly host: string;
  readonly clientPort: number;
  /** A voter (participant) or an observer, as the lab planned it. */
  readonly role: 'participant' | 'observer';
  readonly pid: number | null;
  readonly alive: boolean;
  readonly paused: boolean;
  /** What the server itself says; 'paused' when its JVM is stopped, 'down' when its process is gone. */
  readonly mode: ServerMode | 'paused';
  readonly zxid: string | null;
  readonly connections: number | null;
  readonly znodes: number | null;
}

export interface EnsembleStatus {
  readonly lab: string;
  readonly tickMs: number;
  readonly servers: readonly ServerStatus[];
  readonly leader: string | null;
  readonly serving: number;
  readonly quorum: boolean;
  readonly network: NetworkStatus;
  /** Contenders of the lab whose process runs. */
  readonly contendersRunning: number;
}

export interface UpResult {
  readonly outcome: 'started' | 'already-up' | 'repaired';
  readonly status: EnsembleStatus;
}

function liveServers(paths: LabPaths, state: LabState): ServerRecord[] {
  return state.servers.filter((s) => isOurs(s.pid, paths.markers));
}

/** Validates what can be validated without touching the lab; throws UsageError/EnvironmentError. */
function validateUp(opts: UpOptions) {
  const servers = opts.servers === undefined ? undefined : validateServerCount(opts.servers);
  const observers = opts.observers === undefined ? undefined : validateObservers(opts.observers, servers);
  const tickMs = opts.tickMs === undefined ? undefined : validateTick(opts.tickMs);
  if (opts.net !== undefined) netModeArg(String(opts.net));
  if (opts.net !== undefined && opts.hosts !== undefined)
    throw new UsageError('--net and --hosts go apart', 'a lab on hosts has its own network: drop --net');
  const problem = opts.net === 'ns' ? nodeNetProblem() : undefined;
  if (problem) {
    throw new UsageError(
      `--net ns cannot make the lab's node network here: ${problem}`,
      'run as root (or with CAP_NET_ADMIN and CAP_SYS_ADMIN) after bin/setup, or use --net proxy (the default)',
    );
  }
  const java = findJava();
  const zk = findZooKeeper(opts.zkHome);
  const net: LabNetMode | undefined = opts.hosts ? 'hosts' : opts.net;
  return { servers, observers, tickMs, java, zk, net };
}

/** True when a server of the lab has written ZooKeeper data (its snapshots and transaction logs). */
function holdsData(paths: LabPaths): boolean {
  if (!existsSync(paths.dataDir)) return false;
  return readdirSync(paths.dataDir).some((server) => {
    const dir = join(paths.dataDir, server, 'version-2');
    return existsSync(dir) && readdirSync(dir).length > 0;
  });
}

/** "3-server ensemble (tick 200ms, base port 12400)", with its observers. */
function describeShape(state: LabState): string {
  const observers = state.servers.filter((s) => s.role === 'observer').length;
  const voters = state.servers.length - observers;
  const extra = observers > 0 ? ` and ${observers} observer${observers === 1 ? '' : 's'}` : '';
  return `${voters}-server ensemble${extra} (tick ${formatDuration(state.tickMs)}, base port ${state.basePort})`;
}

/** A stopped lab's observers, when `up` gives it a new voter count and says nothing of them. */
function keptObservers(existing: LabState | undefined, voters: number): number {
  const kept = existing?.servers.filter((s) => s.role === 'observer').length ?? 0;
  if (observerShape(voters, kept) === 'ok') return kept;
  throw new UsageError(
    `the lab's ${kept} observer${kept === 1 ? '' : 's'} cannot go with ${voters} voting server${voters === 1 ? '' : 's'}`,
    'add --observers 0 to drop them, or --observers N for another number',
  );
}

/** Starts the ensemble, or repairs the servers that died, or reports that it is already up. */
export async function ensembleUp(paths: LabPaths, opts: UpOptions = {}): Promise<UpResult> {
  const v = validateUp(opts);
  const existing = readState(paths);
  if (existing && existing.servers.length > 0) {
    const live = liveServers(paths, existing);
    const voters = existing.servers.filter((s) => s.role !== 'observer').length;
    const differs =
      (v.servers !== undefined && v.servers !== voters) ||
      (v.observers !== undefined && v.observers !== existing.servers.length - voters) ||
      (v.tickMs !== undefined && v.tickMs !== existing.tickMs) ||
      (opts.basePort !== undefined && opts.basePort !== existing.basePort) ||
      (v.net !== undefined && v.net !== netModeOf(existing));
    if (live.length > 0 && differs) {
      throw new UsageError(
        `the lab at ${paths.root} is already up with ${existing.servers.length} servers ` +
          `(tick ${formatDuration(existing.tickMs)}, base port ${existing.basePort}, net ${netModeOf(existing)})`,
        'run `zklab ensemble down` first to change its shape',
      );
    }
    if (differs && live.length === 0 && holdsData(paths)) {
      throw new UsageError(
        `the stopped lab at ${paths.root} holds the data of a ${describeShape(existing)}: ` +
          'another shape would start afresh without it',
        'run `zklab ensemble down --purge` first for a fresh ensemble, or `zklab ensemble up` as it was and then ' +
          '`zklab ensemble add` / `remove` to change its members and keep the data',
      );
    }
    if (!differs || live.length > 0) {
      if (live.length === existing.servers.length) {
        if ((await daemonPid(paths)) !== null) return { outcome: 'already-up', status: await ensembleStatus(paths) };
        await withLabLock(paths, async () => {
          await ensureNetwork(paths, existing, (message) => opts.onProgress?.({ kind: 'warning', message }));
          await waitForServing(paths, existing, opts);
        });
        recordLabEvent(paths, 'ensemble-repaired', { servers: [], network: true });
        return { outcome: 'repaired', status: await ensembleStatus(paths) };
      }
      return withLabLock(paths, () => repair(paths, existing, v, opts));
    }
  }
  // What is not asked for keeps the stopped lab's shape; the observers are checked against the voters it ends with.
  const voters = v.servers ?? existing?.servers.filter((s) => s.role !== 'observer').length ?? DEFAULT_SERVERS;
  const observers =
    v.observers === undefined ? keptObservers(existing, voters) : validateObservers(v.observers, voters);
  const count = voters + observers;
  const tickMs = v.tickMs ?? existing?.tickMs ?? DEFAULT_TICK_MS;
  const net = v.net ?? netModeOf(existing);
  if (net === 'ns' && v.net === undefined) {
    // A stopped ns lab comes up on its node network again: it needs the same privilege as its first `up`.
    const problem = nodeNetProblem();
    if (problem)
      throw new UsageError(
        `this lab runs on its own node network, which cannot be made here: ${problem}`,
        'run as root',
      );
  }
  // Ports are checked before anything is written, so a taken port leaves no trace.
  const { base, plan } = await choosePorts(paths.root, count, opts.basePort);
  const rootExisted = existsSync(paths.root);
  ensureWritableLab(paths);
  try {
    return await freshUp(paths, { existing, v, opts, voters, tickMs, net, base, plan }).catch(async (e: unknown) => {
      // On hosts the block is checked there too, once their masters answer (a key exchange saved in the common
      // case): another lab's servers there hold some of it. Everything of this try is undone by now; once again,
      // on a block free there.
      const h = net === 'hosts' && opts.basePort === undefined ? await onHosts() : undefined;
      if (!h || !(e instanceof h.PortsInUseOnHosts)) throw e;
      const again = await choosePorts(paths.root, count, undefined, e.busy);
      return freshUp(paths, { existing, v, opts, voters, tickMs, net, base: again.base, plan: again.plan });
    });
  } catch (e) {
    // Its directory too, if this `up` made it and nothing else is in it (the lab lock is released by now).
    if (!existing && !rootExisted && !existsSync(paths.stateFile)) rmEmptyDir(paths.root);
    throw e;
  }
}

interface FreshUp {
  readonly existing: LabState | undefined;
  readonly v: ReturnType<typeof validateUp>;
  readonly opts: UpOptions;
  readonly voters: number;
  readonly tickMs: number;
  readonly net: LabNetMode;
  readonly base: number;
  readonly plan: readonly ServerPorts[];
}

/** A new ensemble of the planned shape, under the lab lock; on failure nothing of it runs. */
function freshUp(paths: LabPaths, f: FreshUp): Promise<UpResult> {
  const { existing, v, opts, voters, tickMs, net, base, plan } = f;
  return withLabLock(paths, async () => {
    // A previous lab of another shape (all of it dead): start afresh.
    for (const dir of [paths.confDir, paths.dataDir]) rmSync(dir, { recursive: true, force: true });
    const state: LabState = {
      version: 1,
      createdAt: new Date().toISOString(),
      tickMs,
      basePort: base,
      zkHome: v.zk.home,
      servers: plan.map((p) => ({
        ...p,
        name: serverName(p.id),
        ...(p.id > voters ? { role: 'observer' as const } : {}),
      })),
      contenders: existing?.contenders ?? [],
      nextContender: existing?.nextContender ?? 1,
      containment: existing?.containment ?? newLabContainment(),
      net: { ...emptyNet(), ...(opts.jitterSeed === undefined ? {} : { seed: opts.jitterSeed }) },
    };
    if (net === 'hosts') {
      const h = await onHosts();
      const hosts = opts.hosts
        ? h.labHostsFor(paths, opts.hosts, state.servers)
        : (existing?.hosts ?? h.throwNoHosts(paths));
      state.hosts = hosts;
    }
    if (net === 'ns') {
      const subnet = freeSubnet();
      state.nodeNet = {
        subnet,
        addrs: Object.fromEntries(state.servers.map((s) => [s.name, serverAddr({ subnet }, s.id)])),
      };
    }
    try {
      ensureNodeNetwork(paths, state);
      writeLabServerFiles(paths, state);
      if (state.hosts) await (await onHosts()).prepareHosts(paths, state, state.servers);
      // The link daemon starts while the JVMs boot: they dial their peers' proxies only after ~0.5 s of start-up,
      // by which time the daemon listens (and ZooKeeper retries a refused peer anyway).
      const network = ensureNetwork(paths, state, (message) => opts.onProgress?.({ kind: 'warning', message }));
      network.catch(() => undefined);
      await startAndWait(paths, state, state.servers, v, opts, false, network);
    } catch (e) {
      await stopNetwork(paths);
      // Nothing of a fresh lab that did not come up stays: its nodes' processes and control groups, the lab's own.
      await endLabProcesses(paths, state);
      removeLabNet(paths);
      if (state.hosts) await (await onHosts()).cleanHosts(paths, state);
      // A fresh lab that did not come up runs nothing: it is not listed either. One that was not there before
      // leaves no files.
      forgetLongLived(paths);
      if (!existing) removeLabEntries(paths, { holdingLock: true });
      throw e;
    }
    recordLabEvent(paths, 'ensemble-up', { servers: state.servers.length });
    return { outcome: 'started', status: await ensembleStatus(paths) };
  });
}

async function repair(
  paths: LabPaths,
  state: LabState,
  v: ReturnType<typeof validateUp>,
  opts: UpOptions,
): Promise<UpResult> {
  const dead = state.servers.filter((s) => !isOurs(s.pid, paths.markers));
  const taken = await takenPorts(dead.flatMap((s) => [s.clientPort, s.quorumPort, s.electionPort]));
  if (taken.length > 0) {
    throw new UsageError(
      `cannot restart ${dead.map((s) => s.name).join(', ')}: port ${taken.join(', ')} is now used by another program`,
      'stop that program, or run `zklab ensemble down` and `up` to plan new ports',
    );
  }
  ensureNodeNetwork(paths, state);
  await ensureNetwork(paths, state, (message) => opts.onProgress?.({ kind: 'warning', message }));
  writeLabServerFiles(paths, state);
  if (state.hosts) await (await onHosts()).prepareHosts(paths, state, dead);
  await startAndWait(paths, state, dead, v, opts, true);
  recordLabEvent(paths, 'ensemble-repaired', { servers: dead.map((s) => s.name) });
  return { outcome: 'repaired', status: await ensembleStatus(paths) };
}

/** Waits for quorum among the servers the lab's partitions leave with a majority (all of them when none). */
async function waitForServing(
  paths: LabPaths,
  state: LabState,
  opts: UpOptions,
  started: readonly ServerRecord[] = [],
): Promise<void> {
  // Servers down before this call (killed in a drill, say) are not waited for: a restart of one waits for it and its
  // live peers. Those it started are, dead or alive: one that died at once must fail the wait, not shorten it.
  const expected = serversExpectedToServe(state).filter((s) => started.includes(s) || isOurs(s.pid, paths.markers));
  if (expected.length === 0) return;
  await waitForQuorum(paths, state, expected, {
    timeoutMs: opts.quorumTimeoutMs ?? QUORUM_TIMEOUT_MS,
    signal: opts.signal,
    onMode: (server, mode) => opts.onProgress?.({ kind: 'mode', server, mode }),
  });
}

/** Launches `toStart`, records their pids at once (so a crash of this CLI leaves them findable), waits for quorum. */
async function startAndWait(
  paths: LabPaths,
  state: LabState,
  toStart: readonly ServerRecord[],
  v: ReturnType<typeof validateUp>,
  opts: UpOptions,
  repairing = false,
  network?: Promise<unknown>,
): Promise<void> {
  opts.onProgress?.({ kind: 'starting', servers: toStart.map((s) => s.name), repair: repairing });
  // Listed from the moment servers are launched (a fresh up, a repair, a restart) until `down`.
  registerLongLived(paths, 'ensemble up');
  try {
    const onHost = state.hosts ? (await onHosts()).launchHostServer : undefined;
    for (const s of toStart) s.pid = (onHost ?? launchLabServer)(paths, v, s, state);
    writeState(paths, state);
    await network;
    await waitForServing(paths, state, opts, toStart);
  } catch (e) {
    // Whatever this call started, it stops: a failed or interrupted `up` leaves no JVM behind, and no control
    // group of its nodes (an empty one is still the lab's, in the kernel, after the lab is gone).
    await stopProcesses(
      toStart.map((s) => s.pid).filter((p): p is number => p !== undefined),
      'SIGKILL',
    );
    await killNodes(
      paths,
      state,
      toStart.map((s) => s.name),
    );
    for (const s of toStart) delete s.pid;
    writeState(paths, state);
    throw e;
  }
}

/** Starts one of the lab's servers (detached, owned by the lab from here on); resolves its pid. */
export function launchLabServer(
  paths: LabPaths,
  v: Pick<ReturnType<typeof validateUp>, 'java' | 'zk'>,
  s: ServerRecord,
  state: LabState,
): number {
  return launchServer(
    paths,
    { name: s.name, state },
    {
      java: v.java.bin,
      zk: v.zk,
      configFile: paths.serverConfig(s.name),
      confDir: paths.confDir,
      logDir: paths.logDir,
      hostsFile: paths.serverHostsFile(s.name),
      markers: [paths.jvmMarker, `-Dzklab.server=${s.name}`],
    },
    paths.serverLog(s.name),
  );
}

/** Each server as its process and its own srvr say. */
export function serverStatuses(paths: LabPaths, state: LabState): Promise<ServerStatus[]> {
  return Promise.all(
    state.servers.map(async (s): Promise<ServerStatus> => {
      const alive = isOurs(s.pid, paths.markers);
      const paused = alive && isPaused(s.pid!);
      const probe = alive && !paused ? await probeServer(state, s, 800) : { mode: 'down' as const };
      return {
        id: s.id,
        name: s.name,
        host: nodeHost(state, s.name),
        clientPort: s.clientPort,
        role: s.role ?? 'participant',
        pid: alive ? s.pid! : null,
        alive,
        paused,
        mode: paused ? 'paused' : probe.mode,
        zxid: 'zxid' in probe ? (probe.zxid ?? null) : null,
        connections: 'connections' in probe ? (probe.connections ?? null) : null,
        znodes: 'nodeCount' in probe ? (probe.nodeCount ?? null) : null,
      };
    }),
  );
}

/** The server that says it leads (or runs standalone). */
export function leadingServer(servers: readonly ServerStatus[]): ServerStatus | undefined {
  return servers.find((s) => leadsQuorum(s.mode));
}

export async function ensembleStatus(paths: LabPaths): Promise<EnsembleStatus> {
  const state = requireEnsemble(paths);
  const servers = await serverStatuses(paths, state);
  const leader = leadingServer(servers)?.name ?? null;
  const serving = servers.filter((s) => s.mode !== 'paused' && isServing(s.mode)).length;
  return {
    lab: paths.root,
    tickMs: state.tickMs,
    servers,
    leader,
    serving,
    quorum: leader !== null,
    network: await networkStatus(paths, state),
    contendersRunning: state.contenders.filter((c) => isOurs(c.pid, paths.markers)).length,
  };
}

export interface DownResult {
  readonly stopped: number;
  readonly purged: boolean;
}

/**
 * Stops everything the lab started (servers, and any process carrying the lab's marker: contenders, link daemon,
 * orphans of a crashed CLI) and waits for them to exit. `purge` also deletes data, logs and state.
 */
export async function ensembleDown(
  paths: LabPaths,
  opts: { purge?: boolean; beforeServers?: () => Promise<void> } = {},
): Promise<DownResult> {
  if (!existsSync(paths.root) || !readState(paths)) {
    // An `up` killed between launching its JVMs and writing the state leaves processes only their marker names.
    const ended = await endLabProcesses(paths);
    removeLabNet(paths);
    // Only what a lab makes: the directory may be the user's own, with files of theirs beside the lab's.
    if (opts.purge && existsSync(paths.stateFile) === false && existsSync(paths.root)) removeLabEntries(paths);
    forgetLongLived(paths);
    return { stopped: ended, purged: Boolean(opts.purge) };
  }
  return withLabLock(paths, async () => {
    await opts.beforeServers?.();
    const daemonStopped = await stopNetwork(paths);
    const state = readState(paths)!;
    delete state.net; // a lab that comes up again starts with a whole network
    // SIGKILL: a lab's servers hold nothing worth a graceful shutdown, and ZooKeeper has synced its log already.
    // Every node goes whole (a contender with whatever it daemonized); then the lab's own processes (the prober).
    const ended = await endLabProcesses(paths, state);
    // Its node network goes with its processes: namespaces, bridge, the kernel's rules. A later `up` makes it anew,
    // for its servers (the contenders are gone). On hosts: what the lab made on each (tables, groups, files).
    removeLabNet(paths);
    // A lab whose hosts were left clean by an earlier `down` asks them nothing (they may be gone by now).
    const unclean = state.hosts && !state.hosts.clean ? await (await onHosts()).cleanHosts(paths, state) : [];
    if (state.hosts && unclean.length === 0) state.hosts = { ...state.hosts, clean: true };
    if (state.nodeNet) {
      const servers = new Set(state.servers.map((s) => s.name));
      state.nodeNet = {
        ...state.nodeNet,
        addrs: Object.fromEntries(Object.entries(state.nodeNet.addrs).filter(([n]) => servers.has(n))),
      };
    }
    for (const s of state.servers) delete s.pid;
    if (opts.purge) {
      removeLabEntries(paths, { holdingLock: true });
    } else {
      writeState(paths, state);
      recordLabEvent(paths, 'ensemble-down', {});
    }
    forgetLongLived(paths);
    if (unclean.length > 0)
      throw new ProcessError(
        `stopped the lab here, but could not clean ${unclean.map((u) => u.host).join(', ')}: ${unclean[0]!.why}`,
        'once the host is back, run `zklab ensemble down` again',
      );
    return { stopped: ended + (daemonStopped ? 1 : 0), purged: Boolean(opts.purge) };
  });
}

function rmEmptyDir(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // not empty (something of someone else's is in it), or gone
  }
}

/** A long-lived lab that is down is no longer listed; an owned one stays its owner's until the owner ends. */
function forgetLongLived(paths: LabPaths): void {
  if (readEntry(paths.root)?.kind === 'long-lived') deregister(paths.root);
}

export function resolveServer(state: LabState, name: string): ServerRecord {
  const s = state.servers.find((x) => x.name === name || String(x.id) === name);
  if (!s) {
    throw new UsageError(
      `there is no server "${name}" in this lab`,
      `servers are ${state.servers.map((x) => x.name).join(', ')}`,
    );
  }
  return s;
}

export interface RestartServersOptions extends Pick<UpOptions, 'signal' | 'onProgress' | 'quorumTimeoutMs' | 'zkHome'> {
  /** How the caller restarts every server, for the refusal's hint: the CLI's command by default, a drill's step. */
  readonly restartAll?: string;
}

/** Whether a server of the lab runs, is paused, or is down, by its process. */
function serverRunning(paths: LabPaths, state: LabState, name: string): Running {
  const pid = state.servers.find((s) => s.name === name)?.pid;
  if (!isOurs(pid, paths.markers)) return 'down';
  return isPaused(pid!) ? 'paused' : 'running';
}

/**
 * Restarts one server (or all): stop, start with the same config and data, wait until the ensemble serves again.
 * `unavailableMs`: from the SIGKILL until the restarted servers serve again (with a leader), as their srvr says.
 * Refused, before anything is stopped, when the servers running after it could not form a quorum.
 */
export async function restartServers(
  paths: LabPaths,
  target: string,
  opts: RestartServersOptions = {},
): Promise<EnsembleStatus & { unavailableMs: number }> {
  const state = requireEnsemble(paths);
  const targets = target === 'all' ? state.servers : [resolveServer(state, target)];
  const v = validateUp({ zkHome: opts.zkHome });
  return withLabLock(paths, async () => {
    const refusal = restartRefusal(state.servers, targets, (name) => serverRunning(paths, state, name));
    if (refusal)
      throw new UsageError(refusal, `${opts.restartAll ?? '`zklab ensemble restart all`'} brings them back together`);
    const down = Date.now();
    // A restart is a kill and a start: recorded as the kill, which the restart's own event ends (a fault window).
    for (const s of targets) recordLabEvent(paths, 'server-killed', { server: s.name, signal: 'SIGKILL' });
    const running = targets.map((s) => s.pid).filter((p): p is number => isOurs(p, paths.markers));
    // On hosts the kill is its host's; each handle here ends once its warden there is done.
    if (state.hosts) {
      const { killHostServer } = await onHosts();
      await Promise.all(targets.map((s) => killHostServer(paths, state, s.name)));
    }
    await stopProcesses(running, 'SIGKILL');
    ensureNodeNetwork(paths, state);
    await ensureNetwork(paths, state, (message) => opts.onProgress?.({ kind: 'warning', message }));
    writeLabServerFiles(paths, state);
    await startAndWait(paths, state, targets, v, opts, true);
    const unavailableMs = Date.now() - down;
    recordLabEvent(paths, 'server-restarted', { servers: targets.map((s) => s.name), unavailableMs });
    return { ...(await ensembleStatus(paths)), unavailableMs };
  });
}
