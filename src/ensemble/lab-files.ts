import { accessSync, chmodSync, constants, copyFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EnvironmentError } from '../errors.js';
import { LabPaths } from '../lab/paths.js';
import { hostOf, type LabState, nodeHost, type ServerRecord } from '../lab/state.js';
import { serverAddr } from '../lab/node/net.js';
import { hostname } from 'node:os';
import { labSuperUser } from '../lab/super-user.js';
import { proxiedPeers, serverHostsFile } from '../net/lab-links.js';
import { readTemplate, TEMPLATES_DIR } from '../templates.js';
import type { PeerAddress } from '../lab/ports.js';
import { loopbackPeers, renderZooCfg, labServerConfig, serverName } from './config.js';
import { ensureDir } from '../lab/fs.js';

/** Fails with an EnvironmentError unless the lab directory exists or can be created, and is writable. */
export function ensureWritableLab(paths: LabPaths): void {
  try {
    ensureDir(paths.root);
    accessSync(paths.root, constants.W_OK);
  } catch (e) {
    throw new EnvironmentError(
      `the lab directory ${paths.root} is not writable (${(e as NodeJS.ErrnoException).code ?? 'error'})`,
      'choose another with --lab DIR or ZKLAB_LAB, or fix its permissions',
      { cause: e },
    );
  }
}

/** What a lab's own servers get beyond a plain config: the super user's digest, and a hosts file each. */
export interface LabServerFiles {
  readonly superDigest: string;
  readonly hostsFile: (id: number) => string;
  /** The address each server's client port listens on: its node's on the node network, else loopback. */
  readonly clientAddress: (name: string) => string;
  /** Where each server keeps its data, when not here (a lab on hosts). */
  readonly dataDir?: (name: string) => string;
}

/**
 * Writes every server's zoo.cfg and myid, plus the logging configs.
 * `peersFor(id)` says how server `id` reaches each member; by default every member directly on loopback.
 */
export function writeServerFiles(
  paths: LabPaths,
  servers: readonly ServerRecord[],
  tickMs: number,
  peersFor: (id: number) => ReadonlyMap<number, PeerAddress> = () => loopbackPeers(servers),
  lab?: LabServerFiles,
): void {
  const template = readTemplate('zoo.cfg');
  ensureDir(paths.confDir);
  // The configs carry the super user's digest: the lab's owner alone reads them.
  chmodSync(paths.confDir, 0o700);
  for (const f of ['log4j.properties', 'logback.xml']) copyFileSync(join(TEMPLATES_DIR, f), join(paths.confDir, f));
  for (const s of servers) {
    ensureDir(paths.serverConfDir(s.name));
    ensureDir(paths.serverDataDir(s.name));
    const dataDir = lab?.dataDir?.(s.name) ?? paths.serverDataDir(s.name);
    const base = labServerConfig(s, tickMs, dataDir, peersFor(s.id), lab?.clientAddress(s.name));
    const cfg = renderZooCfg(template, lab ? { ...base, superDigest: lab.superDigest } : base);
    writeFileSync(paths.serverConfig(s.name), cfg, { mode: 0o600 });
    if (lab) writeFileSync(paths.serverHostsFile(s.name), lab.hostsFile(s.id));
    const myid = join(paths.serverDataDir(s.name), 'myid');
    if (!existsSync(myid)) writeFileSync(myid, `${s.id}\n`);
  }
}

/** Every file of a lab's own servers: configs naming peers zkN, each server's hosts file, the super user's digest. */
export function writeLabServerFiles(
  paths: LabPaths,
  state: LabState,
  only: readonly ServerRecord[] = state.servers,
): void {
  const machine = hostname();
  const net = state.nodeNet;
  // On hosts: each server at its host's address, its data where the lab's directory is on that host.
  const onHosts = state.hosts ? new LabPaths(state.hosts.dir) : undefined;
  const nodeAddr = onHosts
    ? (to: number) => hostOf(state, serverName(to))?.addr
    : net
      ? (to: number) => serverAddr(net, to)
      : undefined;
  writeServerFiles(paths, only, state.tickMs, proxiedPeers(state), {
    superDigest: labSuperUser(paths).digest,
    hostsFile: (id) => serverHostsFile(id, machine, nodeAddr),
    clientAddress: (name) => nodeHost(state, name),
    ...(onHosts ? { dataDir: (name: string) => onHosts.serverDataDir(name) } : {}),
  });
}
