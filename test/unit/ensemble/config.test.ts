import { describe, expect, it } from 'vitest';
import {
  evenCountWarning,
  limitsFor,
  loopbackPeers,
  productionConfigs,
  renderZooCfg,
  validateServerCount,
  validateTick,
} from '../../../src/ensemble/config.js';
import { planServerPorts } from '../../../src/lab/ports.js';
import { readTemplate } from '../../../src/templates.js';
import { UsageError } from '../../../src/errors.js';

const template = readTemplate('zoo.cfg');

function parse(cfg: string): Map<string, string> {
  return new Map(
    cfg
      .split('\n')
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}

describe('zoo.cfg rendering', () => {
  const plan = planServerPorts(20000, 3);
  const cfg = parse(
    renderZooCfg(template, {
      id: 2,
      name: 'zk2',
      tickMs: 200,
      dataDir: '/lab/data/zk2',
      clientPort: 20001,
      clientPortAddress: '127.0.0.1',
      maxClientCnxns: 0,
      maxSessionTimeoutMs: 60000,
      peers: loopbackPeers(plan),
    }),
  );

  it('binds the client port to loopback and turns the AdminServer off', () => {
    expect(cfg.get('clientPortAddress')).toBe('127.0.0.1');
    expect(cfg.get('clientPort')).toBe('20001');
    expect(cfg.get('admin.enableServer')).toBe('false');
  });

  it('whitelists exactly the four-letter words zklab and operators use', () => {
    expect(cfg.get('4lw.commands.whitelist')?.split(',').sort()).toEqual([
      'conf',
      'cons',
      'mntr',
      'ruok',
      'srvr',
      'stat',
      'wchc',
      'wchp',
      'wchs',
    ]);
  });

  it('scales initLimit and syncLimit to the tick', () => {
    expect(cfg.get('tickTime')).toBe('200');
    expect(Number(cfg.get('initLimit')) * 200).toBeGreaterThanOrEqual(4000);
    expect(Number(cfg.get('syncLimit')) * 200).toBeGreaterThanOrEqual(2000);
    expect(limitsFor(2000)).toEqual({ initLimit: 10, syncLimit: 5 });
  });

  it('lists every member with its quorum and election port on 127.0.0.1', () => {
    expect(cfg.get('server.1')).toBe('127.0.0.1:20010:20020');
    expect(cfg.get('server.3')).toBe('127.0.0.1:20012:20022');
    expect([...cfg.keys()].filter((k) => k.startsWith('server.'))).toHaveLength(3);
  });

  it('writes no server lines for a single server (standalone)', () => {
    const one = renderZooCfg(template, {
      id: 1,
      name: 'zk1',
      tickMs: 200,
      dataDir: '/d',
      clientPort: 1,
      clientPortAddress: '127.0.0.1',
      maxClientCnxns: 0,
      maxSessionTimeoutMs: 60000,
      peers: new Map(),
    });
    expect(one).not.toMatch(/^server\./m);
  });

  it('keeps reconfiguration off without a super user (configs for real hosts)', () => {
    expect(cfg.get('reconfigEnabled')).toBe('false');
    expect(cfg.has('DigestAuthenticationProvider.superDigest')).toBe(false);
  });

  it('in a lab: reconfiguration on for the super user, server lines with their role, peerType for an observer', () => {
    const peers = new Map([
      [1, { host: 'zk1', quorumPort: 20010, electionPort: 20020, role: 'participant' as const }],
      [4, { host: 'zk4', quorumPort: 20013, electionPort: 20023, role: 'observer' as const }],
    ]);
    const base = {
      tickMs: 200,
      dataDir: '/d',
      clientPortAddress: '127.0.0.1',
      maxClientCnxns: 0,
      maxSessionTimeoutMs: 60000,
      peers,
      superDigest: 'super:abc=',
    };
    const observer = parse(renderZooCfg(template, { ...base, id: 4, name: 'zk4', clientPort: 20003 }));
    expect(observer.get('reconfigEnabled')).toBe('true');
    expect(observer.get('DigestAuthenticationProvider.superDigest')).toBe('super:abc=');
    expect(observer.get('server.4')).toBe('zk4:20013:20023:observer');
    expect(observer.get('server.1')).toBe('zk1:20010:20020:participant');
    expect(observer.get('peerType')).toBe('observer');
    expect(parse(renderZooCfg(template, { ...base, id: 1, name: 'zk1', clientPort: 20000 })).has('peerType')).toBe(
      false,
    );
  });

  it('leaves no placeholder unfilled', () => {
    expect(
      renderZooCfg(template, {
        id: 1,
        name: 'zk1',
        tickMs: 200,
        dataDir: '/d',
        clientPort: 1,
        clientPortAddress: '127.0.0.1',
        maxClientCnxns: 0,
        maxSessionTimeoutMs: 60000,
        peers: loopbackPeers(plan),
      }),
    ).not.toContain('{{');
  });
});

describe('production configs for --hosts', () => {
  it("uses the standard ports and binds each host's client port to that host", () => {
    const cfgs = productionConfigs(['a.example', 'b.example', 'c.example'], 2000);
    const b = parse(renderZooCfg(template, cfgs[1]!));
    expect(b.get('clientPort')).toBe('2181');
    expect(b.get('clientPortAddress')).toBe('b.example');
    expect(b.get('server.1')).toBe('a.example:2888:3888');
    expect(b.get('server.3')).toBe('c.example:2888:3888');
    expect(b.get('maxClientCnxns')).toBe('60');
  });

  it('rejects duplicate and malformed hosts', () => {
    expect(() => productionConfigs(['a', 'a'], 2000)).toThrow(UsageError);
    expect(() => productionConfigs(['a;rm -rf /'], 2000)).toThrow(/not a host/);
  });
});

describe('validation', () => {
  it.each([0, -1, 10, 'abc', 2.5, NaN, '', '0x3', '3e0', '3.0'])('rejects %j servers', (n) => {
    expect(() => validateServerCount(n)).toThrow(UsageError);
  });
  it.each([1, 3, 9, '5'])('accepts %s servers', (n) => {
    expect(validateServerCount(n)).toBe(Number(n));
  });
  it('rejects absurd ticks', () => {
    expect(() => validateTick(0)).toThrow(UsageError);
    expect(() => validateTick(100000)).toThrow(UsageError);
    expect(validateTick(50)).toBe(50);
    expect(validateTick('50')).toBe(50);
    expect(validateTick('50ms')).toBe(50);
    expect(validateTick('0.5s')).toBe(500);
  });
  it('quotes a value as it was typed', () => {
    expect(() => validateServerCount('abc')).toThrow(/--servers must be a whole number from 1 to 9, got "abc"$/);
    expect(() => validateTick('abc')).toThrow(/^--tick: "abc" is not a duration$/);
  });
  it('warns about even ensembles only', () => {
    expect(evenCountWarning(4)).toBe(
      'warning: 4 servers tolerate 1 failure, as 3 do: a quorum needs 3, so add or remove one',
    );
    expect(evenCountWarning(2)).toMatch(/^warning: 2 servers tolerate no failure, as 1 does: a quorum needs 2/);
    expect(evenCountWarning(3)).toBeUndefined();
  });
});
