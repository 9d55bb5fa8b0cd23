import { UsageError } from '../errors.js';
import type { HostsFile } from '../hosts/hosts-file.js';
import {
  cleanHosts,
  PortsInUseOnHosts,
  portsInUse,
  remoteLabDir,
  remotePaths,
  uploadToHost,
  usedHosts,
} from '../hosts/lab-hosts.js';
import { allPorts } from '../lab/ports.js';
import { placeNodes, splitPlace } from '../hosts/placement.js';
import { envArgv, remoteEnv, sendNodeFiles } from '../hosts/node-env.js';
import { nodeStartEnv } from '../lab/node-start.js';
import { signalRemoteNode, spawnRemoteNode, startMasters } from '../hosts/remote-node.js';
import { isOurs, waitForExit } from '../lab/node/procs.js';
import type { LabPaths } from '../lab/paths.js';
import type { LabHosts, LabState, ServerRecord } from '../lab/state.js';
import { serverJvmArgs } from './jvm.js';
import type { ZooKeeperInstall } from './discover.js';

/**
 * The servers of a lab on hosts: placed on the hosts, their files sent there, each started under its host's
 * warden (src/hosts/remote-node.ts) with the same JVM flags as a server here, from the host's own `java` and the
 * ZooKeeper install at the same place as here (`zklab hosts check` says whether the host has it).
 */

export function labHostsFor(
  paths: LabPaths,
  given: { readonly file: HostsFile; readonly place: Readonly<Record<string, string>> },
  servers: readonly ServerRecord[],
): LabHosts {
  const { file } = given;
  const place = splitPlace(file.hosts, given.place);
  return {
    file: file.file,
    knownHosts: file.knownHosts,
    hosts: file.hosts,
    place: placeNodes(
      file.hosts,
      servers.map((s) => s.name),
      place.servers,
    ),
    ...(Object.keys(place.contenders).length > 0 ? { asked: place.contenders } : {}),
    dir: remoteLabDir(paths),
  };
}

export function throwNoHosts(paths: LabPaths): never {
  throw new UsageError(`the lab at ${paths.root} has no hosts recorded`, 'give --hosts FILE');
}

/**
 * Makes each host the servers use ready for them: reachable (one clear line for the first that is not), nothing of
 * an earlier run of this lab left there, and the servers' files in the lab's directory.
 */
export async function prepareHosts(paths: LabPaths, state: LabState, servers: readonly ServerRecord[]): Promise<void> {
  const { clean: _, ...hosts } = state.hosts!;
  state.hosts = hosts;
  await startMasters(paths, state, usedHosts(state));
  // Both at once (a round trip each): what listens there, and nothing left of an earlier run of this lab.
  const fresh = servers.length === state.servers.length;
  const [busy, failed] = await Promise.all([portsInUse(paths, state), fresh ? cleanHosts(paths, state) : []]);
  const taken = allPorts(servers).filter((p) => busy.has(p));
  if (taken.length > 0) throw new PortsInUseOnHosts(taken, busy);
  if (failed.length > 0) throw new UsageError(failed[0]!.why, 'check the host with `zklab hosts check FILE`');
  await Promise.all(
    usedHosts(state).map(async (host) => {
      const here = servers.filter((s) => state.hosts!.place[s.name] === host.name);
      if (here.length === 0) return;
      // What each starts with for faults mid-run (its clock file, the clock shim), sent with its files.
      const envs = here.map((s) => remoteEnv(paths, state, nodeStartEnv({ paths, node: s.name, state })));
      const files = [
        'conf/log4j.properties',
        'conf/logback.xml',
        ...here.flatMap((s) => [`conf/${s.name}`, `data/${s.name}/myid`]),
        ...envs.flatMap((e) => e.labFiles),
      ];
      await Promise.all([
        uploadToHost(paths, state, host, files),
        sendNodeFiles(paths, state, host, { env: {}, labFiles: [], files: envs.flatMap((e) => e.files) }),
      ]);
    }),
  );
}

/** Starts a server on its host; resolves the pid of its handle here (the local ssh that holds it). */
export function launchHostServer(
  paths: LabPaths,
  v: { readonly zk: ZooKeeperInstall },
  s: ServerRecord,
  state: LabState,
): number {
  const remote = remotePaths(state);
  const argv = [
    ...envArgv(remoteEnv(paths, state, nodeStartEnv({ paths, node: s.name, state }))),
    'java',
    // A host's control groups may be a cgroup namespace over a hybrid v1/v2 tree (the sandbox's hosts on this
    // machine), where Java's container probe fails on the v1 paths it cannot see and the server dies at start.
    // The lab sets the heap itself: the probe has nothing to tell it.
    '-XX:-UseContainerSupport',
    ...serverJvmArgs({
      java: 'java',
      zk: v.zk,
      configFile: remote.serverConfig(s.name),
      confDir: remote.confDir,
      logDir: remote.logDir,
      hostsFile: remote.serverHostsFile(s.name),
      // The remote lab's marker, not this one's (see spawnRemoteNode).
      markers: [remote.jvmMarker, `-Dzklab.server=${s.name}`],
      classData: false,
    }),
  ];
  const child = spawnRemoteNode(paths, state, s.name, argv, paths.serverLog(s.name));
  if (child.pid === undefined) throw new Error(`could not start ssh for ${s.name}`);
  return child.pid;
}

/** Kills a server on its host (its group there), and waits until its handle here has ended with its warden. */
export async function killHostServer(paths: LabPaths, state: LabState, name: string): Promise<void> {
  const pid = state.servers.find((s) => s.name === name)?.pid;
  if (!isOurs(pid, paths.markers)) return;
  await signalRemoteNode(paths, state, name, 'kill').catch(() => undefined);
  await waitForExit([pid!], 5000);
}

export { cleanHosts, PortsInUseOnHosts } from '../hosts/lab-hosts.js';
