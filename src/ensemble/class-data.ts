/**
 * Class-data sharing for lab servers: a dynamic AppCDS archive of the classes a ZooKeeper server loads while it starts,
 * built once per (Java build, ZooKeeper class path) and kept under $XDG_CACHE_HOME/zklab/cds/ (else ~/.cache/zklab/cds/).
 * A server started with it maps those classes instead of reading, verifying and parsing them from the jars.
 *
 * The archive is built by `bin/setup` (`node dist/ensemble/class-data-build.js`, src/ensemble/class-data-build.ts);
 * never in the background, where no lab would own the process. Whatever goes wrong, servers start without an archive:
 * Java < 13 (no dynamic archives), no archive built, ZKLAB_CDS=0.
 *
 * Facts (OpenJDK 17, verified here): SIGTERM to a server started with -XX:ArchiveClassesAtExit writes the archive on the
 * way out; a *truncated* archive crashes the JVM that maps it (SIGBUS), so an archive is only ever written under a temp
 * name, checked with -Xshare:on and renamed into place; an archive whose class path no longer matches is refused with a
 * one-line warning, hence the key covers every jar (the manifest's Class-Path too) by path, size and mtime.
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fstatSync,
  openSync,
  readFileSync,
  readSync,
  readdirSync,
  realpathSync,
  statSync,
} from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateRawSync } from 'node:zlib';
import { cacheDir } from '../cache-dir.js';
import type { ZooKeeperInstall } from './discover.js';

/** Dynamic archives (-XX:ArchiveClassesAtExit) arrived in Java 13. */
export const MIN_DYNAMIC_ARCHIVE_JAVA = 13;

/** Where archives live. */
export function classDataCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return cacheDir('cds', env);
}

/** ZKLAB_CDS=0 (or false/off/no) turns class-data sharing off: no archive is used or built. */
export function classDataDisabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return /^(0|false|off|no)$/i.test(env.ZKLAB_CDS ?? '');
}

/** Java's version from the `release` file of its home: `JAVA_RUNTIME_VERSION` (the exact build) and the feature number. */
export function parseJavaRelease(text: string): { feature: number; build: string } | undefined {
  const get = (k: string) => new RegExp(`^${k}="([^"]*)"`, 'm').exec(text)?.[1];
  const version = get('JAVA_VERSION');
  if (!version) return undefined;
  const parts = version.split(/[._+-]/).map((p) => Number.parseInt(p, 10));
  const feature = parts[0] === 1 ? parts[1] : parts[0]; // "1.8.0_392" is Java 8
  if (feature === undefined || Number.isNaN(feature)) return undefined;
  return { feature, build: get('JAVA_RUNTIME_VERSION') ?? version };
}

/** The Class-Path entries of a jar manifest (continuation lines start with one space). */
export function parseManifestClassPath(manifest: string): string[] {
  const joined = manifest.replace(/\r?\n /g, '');
  const line = joined.split(/\r?\n/).find((l) => /^Class-Path:/i.test(l));
  return line
    ? line
        .slice(line.indexOf(':') + 1)
        .trim()
        .split(/\s+/)
        .filter(Boolean)
    : [];
}

/** META-INF/MANIFEST.MF of a jar (a zip read by hand: its end record, central directory and one entry), or undefined. */
export function readJarManifest(jar: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(jar, 'r');
    const size = fstatSync(fd).size;
    const read = (pos: number, len: number): Buffer => {
      const b = Buffer.alloc(Math.max(0, Math.min(len, size - pos)));
      readSync(fd!, b, 0, b.length, pos);
      return b;
    };
    const tailStart = Math.max(0, size - 65_557);
    const tail = read(tailStart, size - tailStart);
    let eocd = -1;
    for (let i = tail.length - 22; i >= 0; i--) {
      if (tail.readUInt32LE(i) === 0x06054b50) {
        eocd = i;
        break;
      }
    }
    if (eocd < 0) return undefined;
    const entries = tail.readUInt16LE(eocd + 10);
    const cd = read(tail.readUInt32LE(eocd + 16), tail.readUInt32LE(eocd + 12));
    for (let n = 0, p = 0; n < entries && p + 46 <= cd.length && cd.readUInt32LE(p) === 0x02014b50; n++) {
      const nameLen = cd.readUInt16LE(p + 28);
      if (cd.toString('utf8', p + 46, p + 46 + nameLen).toUpperCase() === 'META-INF/MANIFEST.MF') {
        const method = cd.readUInt16LE(p + 10);
        const compressed = cd.readUInt32LE(p + 20);
        const local = cd.readUInt32LE(p + 42);
        const header = read(local, 30);
        const data = read(local + 30 + header.readUInt16LE(26) + header.readUInt16LE(28), compressed);
        return (method === 8 ? inflateRawSync(data) : data).toString('utf8');
      }
      p += 46 + nameLen + cd.readUInt16LE(p + 30) + cd.readUInt16LE(p + 32);
    }
  } catch {
    // unreadable or not a zip: no manifest
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return undefined;
}

/** Every jar the class path loads from, in order: `dir/*` expanded, and the jars each manifest's Class-Path adds. */
export function classpathJars(
  classpath: string,
  manifestOf: (jar: string) => string | undefined = readJarManifest,
): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (jar: string) => {
    if (seen.has(jar)) return;
    seen.add(jar);
    out.push(jar);
    const manifest = existsSync(jar) ? manifestOf(jar) : undefined;
    for (const entry of manifest ? parseManifestClassPath(manifest) : []) {
      const path = entry.startsWith('file:') ? fileURLToPath(entry) : resolve(dirname(jar), decodeURIComponent(entry));
      if (path.endsWith('.jar')) add(path);
    }
  };
  for (const entry of classpath.split(delimiter).filter(Boolean)) {
    if (entry.endsWith('*')) {
      const dir = entry.slice(0, -1) || '.';
      const jars = existsSync(dir)
        ? readdirSync(dir)
            .filter((f) => /\.jar$/i.test(f))
            .sort()
        : [];
      for (const f of jars) add(join(dir, f));
    } else add(entry);
  }
  return out;
}

function fileIdentity(path: string): string {
  try {
    const real = realpathSync(path);
    const st = statSync(real);
    return `${path} -> ${real} ${st.size} ${Math.trunc(st.mtimeMs)}`;
  } catch {
    return `${path} missing`;
  }
}

export interface ClassDataTarget {
  /** The java binary the servers run. */
  readonly java: string;
  readonly zk: ZooKeeperInstall;
}

/** What the archive depends on: the Java build and its libjvm, and every jar by path, size and mtime. */
export function archiveIdentity(t: ClassDataTarget, javaBuild: string): string {
  const home = javaHomeOf(t.java);
  const libjvm = ['lib/server/libjvm.so', 'lib/server/libjvm.dylib', 'jre/lib/amd64/server/libjvm.so']
    .map((p) => join(home, p))
    .find((p) => existsSync(p));
  return [
    `java ${fileIdentity(t.java)} ${javaBuild}`,
    `libjvm ${libjvm ? fileIdentity(libjvm) : 'unknown'}`,
    `classpath ${t.zk.classpath}`,
    ...classpathJars(t.zk.classpath).map(fileIdentity),
  ].join('\n');
}

/** The archive's file name: readable for people, keyed by a hash of its identity. */
export function archiveFileName(zkVersion: string | undefined, javaFeature: number, identity: string): string {
  const key = createHash('sha256').update(identity).digest('hex').slice(0, 16);
  return `zookeeper-${zkVersion ?? 'unknown'}-java${javaFeature}-${key}.jsa`;
}

/** The JVM options that use an archive: -Xshare:auto, so that an unusable archive never stops a server. */
export function sharedArchiveFlags(archive: string | undefined): string[] {
  return archive ? [`-XX:SharedArchiveFile=${archive}`, '-Xshare:auto'] : [];
}

function javaHomeOf(javaBin: string): string {
  try {
    return dirname(dirname(realpathSync(javaBin)));
  } catch {
    return dirname(dirname(javaBin));
  }
}

/** The feature version and build of a java binary, from its home's `release` file; undefined when unknown. */
export function javaRelease(javaBin: string): { feature: number; build: string } | undefined {
  try {
    return parseJavaRelease(readFileSync(join(javaHomeOf(javaBin), 'release'), 'utf8'));
  } catch {
    return undefined;
  }
}

export interface ArchivePlan {
  /** Where the archive is, or will be once built. */
  readonly path: string;
  readonly exists: boolean;
}

const plans = new Map<string, ArchivePlan | undefined>();

/** Where this (java, ZooKeeper)'s archive belongs, or undefined when none can be used (Java < 13, unknown, disabled). */
export function archivePlan(t: ClassDataTarget, env: NodeJS.ProcessEnv = process.env): ArchivePlan | undefined {
  if (classDataDisabled(env)) return undefined;
  const memo = `${t.java}\0${t.zk.classpath}\0${classDataCacheDir(env)}`;
  let plan = plans.get(memo);
  if (!plans.has(memo)) {
    const release = javaRelease(t.java);
    plan =
      release && release.feature >= MIN_DYNAMIC_ARCHIVE_JAVA
        ? {
            path: join(
              classDataCacheDir(env),
              archiveFileName(t.zk.version, release.feature, archiveIdentity(t, release.build)),
            ),
            exists: false,
          }
        : undefined;
    plans.set(memo, plan);
  }
  return plan && { path: plan.path, exists: existsSync(plan.path) };
}

/** The archive options for a lab server: the archive when it is built (bin/setup builds it), else none. */
export function classDataFlags(t: ClassDataTarget, env: NodeJS.ProcessEnv = process.env): string[] {
  const plan = archivePlan(t, env);
  return plan?.exists ? sharedArchiveFlags(plan.path) : [];
}
