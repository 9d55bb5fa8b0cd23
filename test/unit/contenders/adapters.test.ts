import { describe, expect, it } from 'vitest';
import { ADAPTERS, CURATOR_ERROR_POLICIES, CURATOR_JVM_FLAGS } from '../../../src/contenders/adapters/adapters.js';
import {
  adapterCacheRoot,
  curatorCacheKey,
  curatorVersionOf,
  debianCuratorClasspath,
  javaMajor,
  parseClasspath,
  parseJavaVersion,
} from '../../../src/contenders/adapters/curator-runtime.js';
import { parseKazooProbe, pythonCandidates } from '../../../src/contenders/adapters/kazoo-runtime.js';

describe('adapter names', () => {
  it('lists both adapters and both Curator error policies', () => {
    expect(ADAPTERS).toEqual(['curator-latch', 'kazoo-election']);
    expect(CURATOR_ERROR_POLICIES).toEqual(['standard', 'session']);
    expect(CURATOR_JVM_FLAGS).toContain('-Xmx64m');
  });
});

describe('Curator class path', () => {
  it('splits CURATOR_CLASSPATH on colons and drops empty entries', () => {
    expect(parseClasspath('/a/x.jar::/b/*: ')).toEqual(['/a/x.jar', '/b/*']);
    expect(parseClasspath('')).toEqual([]);
  });

  it("uses Debian's jars, adding the optional ones only when present", () => {
    const present = new Set(
      [
        'curator-recipes',
        'curator-framework',
        'curator-client',
        'zookeeper',
        'zookeeper-jute',
        'guava',
        'slf4j-api',
        'slf4j-nop',
      ].map((j) => `/j/${j}.jar`),
    );
    const { classpath, missing } = debianCuratorClasspath((p) => present.has(p), '/j');
    expect(missing).toEqual([]);
    expect(classpath[0]).toBe('/j/curator-recipes.jar');
    expect(classpath).toContain('/j/slf4j-nop.jar');
    expect(classpath).not.toContain('/j/failureaccess.jar');
  });

  it('names the required jars that are missing', () => {
    const { missing } = debianCuratorClasspath((p) => !p.includes('curator'), '/j');
    expect(missing).toEqual(['/j/curator-recipes.jar', '/j/curator-framework.jar', '/j/curator-client.jar']);
  });

  it("reads Curator's version from a versioned jar name", () => {
    expect(
      curatorVersionOf(['/usr/share/java/curator-recipes.jar', 'guava-31.1-jre.jar', 'curator-recipes-5.4.0.jar']),
    ).toBe('5.4.0');
    expect(curatorVersionOf(['/m2/curator-framework-5.7.1.jar'])).toBe('5.7.1');
    expect(curatorVersionOf(['/usr/share/java/curator-recipes.jar'])).toBeUndefined();
  });
});

describe('Java version', () => {
  it('reads a release file and `java -version` output', () => {
    expect(parseJavaVersion('IMPLEMENTOR="Debian"\nJAVA_VERSION="17.0.15"\nJAVA_VERSION_DATE="2025-04-15"\n')).toBe(
      '17.0.15',
    );
    expect(parseJavaVersion('openjdk version "21.0.2" 2024-01-16\nOpenJDK Runtime Environment')).toBe('21.0.2');
    expect(parseJavaVersion('nothing here')).toBeUndefined();
  });

  it('takes the major version, old style included', () => {
    expect(javaMajor('17.0.15')).toBe(17);
    expect(javaMajor('21')).toBe(21);
    expect(javaMajor('1.8.0_392')).toBe(8);
    expect(javaMajor('11.0.22+7')).toBe(11);
  });
});

describe('compile cache', () => {
  it('keys on the source, the class path and the Java', () => {
    const key = curatorCacheKey('class A {}', ['/a.jar', '/b.jar'], '17.0.15');
    expect(key).toMatch(/^curator-latch-[0-9a-f]{16}$/);
    expect(curatorCacheKey('class A {}', ['/a.jar', '/b.jar'], '17.0.15')).toBe(key);
    expect(curatorCacheKey('class A { }', ['/a.jar', '/b.jar'], '17.0.15')).not.toBe(key);
    expect(curatorCacheKey('class A {}', ['/b.jar', '/a.jar'], '17.0.15')).not.toBe(key);
    expect(curatorCacheKey('class A {}', ['/a.jar', '/b.jar'], '21.0.2')).not.toBe(key);
  });

  it('lives under XDG_CACHE_HOME, else ~/.cache', () => {
    expect(adapterCacheRoot({ XDG_CACHE_HOME: '/xdg' }, '/home/u')).toBe('/xdg/zklab/adapters');
    expect(adapterCacheRoot({ XDG_CACHE_HOME: '' }, '/home/u')).toBe('/home/u/.cache/zklab/adapters');
    expect(adapterCacheRoot({}, '/home/u')).toBe('/home/u/.cache/zklab/adapters');
  });
});

describe('kazoo interpreter', () => {
  const files: Record<string, string> = {
    '/usr/bin/python3': '/usr/bin/python3.11',
    '/bin/python3': '/usr/bin/python3.11',
    '/root/.pyenv/shims/python3': '/root/.pyenv/shims/python3',
  };
  const resolve = (p: string): string | undefined => files[p];

  it("tries Debian's python first, then each distinct python3 on PATH", () => {
    expect(pythonCandidates({ PATH: '/root/.pyenv/shims:/usr/local/bin:/bin:/usr/bin' }, resolve)).toEqual([
      '/usr/bin/python3',
      '/root/.pyenv/shims/python3',
    ]);
  });

  it('takes ZKLAB_PYTHON alone when it is set', () => {
    expect(pythonCandidates({ ZKLAB_PYTHON: '/opt/py/bin/python', PATH: '/usr/bin' }, resolve)).toEqual([
      '/opt/py/bin/python',
    ]);
  });

  it('returns nothing when there is no python at all', () => {
    expect(pythonCandidates({ PATH: '/nowhere' }, () => undefined)).toEqual([]);
  });

  it("parses the probe's answer", () => {
    expect(parseKazooProbe('2.8.0 3.11.2\n')).toEqual({ kazooVersion: '2.8.0', pythonVersion: '3.11.2' });
    expect(parseKazooProbe('')).toBeUndefined();
  });
});
