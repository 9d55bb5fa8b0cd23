import { resolve, join } from 'node:path';

export const DEFAULT_LAB_DIR = '.zklab';
export const JVM_MARKER_PREFIX = '-Dzklab.lab=';
export const NODE_MARKER_PREFIX = '--zklab-lab=';
/** The warden of an owned lab: a marker of its own, so that `ensemble down` in the owner's life leaves it alone. */
export const WARDEN_MARKER_PREFIX = '--zklab-warden=';

/** Every file a lab keeps, relative to one directory. */
export class LabPaths {
  readonly root: string;
  constructor(dir: string) {
    this.root = resolve(dir);
  }
  get stateFile(): string {
    return join(this.root, 'lab.json');
  }
  get lockFile(): string {
    return join(this.root, 'lab.lock');
  }
  get confDir(): string {
    return join(this.root, 'conf');
  }
  get dataDir(): string {
    return join(this.root, 'data');
  }
  get logDir(): string {
    return join(this.root, 'logs');
  }
  get eventsDir(): string {
    return join(this.root, 'events');
  }
  get labEventsFile(): string {
    return join(this.root, 'events', 'lab.jsonl');
  }
  /** Private to the lab's owner (0700): the super user's password. */
  get secretsDir(): string {
    return join(this.root, 'secrets');
  }
  get controlSocket(): string {
    return join(this.root, 'net.sock');
  }
  /** On the node network: the nftables script last applied per node (and `host`), so unchanged tables are left be. */
  get nodeRulesDir(): string {
    return join(this.root, 'node-rules');
  }
  /** The prober's pid, while it runs (src/contenders/probing.ts), and its log. */
  get proberPidFile(): string {
    return join(this.root, 'prober.pid');
  }
  get proberLog(): string {
    return join(this.logDir, 'prober.log');
  }
  /** The link daemon's log. */
  get netLog(): string {
    return join(this.logDir, 'net.log');
  }
  serverConfDir(name: string): string {
    return join(this.confDir, name);
  }
  serverConfig(name: string): string {
    return join(this.confDir, name, 'zoo.cfg');
  }
  /** The server's own name resolution (src/net/lab-links.ts serverHostsFile). */
  serverHostsFile(name: string): string {
    return join(this.confDir, name, 'hosts');
  }
  serverDataDir(name: string): string {
    return join(this.dataDir, name);
  }
  serverLog(name: string): string {
    return join(this.logDir, `${name}.log`);
  }
  contenderLog(id: string): string {
    return join(this.logDir, `${id}.log`);
  }
  contenderEvents(id: string): string {
    return join(this.eventsDir, `${id}.jsonl`);
  }
  /** Armed failpoints, one file per contender, read by the contender when it reaches a named point. */
  get failpointsDir(): string {
    return join(this.root, 'failpoints');
  }
  contenderFailpoint(id: string): string {
    return join(this.failpointsDir, `${id}.json`);
  }
  /** What fault kinds keep per node, a folder per kind (`kinds/clock/<node>`: the node's clock file). */
  get kindsDir(): string {
    return join(this.root, 'kinds');
  }
  /** Every file and folder a lab makes in its directory: all a purge may delete there. */
  get entries(): readonly string[] {
    return [
      this.stateFile,
      this.lockFile,
      this.confDir,
      this.dataDir,
      this.logDir,
      this.eventsDir,
      this.secretsDir,
      this.controlSocket,
      this.nodeRulesDir,
      this.proberPidFile,
      this.failpointsDir,
      this.kindsDir,
      this.sshDir,
      this.hostsHold,
    ];
  }
  /** A lab on hosts: its master connections' sockets, one per host (src/hosts/remote-node.ts). */
  get sshDir(): string {
    return join(this.root, 'ssh');
  }
  /** A lab on hosts: the FIFO every node's holder keeps open as its stdin, so that it never ends while it lives. */
  get hostsHold(): string {
    return join(this.root, 'hosts.hold');
  }
  /** Placed on a JVM's command line so the lab can find its own servers again (and tell them from reused pids). */
  get jvmMarker(): string {
    return `${JVM_MARKER_PREFIX}${this.root}`;
  }
  /** The same for node processes (contenders, the link daemon). */
  get nodeMarker(): string {
    return `${NODE_MARKER_PREFIX}${this.root}`;
  }
  get markers(): readonly string[] {
    return [this.jvmMarker, this.nodeMarker];
  }
  get wardenMarker(): string {
    return `${WARDEN_MARKER_PREFIX}${this.root}`;
  }
}

/** The directory the user named for the lab: `--lab`, else `ZKLAB_LAB` (set and not empty); undefined for neither. */
export function namedLabDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return flag ?? (env.ZKLAB_LAB || undefined);
}

export function resolveLabDir(
  flag: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): string {
  return resolve(cwd, namedLabDir(flag, env) ?? DEFAULT_LAB_DIR);
}
