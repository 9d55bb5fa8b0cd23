import { rmSync } from 'node:fs';
import { formatDuration } from '../duration.js';
import { UsageError, ProcessError } from '../errors.js';
import type { LabPaths } from '../lab/paths.js';
import { withLabLock } from '../lab/lock.js';
import { planServerPorts, serverName, takenPorts } from '../lab/ports.js';
import { isOurs, stopProcesses } from '../lab/node/procs.js';
import { nodeHost, requireEnsemble, writeState, type LabState, type ServerRecord } from '../lab/state.js';
import { labSuperUser } from '../lab/super-user.js';
import { recordLabEvent } from '../lab/event-log.js';
import { addServerLinks, removeServerLinks } from '../net/lab-network.js';
import { ZkClient } from '../zk/client.js';
import { isCode } from '../zk/errors.js';
import { joiningSpec, parseDynamicConfig, type DynamicConfig } from './dynamic-config.js';
import { findJava, findZooKeeper } from './discover.js';
import { chooseServerId, faultRefusal, reconfigRefusal, removalRefusal } from './membership-rules.js';
import { writeLabServerFiles } from './lab-files.js';
import { isServing, probeServer } from './quorum.js';
import { launchLabServer, resolveServer } from './service.js';

const AGREE_TIMEOUT_MS = 30_000;

/** What one server says the configuration is (asked on a session of its own); null when it did not answer. */
export interface ServerConfigView {
  readonly server: string;
  readonly config: DynamicConfig | null;
  readonly error?: string;
}

export interface EnsembleConfig {
  /** The configuration every answering server agrees on; null when they differ or none answered. */
  readonly config: DynamicConfig | null;
  readonly servers: readonly ServerConfigView[];
  /** One server alone: ZooKeeper runs it standalone, without a dynamic configuration. */
  readonly standalone: boolean;
}

export interface MembershipResult {
  readonly server: string;
  readonly role: 'participant' | 'observer';
  readonly config: DynamicConfig;
  /** Milliseconds: starting the new server until it serves (add), the reconfig call, every server agreeing, stopping (remove). */
  readonly steps: Readonly<Record<string, number>>;
}

async function liveServing(paths: LabPaths, state: LabState): Promise<Set<string>> {
  const live = new Set<string>();
  await Promise.all(
    state.servers.map(async (s) => {
      if (isOurs(s.pid, paths.markers) && isServing((await probeServer(state, s, 800)).mode)) live.add(s.name);
    }),
  );
  return live;
}

async function withSession<T>(connect: string, fn: (zk: ZkClient) => Promise<T>, timeoutMs = 4000): Promise<T> {
  const zk = await ZkClient.connect({ connect, sessionTimeoutMs: 6000, connectTimeoutMs: timeoutMs, quiet: true });
  try {
    return await fn(zk);
  } finally {
    await zk.close();
  }
}

/** Each server's own view of the configuration, each asked on a session to it alone. */
export async function serverConfigs(
  paths: LabPaths,
  state: LabState,
  only?: readonly ServerRecord[],
  timeoutMs = 2000,
): Promise<ServerConfigView[]> {
  return Promise.all(
    (only ?? state.servers).map(async (s): Promise<ServerConfigView> => {
      if (!isOurs(s.pid, paths.markers)) return { server: s.name, config: null, error: 'down' };
      try {
        return {
          server: s.name,
          config: await withSession(
            `${nodeHost(state, s.name)}:${s.clientPort}`,
            async (zk) => parseDynamicConfig(await zk.getConfig()),
            timeoutMs,
          ),
        };
      } catch (e) {
        return { server: s.name, config: null, error: (e as Error).message };
      }
    }),
  );
}

export async function ensembleConfig(paths: LabPaths): Promise<EnsembleConfig> {
  const state = requireEnsemble(paths);
  const servers = await serverConfigs(paths, state);
  if (state.servers.length === 1) return { config: null, servers, standalone: true };
  return { config: agreed(servers), servers, standalone: false };
}

function agreed(views: readonly ServerConfigView[]): DynamicConfig | null {
  const answered = views.filter((v) => v.config !== null);
  if (answered.length === 0) return null;
  const first = answered[0]!.config!;
  return answered.every((v) => v.config!.version === first.version) ? first : null;
}

/** Waits until every server in `members` reports `version`. */
async function waitForAgreement(
  paths: LabPaths,
  state: LabState,
  members: readonly ServerRecord[],
  version: string,
  signal?: AbortSignal,
): Promise<void> {
  const deadline = Date.now() + AGREE_TIMEOUT_MS;
  for (;;) {
    signal?.throwIfAborted();
    // Short attempts: a server re-syncing after the change refuses sessions for a while, and polling should not
    // wait out a long timeout on it.
    const views = await serverConfigs(paths, state, members, 300);
    if (views.every((v) => v.config?.version === version)) return;
    if (Date.now() > deadline) {
      const behind = views
        .filter((v) => v.config?.version !== version)
        .map((v) => `${v.server} has ${v.config?.version ?? v.error}`);
      throw new ProcessError(
        `the servers did not all reach configuration version ${version} within ${formatDuration(AGREE_TIMEOUT_MS)}: ${behind.join(', ')}`,
        'see `zklab ensemble config` and `zklab logs zkN`',
      );
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

function requireReconfigurable(paths: LabPaths, state: LabState): void {
  if (state.hosts)
    throw new UsageError(
      `the lab at ${paths.root} runs on hosts, where adding and removing servers is not built yet`,
      'change its shape with `zklab ensemble down` and `zklab ensemble up --hosts FILE -n N`',
    );
  const refusal = reconfigRefusal(findZooKeeper(state.zkHome || undefined).version);
  if (refusal)
    throw new UsageError(
      `cannot reconfigure the lab at ${paths.root}: ${refusal}`,
      'point ZOOKEEPER_HOME at ZooKeeper 3.5.4 or newer and start the lab again',
    );
  if (state.servers.length < 2)
    throw new UsageError(
      'a one-server lab runs standalone, and ZooKeeper reconfigures only a replicated ensemble',
      'start one with `zklab ensemble up --servers 3`',
    );
}

/** The super user's session to the live members (other than `except`), for reconfig. */
async function asSuperUser<T>(
  paths: LabPaths,
  state: LabState,
  live: ReadonlySet<string>,
  except: string | null,
  fn: (zk: ZkClient) => Promise<T>,
): Promise<T> {
  const connect = state.servers
    .filter((s) => live.has(s.name) && s.name !== except && s.role !== 'observer')
    .map((s) => `${nodeHost(state, s.name)}:${s.clientPort}`)
    .join(',');
  return withSession(
    connect,
    async (zk) => {
      await zk.addAuth('digest', labSuperUser(paths).auth);
      return fn(zk);
    },
    10_000,
  );
}

/**
 * Runs one reconfig. A leader that leaves (or hands over) drops its followers' clients, so the reply may be lost
 * after the change committed: then a fresh session reads the configuration (after a sync) and `applied` decides.
 */
async function reconfigure(
  paths: LabPaths,
  state: LabState,
  live: ReadonlySet<string>,
  except: string | null,
  change: { joining?: string; leaving?: string },
  from: DynamicConfig,
  applied: (c: DynamicConfig) => boolean,
): Promise<DynamicConfig> {
  try {
    return parseDynamicConfig(
      await asSuperUser(paths, state, live, except, (zk) => zk.reconfig(change, Number.parseInt(from.version, 16))),
    );
  } catch (e) {
    if (!isCode(e, 'CONNECTIONLOSS', 'OPERATIONTIMEOUT', 'SESSIONEXPIRED')) explainReconfigError(e);
    const deadline = Date.now() + AGREE_TIMEOUT_MS;
    for (;;) {
      let now: DynamicConfig;
      try {
        now = await syncedConfig(paths, state, live, except);
      } catch (again) {
        if (!isCode(again, 'CONNECTIONLOSS', 'OPERATIONTIMEOUT', 'SESSIONEXPIRED') || Date.now() > deadline)
          throw again;
        await new Promise((r) => setTimeout(r, 100));
        continue;
      }
      if (applied(now)) return now;
      throw new ProcessError(
        `the reconfiguration's reply was lost and the configuration (version ${now.version}) does not have the change`,
        'see `zklab ensemble config`, then try again',
        { cause: e },
      );
    }
  }
}

function explainReconfigError(e: unknown): never {
  if (isCode(e, 'RECONFIGDISABLED'))
    throw new UsageError(
      "the lab's servers run with dynamic reconfiguration off (a lab started by an older zklab)",
      'restart it: `zklab ensemble down` and `zklab ensemble up`',
    );
  if (isCode(e, 'NOAUTH'))
    throw new UsageError(
      "the servers refused the lab's super user (its secret in the lab directory no longer matches their configuration)",
      'restart the lab: `zklab ensemble down` and `zklab ensemble up`',
    );
  const again = 'see `zklab ensemble config` and `zklab ensemble status`, then try again';
  if (isCode(e, 'NEWCONFIGNOQUORUM'))
    throw new ProcessError(
      "ZooKeeper refused the change: the new configuration's voters are not connected to its leader in a majority",
      again,
      { cause: e },
    );
  if (isCode(e, 'RECONFIGINPROGRESS'))
    throw new ProcessError('ZooKeeper refused the change: another reconfiguration is still in progress', again, {
      cause: e,
    });
  if (isCode(e, 'BADVERSION'))
    throw new ProcessError(
      'the configuration changed while this change was prepared (another reconfiguration came first)',
      again,
      { cause: e },
    );
  throw e;
}

/** The configuration as the leader has it: read after a sync, on the super user's session. */
function syncedConfig(
  paths: LabPaths,
  state: LabState,
  live: ReadonlySet<string>,
  except: string | null,
): Promise<DynamicConfig> {
  return asSuperUser(paths, state, live, except, async (zk) => {
    await zk.sync('/zookeeper/config');
    return parseDynamicConfig(await zk.getConfig());
  });
}

/** Whether the configuration lists `server`; null when no server could say. */
async function listsServer(
  paths: LabPaths,
  state: LabState,
  live: ReadonlySet<string>,
  server: ServerRecord,
): Promise<boolean | null> {
  try {
    return (await syncedConfig(paths, state, live, null)).members.some((m) => m.id === server.id);
  } catch {
    return null;
  }
}

/** Times consecutive steps: `lap(name)` records the time since the previous lap (or since the timer began). */
function stepTimer(): { steps: Record<string, number>; lap: (step: string) => void } {
  const steps: Record<string, number> = {};
  let t = Date.now();
  return {
    steps,
    lap: (step) => {
      steps[step] = Date.now() - t;
      t = Date.now();
    },
  };
}

/** A change's step times for people: `start 1.2s, reconfig 80ms, agree 300ms`. */
export function describeStepTimes(steps: Readonly<Record<string, number>>): string {
  return Object.entries(steps)
    .map(([k, ms]) => `${k} ${formatDuration(ms)}`)
    .join(', ');
}

export interface MembershipOptions {
  readonly signal?: AbortSignal;
  readonly onStep?: (step: string) => void;
}

/** Starts a new server and joins it to the ensemble with `reconfig -add`; rolls back if it cannot join. */
export async function ensembleAdd(
  paths: LabPaths,
  opts: MembershipOptions & { observer?: boolean; id?: unknown } = {},
): Promise<MembershipResult> {
  const first = requireEnsemble(paths);
  requireReconfigurable(paths, first);
  const v = { java: findJava(), zk: findZooKeeper(first.zkHome || undefined) };
  return withLabLock(paths, async () => {
    const state = requireEnsemble(paths);
    const id = chooseServerId(state, opts.id);
    const ports = planServerPorts(state.basePort, id)[id - 1]!;
    const taken = await takenPorts([ports.clientPort, ports.quorumPort, ports.electionPort]);
    if (taken.length > 0)
      throw new UsageError(
        `cannot add ${serverName(id)}: port ${taken.join(', ')} is used by another program`,
        'stop that program, or choose another --id',
      );
    const live = await liveServing(paths, state);
    if (!state.servers.some((s) => s.role !== 'observer' && live.has(s.name)))
      throw new UsageError(
        'no voting server of the lab serves now, so nothing can accept a reconfiguration',
        'bring the ensemble back first: `zklab ensemble up`',
      );
    const before = await asSuperUser(paths, state, live, null, async (zk) => parseDynamicConfig(await zk.getConfig()));
    if (before.members.some((m) => m.id === id))
      throw new UsageError(
        `server id ${id} is already in the ensemble's configuration (version ${before.version})`,
        'see `zklab ensemble config`; choose another --id',
      );

    const server: ServerRecord = {
      ...ports,
      name: serverName(id),
      ...(opts.observer ? { role: 'observer' as const } : {}),
    };
    const { steps, lap } = stepTimer();
    // Once the reconfiguration may have committed, the new server is (or may be) a member ZooKeeper counts on:
    // killing and forgetting it then would leave the ensemble listing a server nobody can start again.
    let joined: 'no' | 'maybe' | 'yes' = 'no';
    let version = 'unknown';
    state.servers = [...state.servers, server].sort((a, b) => a.id - b.id);
    rmSync(paths.serverDataDir(server.name), { recursive: true, force: true });
    writeLabServerFiles(paths, state, [server]);
    try {
      opts.onStep?.(`starting ${server.name} (${opts.observer ? 'observer' : 'participant'}) …`);
      await addServerLinks(paths, state, server);
      server.pid = launchLabServer(paths, v, server, state);
      writeState(paths, state);
      await waitServing(paths, state, server, opts.signal);
      lap('start');
      opts.onStep?.(`reconfig: add ${joiningSpec(server, nodeHost(state, server.name))}`);
      joined = 'maybe';
      const config = await reconfigure(
        paths,
        state,
        live,
        null,
        { joining: joiningSpec(server, nodeHost(state, server.name)) },
        before,
        (c) => c.members.some((m) => m.id === server.id),
      );
      joined = 'yes';
      version = config.version;
      lap('reconfig');
      await waitForAgreement(
        paths,
        state,
        state.servers.filter((s) => live.has(s.name) || s === server),
        config.version,
        opts.signal,
      );
      lap('agree');
      recordLabEvent(paths, 'server-added', {
        server: server.name,
        role: server.role ?? 'participant',
        version: config.version,
      });
      return { server: server.name, role: server.role ?? 'participant', config, steps };
    } catch (e) {
      const member =
        joined === 'maybe' && !(e instanceof UsageError)
          ? await listsServer(paths, state, live, server)
          : joined === 'yes';
      if (member !== false) {
        recordLabEvent(paths, 'server-added', { server: server.name, role: server.role ?? 'participant', version });
        if (opts.signal?.aborted) throw e;
        throw new ProcessError(
          `${server.name} ${member ? 'joined the ensemble' : 'may have joined the ensemble'}, ` +
            `but the add did not finish: ${(e as Error).message}`,
          `the lab keeps it; see \`zklab ensemble config\`, and \`zklab ensemble remove ${server.name}\` to take it out again`,
          { cause: e },
        );
      }
      await stopProcesses(server.pid === undefined ? [] : [server.pid], 'SIGKILL');
      await removeServerLinks(paths, state, server).catch(() => undefined);
      state.servers = state.servers.filter((s) => s !== server);
      writeState(paths, state);
      rmSync(paths.serverConfDir(server.name), { recursive: true, force: true });
      rmSync(paths.serverDataDir(server.name), { recursive: true, force: true });
      throw e;
    }
  });
}

async function waitServing(paths: LabPaths, state: LabState, s: ServerRecord, signal?: AbortSignal): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    signal?.throwIfAborted();
    if (!isOurs(s.pid, paths.markers))
      throw new ProcessError(`${s.name} exited while starting`, `see \`zklab logs ${s.name}\``);
    if (isServing((await probeServer(state, s, 400)).mode)) return;
    if (Date.now() > deadline)
      throw new ProcessError(`${s.name} did not start serving within 30 s`, `see \`zklab logs ${s.name}\``);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Removes a server from the ensemble with `reconfig -remove`, then stops it and forgets its files and links. */
export async function ensembleRemove(
  paths: LabPaths,
  name: string,
  opts: MembershipOptions = {},
): Promise<MembershipResult> {
  const first = requireEnsemble(paths);
  resolveServer(first, name);
  requireReconfigurable(paths, first);
  return withLabLock(paths, async () => {
    const state = requireEnsemble(paths);
    const target = resolveServer(state, name);
    const live = await liveServing(paths, state);
    const quorum = removalRefusal(state.servers, target, live);
    if (quorum)
      throw new UsageError(
        quorum,
        'add a server first (`zklab ensemble add`), or bring the dead ones back (`zklab ensemble up`)',
      );
    const faulted = faultRefusal(state, target.name);
    if (faulted) throw new UsageError(faulted.message, faulted.hint);
    const { steps, lap } = stepTimer();
    const before = await asSuperUser(paths, state, live, target.name, async (zk) =>
      parseDynamicConfig(await zk.getConfig()),
    );
    // Already out of the configuration (an earlier remove was cut short): what is left is to stop it and forget it.
    let config = before;
    if (before.members.some((m) => m.id === target.id)) {
      opts.onStep?.(`reconfig: remove ${target.id}`);
      config = await reconfigure(
        paths,
        state,
        live,
        target.name,
        { leaving: String(target.id) },
        before,
        (c) => !c.members.some((m) => m.id === target.id),
      );
    }
    lap('reconfig');
    const remaining = state.servers.filter((s) => s !== target && live.has(s.name));
    await waitForAgreement(paths, state, remaining, config.version, opts.signal);
    lap('agree');
    opts.onStep?.(`stopping ${target.name} …`);
    await stopProcesses(isOurs(target.pid, paths.markers) ? [target.pid!] : [], 'SIGKILL');
    // Forgotten first: a lab that still listed a server ZooKeeper no longer has would start it again on the next up.
    state.servers = state.servers.filter((s) => s !== target);
    writeState(paths, state);
    rmSync(paths.serverConfDir(target.name), { recursive: true, force: true });
    rmSync(paths.serverDataDir(target.name), { recursive: true, force: true });
    await removeServerLinks(paths, state, target).catch((e: unknown) =>
      opts.onStep?.(`warning: ${target.name}'s link proxies stay until the network restarts (${(e as Error).message})`),
    );
    lap('stop');
    recordLabEvent(paths, 'server-removed', { server: target.name, version: config.version });
    return { server: target.name, role: target.role ?? 'participant', config, steps };
  });
}
