import { accessSync, constants, existsSync, mkdirSync, readFileSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * How the lab holds a node (a contender or a server and every process it starts, however it detaches) as one:
 *   cgroup2  a control group per node in the cgroup v2 hierarchy: cgroup.kill and cgroup.freeze act on all of it;
 *   cgroup1  a cgroup per node in the v1 freezer hierarchy, where only v1 is there: frozen, then every task killed;
 *   marker   no control group can be made: the node's processes are found by ZKLAB_NODE in their environment,
 *            which survives double forks and setsid (a program that clears its environment escapes it).
 * ZKLAB_CONTAINMENT=marker (or cgroup) chooses; otherwise the first that works here.
 */
export type ContainmentKind = 'cgroup2' | 'cgroup1' | 'marker';

export interface Containment {
  readonly kind: ContainmentKind;
  /** The lab-wide directory the nodes' cgroups go under; '' for markers. */
  readonly base: string;
  /** Why this one, in words for `zklab doctor`. */
  readonly why: string;
}

/** The environment variable every node's processes carry: `<lab root>:<node name>`. */
export const NODE_ENV = 'ZKLAB_NODE';

/** Where the kernel's cgroup hierarchies are mounted: the v2 one, and v1's freezer (from /proc/self/mountinfo). */
let mounted: { v2?: string; freezer?: string } | undefined;

export function cgroupMounts(): { v2?: string; freezer?: string } {
  mounted ??= readMounts();
  return mounted;
}

function readMounts(): { v2?: string; freezer?: string } {
  const out: { v2?: string; freezer?: string } = {};
  let info = '';
  try {
    info = readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    return out;
  }
  for (const line of info.split('\n')) {
    // `<id> <parent> <dev> <root> <mount point> <options> … - <fs type> <source> <super options>`
    const [left, right] = line.split(' - ');
    if (!left || !right) continue;
    const mountPoint = left.split(' ')[4];
    const [fsType, , superOpts] = right.split(' ');
    if (!mountPoint) continue;
    if (fsType === 'cgroup2') out.v2 ??= mountPoint;
    if (fsType === 'cgroup' && superOpts?.split(',').includes('freezer')) out.freezer ??= mountPoint;
  }
  return out;
}

function isCgroup2(dir: string): boolean {
  return existsSync(join(dir, 'cgroup.procs')) && existsSync(join(dir, 'cgroup.controllers'));
}

/** This process's own cgroup v2 path (`0::/user.slice/…`), relative to the mount. */
function ownV2Path(): string {
  try {
    const line = readFileSync('/proc/self/cgroup', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('0::'));
    return line ? line.slice(3) : '/';
  } catch {
    return '/';
  }
}

/** True when this process may make a directory of cgroups here and move processes into them. */
function canManage(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    const probe = join(dir, `zklab-probe-${process.pid}`);
    mkdirSync(probe);
    rmdirSync(probe);
    return true;
  } catch {
    return false;
  }
}

let chosen: Containment | undefined;

const FORCED = ['marker', 'cgroup', 'cgroup1', 'cgroup2'] as const;

function cgroup2(mount: string): Containment | undefined {
  if (!isCgroup2(mount)) return undefined;
  // A delegated subtree (a systemd user scope with Delegate=yes) is this process's own cgroup; as root, the mount.
  const own = ownV2Path() === '/' ? mount : join(mount, ownV2Path());
  for (const dir of own === mount ? [mount] : [own, mount]) {
    if (!canManage(dir)) continue;
    const how = dir === mount ? `${mount}, writable by this user` : `${dir}, a subtree delegated to this user`;
    return { kind: 'cgroup2', base: join(dir, 'zklab'), why: `cgroup v2 control groups under ${how}` };
  }
  return undefined;
}

function cgroup1(freezer: string): Containment | undefined {
  if (!existsSync(join(freezer, 'tasks')) || !canManage(freezer)) return undefined;
  return { kind: 'cgroup1', base: join(freezer, 'zklab'), why: `the cgroup v1 freezer at ${freezer}` };
}

/**
 * The containment of this machine for this user (cached: it does not change while a command runs).
 * ZKLAB_CONTAINMENT=marker|cgroup|cgroup2|cgroup1 narrows the choice (tests run each mechanism that way).
 */
export function containment(env: NodeJS.ProcessEnv = process.env): Containment {
  if (chosen && env === process.env) return chosen;
  const asked = env.ZKLAB_CONTAINMENT;
  const forced = FORCED.find((f) => f === asked);
  const pick = (): Containment => {
    if (forced === 'marker') {
      return { kind: 'marker', base: '', why: 'environment markers (ZKLAB_NODE), as ZKLAB_CONTAINMENT=marker asks' };
    }
    const mounts = cgroupMounts();
    const found =
      (forced !== 'cgroup1' && mounts.v2 ? cgroup2(mounts.v2) : undefined) ??
      (forced !== 'cgroup2' && mounts.freezer ? cgroup1(mounts.freezer) : undefined);
    if (found) return found;
    const why = forced
      ? `ZKLAB_CONTAINMENT=${forced}, but no such cgroup hierarchy here is writable by this user`
      : 'no cgroup hierarchy here is writable by this user (run as root, or in a delegated systemd scope)';
    return { kind: 'marker', base: '', why: `environment markers (ZKLAB_NODE): ${why}` };
  };
  const c = pick();
  const ignored = asked !== undefined && asked !== '' && !forced;
  const told = ignored ? { ...c, why: `${c.why} (ZKLAB_CONTAINMENT=${asked} is not one of ${FORCED.join(', ')})` } : c;
  if (env === process.env) chosen = told;
  return told;
}

/**
 * True when the process is paused: stopped by a signal (state T), or frozen with its control group (a frozen task
 * sleeps in the kernel's freezer and shows state S or D; only its cgroup says so).
 */
export function processFrozen(pid: number): boolean {
  let groups: string;
  try {
    groups = readFileSync(`/proc/${pid}/cgroup`, 'utf8');
  } catch {
    return false;
  }
  const mounts = cgroupMounts();
  for (const line of groups.split('\n')) {
    const [hierarchy, controllers, path] = line.split(':');
    if (path === undefined || path === '/') continue;
    if (hierarchy === '0' && mounts.v2) {
      const events = readText(join(mounts.v2, path, 'cgroup.events'));
      if (/^frozen 1$/m.test(events)) return true;
    }
    if (controllers?.split(',').includes('freezer') && mounts.freezer) {
      if (readText(join(mounts.freezer, path, 'freezer.state')).trim() === 'FROZEN') return true;
    }
  }
  return false;
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
