import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CHECK_SCRIPT, checksFromFacts, parseFacts, preparePlan, type HostReport } from '../../../src/hosts/check.js';

const SPEC = { name: 'h1', user: 'root', host: '10.0.0.5', port: 22, key: '/k', addr: '10.0.0.5' };

function facts(over: Record<string, string> = {}): Map<string, string> {
  return new Map(
    Object.entries({
      uid: '0',
      arch: 'x86_64',
      java: 'openjdk version "17.0.15"',
      zookeeper: '/usr/share/java/zookeeper-3.8.4.jar',
      node: '',
      python3: '/usr/bin/python3',
      kazoo: 'yes',
      curator: 'yes',
      nft: 'yes',
      tc: 'yes',
      cgroup2: '/sys/fs/cgroup',
      netem: 'yes',
      ...over,
    }),
  );
}

const byName = (checks: ReturnType<typeof checksFromFacts>) => Object.fromEntries(checks.map((c) => [c.name, c]));

describe('the host check', () => {
  it('the script runs under a POSIX shell here and says every fact the checks read', () => {
    const r = spawnSync('/bin/sh', ['-s'], { input: CHECK_SCRIPT, encoding: 'utf8' });
    expect(r.status).toBe(0);
    const f = parseFacts(r.stdout);
    for (const k of [
      'uid',
      'arch',
      'java',
      'zookeeper',
      'node',
      'python3',
      'kazoo',
      'curator',
      'nft',
      'tc',
      'cgroup2',
      'netem',
    ])
      expect(f.has(k), k).toBe(true);
    expect(f.get('uid')).toBe(String(process.getuid?.()));
  });

  it('a complete host passes every check', () => {
    expect(checksFromFacts(facts(), 'x86_64').filter((c) => !c.ok)).toEqual([]);
  });

  it('names what is missing, whether a lab needs it, and its packages', () => {
    const c = byName(
      checksFromFacts(
        facts({ uid: '1000', sudo: 'no', java: '', kazoo: 'no', netem: 'no', tc: 'no', arch: 'aarch64' }),
        'x86_64',
      ),
    );
    expect(c.root).toMatchObject({ ok: false, required: true, detail: 'neither root nor passwordless sudo' });
    expect(c.java).toMatchObject({ ok: false, required: true, packages: ['default-jre-headless'] });
    expect(c.kazoo).toMatchObject({ ok: false, required: false, packages: ['python3-kazoo'] });
    expect(c.netem).toMatchObject({ ok: false, required: false, packages: ['iproute2'] });
    expect(c.netem!.fix).toMatch(/install iproute2/);
    expect(c.architecture).toMatchObject({ ok: false, detail: 'aarch64, this machine is x86_64' });
  });

  it('sudo is as good as root, and prepare then runs apt-get through it', () => {
    const checks = checksFromFacts(facts({ uid: '1000', sudo: 'yes', nft: 'no', curator: 'no' }), 'x86_64');
    expect(byName(checks).root!.ok).toBe(true);
    const report: HostReport = { host: SPEC, reachable: true, checks };
    expect(preparePlan(report)).toEqual([
      'sudo',
      '-n',
      'env',
      'DEBIAN_FRONTEND=noninteractive',
      'sh',
      '-c',
      'apt-get update -qq && apt-get install -y -qq --no-install-recommends "$@"',
      'apt-get',
      'libcurator-recipes-java',
      'nftables',
    ]);
  });

  it('prepare has nothing to do on a complete host, or one it cannot reach', () => {
    expect(preparePlan({ host: SPEC, reachable: true, checks: checksFromFacts(facts(), 'x86_64') })).toBeUndefined();
    expect(preparePlan({ host: SPEC, reachable: false, checks: [] })).toBeUndefined();
  });
});
