import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  archiveFileName,
  archiveIdentity,
  archivePlan,
  classDataCacheDir,
  classDataDisabled,
  classDataFlags,
  classpathJars,
  parseJavaRelease,
  parseManifestClassPath,
  readJarManifest,
  sharedArchiveFlags,
} from '../../../src/ensemble/class-data.js';
import type { ZooKeeperInstall } from '../../../src/ensemble/discover.js';
import { serverJvmArgs } from '../../../src/ensemble/jvm.js';

const dir = mkdtempSync(join(tmpdir(), 'zklab-cds-unit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A fake Java home: bin/java and a release file saying `version`. */
function fakeJava(name: string, version: string): string {
  const home = join(dir, name);
  mkdirSync(join(home, 'bin'), { recursive: true });
  writeFileSync(join(home, 'bin', 'java'), '#!/bin/sh\n', { mode: 0o755 });
  writeFileSync(
    join(home, 'release'),
    `IMPLEMENTOR="Test"\nJAVA_RUNTIME_VERSION="${version}+1-test"\nJAVA_VERSION="${version}"\n`,
  );
  return join(home, 'bin', 'java');
}

function fakeZk(jars: string[]): ZooKeeperInstall {
  return { layout: 'home', home: dir, classpath: jars.join(':'), version: '3.8.0' };
}

describe('where archives live', () => {
  it('uses $XDG_CACHE_HOME/zklab/cds, else ~/.cache/zklab/cds', () => {
    expect(classDataCacheDir({ XDG_CACHE_HOME: '/x/cache', HOME: '/home/u' })).toBe('/x/cache/zklab/cds');
    expect(classDataCacheDir({ HOME: '/home/u' })).toBe('/home/u/.cache/zklab/cds');
    // A relative XDG_CACHE_HOME is invalid by the spec: ignored.
    expect(classDataCacheDir({ XDG_CACHE_HOME: 'rel', HOME: '/home/u' })).toBe('/home/u/.cache/zklab/cds');
  });

  it('is off with ZKLAB_CDS=0', () => {
    expect(classDataDisabled({ ZKLAB_CDS: '0' })).toBe(true);
    expect(classDataDisabled({ ZKLAB_CDS: 'off' })).toBe(true);
    expect(classDataDisabled({})).toBe(false);
    expect(classDataDisabled({ ZKLAB_CDS: '1' })).toBe(false);
  });
});

describe('reading Java and jars', () => {
  it('reads the feature version and build from a release file', () => {
    expect(parseJavaRelease('JAVA_VERSION="17.0.15"\nJAVA_RUNTIME_VERSION="17.0.15+6-Debian-1deb12u1"\n')).toEqual({
      feature: 17,
      build: '17.0.15+6-Debian-1deb12u1',
    });
    expect(parseJavaRelease('JAVA_VERSION="1.8.0_392"\n')).toEqual({ feature: 8, build: '1.8.0_392' });
    expect(parseJavaRelease('JAVA_VERSION="21"\n')?.feature).toBe(21);
    expect(parseJavaRelease('nothing here')).toBeUndefined();
  });

  it('reads a manifest Class-Path across continuation lines', () => {
    const mf =
      'Manifest-Version: 1.0\r\nClass-Path: /usr/share/java/commons-cli.jar /usr/share/java/commons-io.j\r\n ar lib/netty.jar\r\nCreated-By: Maven\r\n';
    expect(parseManifestClassPath(mf)).toEqual([
      '/usr/share/java/commons-cli.jar',
      '/usr/share/java/commons-io.jar',
      'lib/netty.jar',
    ]);
    expect(parseManifestClassPath('Manifest-Version: 1.0\n')).toEqual([]);
  });

  it('follows manifests and expands dir/* in class path order, each jar once', () => {
    const lib = join(dir, 'lib');
    mkdirSync(lib, { recursive: true });
    for (const j of ['b.jar', 'a.jar', 'notes.txt']) writeFileSync(join(lib, j), '');
    const manifests: Record<string, string> = { [join(dir, 'main.jar')]: 'Class-Path: lib/a.jar dep.jar\n' };
    writeFileSync(join(dir, 'main.jar'), '');
    const jars = classpathJars([join(dir, 'main.jar'), join(lib, '*')].join(':'), (j) => manifests[j]);
    expect(jars).toEqual([join(dir, 'main.jar'), join(lib, 'a.jar'), join(dir, 'dep.jar'), join(lib, 'b.jar')]);
  });

  it('reads no manifest from a file that is not a jar', () => {
    writeFileSync(join(dir, 'broken.jar'), 'not a zip');
    expect(readJarManifest(join(dir, 'broken.jar'))).toBeUndefined();
    expect(readJarManifest(join(dir, 'absent.jar'))).toBeUndefined();
  });
});

describe('the archive key', () => {
  const java = fakeJava('jdk17', '17.0.15');
  const jar = join(dir, 'zookeeper.jar');
  writeFileSync(jar, 'v1');

  it('changes with a jar, the Java build or the class path, and not otherwise', () => {
    const t = { java, zk: fakeZk([jar]) };
    const id = archiveIdentity(t, '17.0.15+6');
    expect(archiveIdentity(t, '17.0.15+6')).toBe(id);
    expect(archiveIdentity(t, '17.0.16+1')).not.toBe(id);
    expect(archiveIdentity({ java, zk: fakeZk([jar, join(dir, 'other.jar')]) }, '17.0.15+6')).not.toBe(id);
    utimesSync(jar, new Date(2020, 1, 1), new Date(2020, 1, 1));
    expect(archiveIdentity(t, '17.0.15+6')).not.toBe(id);
  });

  it('names the archive for people and keys it by a hash', () => {
    const name = archiveFileName('3.8.0', 17, 'identity');
    expect(name).toMatch(/^zookeeper-3\.8\.0-java17-[0-9a-f]{16}\.jsa$/);
    expect(archiveFileName('3.8.0', 17, 'identity')).toBe(name);
    expect(archiveFileName('3.8.0', 17, 'other')).not.toBe(name);
    expect(archiveFileName(undefined, 21, 'x')).toMatch(/^zookeeper-unknown-java21-/);
  });
});

describe('choosing the flags', () => {
  const jar = join(dir, 'zk.jar');
  writeFileSync(jar, '');

  it('uses an archive with -Xshare:auto, so that a bad one never stops a server', () => {
    expect(sharedArchiveFlags('/c/a.jsa')).toEqual(['-XX:SharedArchiveFile=/c/a.jsa', '-Xshare:auto']);
    expect(sharedArchiveFlags(undefined)).toEqual([]);
  });

  it('plans no archive before Java 13 (no dynamic archives) or when turned off', () => {
    const env = { XDG_CACHE_HOME: join(dir, 'cache') };
    expect(archivePlan({ java: fakeJava('jdk11', '11.0.20'), zk: fakeZk([jar]) }, env)).toBeUndefined();
    expect(archivePlan({ java: fakeJava('jdk8', '1.8.0_392'), zk: fakeZk([jar]) }, env)).toBeUndefined();
    expect(
      archivePlan({ java: fakeJava('jdk17b', '17.0.15'), zk: fakeZk([jar]) }, { ...env, ZKLAB_CDS: '0' }),
    ).toBeUndefined();
    const plan = archivePlan({ java: fakeJava('jdk17c', '17.0.15'), zk: fakeZk([jar]) }, env);
    expect(plan?.path.startsWith(join(dir, 'cache', 'zklab', 'cds', 'zookeeper-3.8.0-java17-'))).toBe(true);
    expect(plan?.exists).toBe(false);
  });

  it('adds the archive to a server command line once it exists, and nothing before', () => {
    const env = { XDG_CACHE_HOME: join(dir, 'cache2') };
    const t = { java: fakeJava('jdk17d', '17.0.15'), zk: fakeZk([jar]) };
    // Run from sources, a missing archive starts no background build: there is simply none.
    expect(classDataFlags(t, env)).toEqual([]);
    const plan = archivePlan(t, env)!;
    mkdirSync(join(dir, 'cache2', 'zklab', 'cds'), { recursive: true });
    writeFileSync(plan.path, '');
    expect(classDataFlags(t, env)).toEqual([`-XX:SharedArchiveFile=${plan.path}`, '-Xshare:auto']);
  });

  it('leaves the archive out of the command line that builds it', () => {
    const args = serverJvmArgs({
      java: fakeJava('jdk17e', '17.0.15'),
      zk: fakeZk([jar]),
      configFile: '/c/zoo.cfg',
      confDir: '/c',
      logDir: '/l',
      markers: [],
      classData: false,
    });
    expect(args.some((a) => a.startsWith('-XX:SharedArchiveFile'))).toBe(false);
    expect(args.slice(-2)).toEqual(['org.apache.zookeeper.server.quorum.QuorumPeerMain', '/c/zoo.cfg']);
  });
});
