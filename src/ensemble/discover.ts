import { existsSync, readdirSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { EnvironmentError } from '../errors.js';
import { findIn, pathDirs } from '../search-path.js';

export interface ZooKeeperInstall {
  /** Where it was found: 'debian' package layout or a 'home' (release tarball) layout. */
  readonly layout: 'debian' | 'home';
  readonly home: string;
  readonly classpath: string;
  /** e.g. "3.8.0", parsed from the jar name; undefined when the jar name carries none. */
  readonly version: string | undefined;
}

export interface JavaInstall {
  readonly bin: string;
  readonly source: 'JAVA_HOME' | 'PATH';
}

const DEBIAN_JAVA_DIR = '/usr/share/java';
const SETUP_HINT = 'run `bin/setup` (as root on Debian it installs the `zookeeper` package and a JRE)';

export const MIN_ZOOKEEPER_VERSION = '3.5.4';

export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map((n) => Number.parseInt(n, 10) || 0);
  const pb = b.split('.').map((n) => Number.parseInt(n, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

function versionFromJars(dir: string): string | undefined {
  if (!existsSync(dir)) return undefined;
  for (const name of readdirSync(dir)) {
    const m = /^zookeeper-(\d+\.\d+\.\d+)\.jar$/.exec(name);
    if (m) return m[1];
  }
  return undefined;
}

function fromHome(home: string, origin: string): ZooKeeperInstall {
  if (!existsSync(home) || !statSync(home).isDirectory()) {
    throw new EnvironmentError(
      `${origin} points at ${home}, which is not a directory`,
      `set it to a ZooKeeper release directory (one with lib/) or unset it; ${SETUP_HINT}`,
    );
  }
  const lib = join(home, 'lib');
  if (existsSync(lib)) {
    const version = versionFromJars(lib) ?? versionFromJars(home);
    // Release tarballs keep the server jar either in lib/ (3.5+) or next to it (older builds).
    return { layout: 'home', home, classpath: [join(lib, '*'), join(home, '*')].join(delimiter), version };
  }
  if (home === '/usr/share/zookeeper' || existsSync(join(DEBIAN_JAVA_DIR, 'zookeeper.jar'))) {
    const debian = fromDebian();
    if (debian) return debian;
  }
  throw new EnvironmentError(
    `${origin}=${home} has no lib/ directory with ZooKeeper's jars`,
    `point it at an unpacked apache-zookeeper-X.Y.Z-bin release, or ${SETUP_HINT}`,
  );
}

function fromDebian(): ZooKeeperInstall | undefined {
  const jar = join(DEBIAN_JAVA_DIR, 'zookeeper.jar');
  if (!existsSync(jar)) return undefined;
  // The jar's manifest carries the rest of the class path; logging needs the slf4j→log4j binding next to it.
  const extra = ['slf4j-log4j12.jar', 'log4j-1.2.jar']
    .map((j) => join(DEBIAN_JAVA_DIR, j))
    .filter((p) => existsSync(p));
  return {
    layout: 'debian',
    home: '/usr/share/zookeeper',
    classpath: [jar, ...extra].join(delimiter),
    version: versionFromJars(DEBIAN_JAVA_DIR),
  };
}

/** Finds ZooKeeper: an explicit --zk-home, then ZOOKEEPER_HOME, then Debian's package paths. */
export function findZooKeeper(zkHome?: string, env: NodeJS.ProcessEnv = process.env): ZooKeeperInstall {
  let found: ZooKeeperInstall | undefined;
  if (zkHome) found = fromHome(zkHome, '--zk-home');
  else if (env.ZOOKEEPER_HOME) found = fromHome(env.ZOOKEEPER_HOME, 'ZOOKEEPER_HOME');
  else found = fromDebian();
  if (!found) {
    throw new EnvironmentError(
      'ZooKeeper is not installed (no --zk-home, no ZOOKEEPER_HOME, no /usr/share/java/zookeeper.jar)',
      `${SETUP_HINT}, or set ZOOKEEPER_HOME to a ZooKeeper ≥ ${MIN_ZOOKEEPER_VERSION} release`,
    );
  }
  if (found.version && compareVersions(found.version, MIN_ZOOKEEPER_VERSION) < 0) {
    throw new EnvironmentError(
      `ZooKeeper ${found.version} at ${found.home} is too old: zklab needs ${MIN_ZOOKEEPER_VERSION} or newer (TTL nodes, 4lw whitelist)`,
      'install a newer release and point ZOOKEEPER_HOME at it',
    );
  }
  return found;
}

/** Finds Java: JAVA_HOME/bin/java, then `java` on PATH. */
export function findJava(env: NodeJS.ProcessEnv = process.env): JavaInstall {
  if (env.JAVA_HOME) {
    const bin = join(env.JAVA_HOME, 'bin', 'java');
    if (existsSync(bin)) return { bin, source: 'JAVA_HOME' };
    throw new EnvironmentError(
      `JAVA_HOME=${env.JAVA_HOME} has no bin/java`,
      'point JAVA_HOME at a JDK or JRE (11 or newer), or unset it to use java from PATH',
    );
  }
  const bin = findIn(pathDirs(env), 'java');
  if (bin) return { bin, source: 'PATH' };
  throw new EnvironmentError(
    'Java was not found (no JAVA_HOME, no java on PATH)',
    `${SETUP_HINT}, or install a JRE 11+ and put java on PATH`,
  );
}
