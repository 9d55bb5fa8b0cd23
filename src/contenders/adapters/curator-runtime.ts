import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { basename, delimiter, dirname, join } from 'node:path';
import { findJava, type JavaInstall } from '../../ensemble/discover.js';
import { EnvironmentError, UsageError } from '../../errors.js';
import { cacheDir } from '../../cache-dir.js';
import { PACKAGE_ROOT } from '../../templates.js';
import { findIn, pathDirs } from '../../search-path.js';

/** Curator's LeaderLatch as a zklab contender: a Java source compiled once per (source, class path, Java). */

export const CURATOR_SOURCE = join(PACKAGE_ROOT, 'src', 'contenders', 'adapters', 'CuratorLatch.java');
export const CURATOR_MAIN_CLASS = 'CuratorLatch';
const DEBIAN_JAVA_DIR = '/usr/share/java';
const CURATOR_PACKAGE_HINT =
  'install the Debian package `libcurator-recipes-java` (bin/setup installs it), ' +
  "or set CURATOR_CLASSPATH to Curator's jars and their dependencies";

/** What the program needs at run time from Debian's /usr/share/java, in class path order. */
export const DEBIAN_CURATOR_JARS: readonly string[] = [
  'curator-recipes.jar',
  'curator-framework.jar',
  'curator-client.jar',
  'zookeeper.jar',
  'zookeeper-jute.jar',
  'guava.jar',
  'slf4j-api.jar',
];
/** Used when present: guava's failureaccess when it is packaged apart, and a no-op slf4j binding that silences slf4j's warning. */
export const DEBIAN_OPTIONAL_JARS: readonly string[] = ['failureaccess.jar', 'slf4j-nop.jar'];

export interface CuratorRuntime {
  readonly java: JavaInstall;
  /** e.g. "17.0.15". */
  readonly javaVersion: string;
  readonly javac: string;
  readonly classpath: readonly string[];
  readonly classpathSource: 'CURATOR_CLASSPATH' | 'debian';
  /** e.g. "5.4.0", from a jar's file name; undefined when no name carries it. */
  readonly curatorVersion: string | undefined;
}

/** Splits a colon-separated class path, dropping empty entries. */
export function parseClasspath(value: string): string[] {
  return value
    .split(delimiter)
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
}

/** The Debian class path, or the required jars that are missing. */
export function debianCuratorClasspath(
  exists: (path: string) => boolean,
  dir = DEBIAN_JAVA_DIR,
): { classpath: string[]; missing: string[] } {
  const required = DEBIAN_CURATOR_JARS.map((j) => join(dir, j));
  const optional = DEBIAN_OPTIONAL_JARS.map((j) => join(dir, j)).filter(exists);
  return { classpath: [...required, ...optional], missing: required.filter((p) => !exists(p)) };
}

/**
 * "5.4.0" from a jar name such as curator-recipes-5.4.0.jar. Debian's class path names the unversioned jar and keeps
 * the versioned name as a symlink beside it, so callers pass the class path's names and their directories' listings.
 */
export function curatorVersionOf(jarNames: readonly string[]): string | undefined {
  for (const name of jarNames) {
    const m = /^curator-(?:recipes|framework|client)-(\d+\.\d+\.\d+[\w.-]*?)\.jar$/.exec(basename(name));
    if (m) return m[1];
  }
  return undefined;
}

/** JAVA_VERSION from a JDK's `release` file, or the quoted version in `java -version` output. */
export function parseJavaVersion(text: string): string | undefined {
  return /^JAVA_VERSION="([^"]+)"/m.exec(text)?.[1] ?? /version "([^"]+)"/.exec(text)?.[1];
}

/** 17 from "17.0.15", 8 from "1.8.0_392". */
export function javaMajor(version: string): number {
  const [first, second] = version.split(/[.+_-]/).map((n) => Number.parseInt(n, 10));
  return first === 1 && second !== undefined ? second : (first ?? 0);
}

/** The cache directory's name: changes with the source, the class path (its entries' fingerprints) and the Java. */
export function curatorCacheKey(source: string, classpath: readonly string[], javaVersion: string): string {
  const hash = createHash('sha256')
    .update(source)
    .update('\0')
    .update(classpath.join(delimiter))
    .update('\0')
    .update(javaVersion)
    .digest('hex');
  return `curator-latch-${hash.slice(0, 16)}`;
}

/** $XDG_CACHE_HOME/zklab/adapters, else ~/.cache/zklab/adapters. */
export function adapterCacheRoot(env: NodeJS.ProcessEnv = process.env, home?: string): string {
  return cacheDir('adapters', env, home);
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** A class path entry as it is now: its real file, size and time, so that an upgraded jar means a new compile. */
function fingerprint(entry: string): string {
  try {
    const st = statSync(entry);
    return `${realpathSync(entry)}@${st.size}:${Math.trunc(st.mtimeMs)}`;
  } catch {
    return entry;
  }
}

function resolveClasspath(env: NodeJS.ProcessEnv): Pick<CuratorRuntime, 'classpath' | 'classpathSource'> {
  if (env.CURATOR_CLASSPATH) {
    const entries = parseClasspath(env.CURATOR_CLASSPATH);
    if (entries.length === 0)
      throw new UsageError(
        'CURATOR_CLASSPATH is set but empty',
        `set it to Curator's jars (colon-separated), or unset it to use Debian's; ${CURATOR_PACKAGE_HINT}`,
      );
    // "dir/*" is the JVM's wildcard: the directory has to exist.
    const absent = entries.filter((p) => !existsSync(p.endsWith('/*') ? p.slice(0, -2) : p));
    if (absent.length > 0)
      throw new UsageError(
        `CURATOR_CLASSPATH names ${absent.join(', ')}, which ${absent.length === 1 ? 'does' : 'do'} not exist`,
        "fix CURATOR_CLASSPATH (colon-separated jars or dir/*), or unset it to use Debian's libcurator-recipes-java",
      );
    return { classpath: entries, classpathSource: 'CURATOR_CLASSPATH' };
  }
  const { classpath, missing } = debianCuratorClasspath(existsSync);
  if (missing.length > 0)
    throw new UsageError(`Apache Curator is not installed (missing ${missing.join(', ')})`, CURATOR_PACKAGE_HINT);
  return { classpath, classpathSource: 'debian' };
}

async function javaVersionOf(java: JavaInstall): Promise<string> {
  try {
    const release = join(dirname(dirname(realpathSync(java.bin))), 'release');
    const version = parseJavaVersion(readFileSync(release, 'utf8'));
    if (version) return version;
  } catch {
    // no release file next to this java: ask it
  }
  const { execa } = await import('execa');
  const r = await execa(java.bin, ['-version'], { reject: false, timeout: 20_000 });
  const version = parseJavaVersion(`${r.stderr}\n${r.stdout}`);
  if (r.exitCode !== 0 || !version)
    throw new EnvironmentError(
      `${java.bin} -version failed: ${(r.stderr || r.stdout).split('\n')[0] ?? ''}`,
      'reinstall the JRE (bin/setup does it on Debian), or point JAVA_HOME at a working one',
    );
  return version;
}

function findJavac(java: JavaInstall, env: NodeJS.ProcessEnv): string {
  const beside = [dirname(java.bin), dirname(realpathSync(java.bin))];
  const found = findIn([...beside, ...pathDirs(env)], 'javac');
  if (!found)
    throw new UsageError(
      `the Java compiler (javac) was not found next to ${java.bin} or on PATH; the Curator contender is compiled once before its first run`,
      'install the Debian package `default-jdk-headless` (bin/setup installs it), or point JAVA_HOME at a JDK',
    );
  return found;
}

/** Finds Java, javac and Curator's jars without compiling anything. Throws UsageError/EnvironmentError. */
export async function locateCurator(env: NodeJS.ProcessEnv = process.env): Promise<CuratorRuntime> {
  const { classpath, classpathSource } = resolveClasspath(env);
  const java = findJava(env);
  const javac = findJavac(java, env);
  const javaVersion = await javaVersionOf(java);
  // Debian's versioned names sit beside the unversioned jars; a "dir/*" entry names whatever its directory holds.
  const beside = classpath
    .filter((p) => p.endsWith('/*') || /curator-recipes\.jar$/.test(p))
    .flatMap((p) => listDir(dirname(p)));
  const curatorVersion = curatorVersionOf([...classpath, ...beside]);
  return { java, javaVersion, javac, classpath, classpathSource, curatorVersion };
}

export function describeCurator(rt: CuratorRuntime): string {
  const from = rt.classpathSource === 'debian' ? 'Debian jars' : 'CURATOR_CLASSPATH';
  return `Curator ${rt.curatorVersion ?? '(version unknown)'} on Java ${rt.javaVersion} (${rt.java.bin}; ${from})`;
}

const compiling = new Map<string, Promise<string>>();

/**
 * The directory holding CuratorLatch.class, compiled on first use into the cache. javac writes into a private
 * temporary directory that is then renamed into place, so a concurrent spawn sees either nothing or all of it.
 */
export function compileCuratorLatch(rt: CuratorRuntime, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const source = readFileSync(CURATOR_SOURCE, 'utf8');
  const dir = join(
    adapterCacheRoot(env),
    curatorCacheKey(source, rt.classpath.map(fingerprint), `${rt.javaVersion} ${rt.javac}`),
  );
  let pending = compiling.get(dir);
  if (!pending) {
    pending = compileInto(dir, rt).finally(() => compiling.delete(dir));
    compiling.set(dir, pending);
  }
  return pending;
}

async function compileInto(dir: string, rt: CuratorRuntime): Promise<string> {
  if (existsSync(join(dir, `${CURATOR_MAIN_CLASS}.class`))) return dir;
  let tmp: string;
  try {
    mkdirSync(dirname(dir), { recursive: true });
    tmp = mkdtempSync(join(dirname(dir), '.compiling-'));
  } catch (e) {
    throw new EnvironmentError(
      `cannot write the adapter cache ${dirname(dir)} (${(e as NodeJS.ErrnoException).code ?? 'error'})`,
      'set XDG_CACHE_HOME to a writable directory',
      { cause: e },
    );
  }
  try {
    const { execa } = await import('execa');
    const args = [
      '-nowarn',
      '-Xlint:-path',
      '-encoding',
      'UTF-8',
      '--release',
      String(javaMajor(rt.javaVersion)),
      '-cp',
      rt.classpath.join(delimiter),
      '-d',
      tmp,
      CURATOR_SOURCE,
    ];
    const r = await execa(rt.javac, args, { reject: false, timeout: 120_000, all: true });
    if (r.exitCode !== 0) {
      const detail = (r.all ?? '').split('\n').slice(0, 5).join('\n  ');
      throw new EnvironmentError(
        `javac could not compile ${CURATOR_SOURCE} against ${rt.classpath.join(delimiter)}:\n  ${detail}`,
        rt.classpathSource === 'debian'
          ? 'reinstall `libcurator-recipes-java` (bin/setup), or set CURATOR_CLASSPATH to a complete Curator 5 class path'
          : "CURATOR_CLASSPATH must hold curator-recipes, curator-framework, curator-client and ZooKeeper's client jars",
      );
    }
    try {
      renameSync(tmp, dir);
    } catch (e) {
      // Another spawn renamed its copy first: theirs is complete, ours is not needed.
      if (!existsSync(join(dir, `${CURATOR_MAIN_CLASS}.class`))) throw e;
    }
    return dir;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
