import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadHostsFile, parseDestination, readHosts } from '../../../src/hosts/hosts-file.js';
import { UsageError } from '../../../src/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'zklab-hosts-file-'));
writeFileSync(join(dir, 'id'), 'key');
const host = (over: Record<string, unknown> = {}) => ({
  name: 'h1',
  ssh: 'root@10.0.0.5',
  key: 'id',
  addr: '10.0.0.5',
  ...over,
});

describe('parseDestination', () => {
  it('reads user@host[:port]', () => {
    expect(parseDestination('root@10.0.0.5')).toEqual({ user: 'root', host: '10.0.0.5', port: 22 });
    expect(parseDestination('ops@db-1.example.org:2222')).toEqual({
      user: 'ops',
      host: 'db-1.example.org',
      port: 2222,
    });
  });
  it.each([
    ['10.0.0.5', /user@host/],
    ['root@-oProxyCommand=x', /not a host name/],
    ['root@10.0.0.5:0', /outside/],
    ['root@10.0.0.5:70000', /outside/],
    ['Root;x@h', /not a user name/],
    ['root@300.1.1.1', /not a host name/],
  ])('refuses %j', (text, why) => {
    const r = parseDestination(text);
    expect('error' in r && r.error).toMatch(why);
  });
});

describe('readHosts', () => {
  it('resolves keys and known_hosts against the file and the home directory', () => {
    const r = readHosts({ known_hosts: 'kh', hosts: [host(), host({ name: 'h2', key: '~/id' })] }, dir, dir);
    expect(r).toEqual({
      knownHosts: join(dir, 'kh'),
      hosts: [
        { name: 'h1', user: 'root', host: '10.0.0.5', port: 22, key: join(dir, 'id'), addr: '10.0.0.5' },
        { name: 'h2', user: 'root', host: '10.0.0.5', port: 22, key: join(dir, 'id'), addr: '10.0.0.5' },
      ],
    });
  });

  it('names every problem with its field', () => {
    const r = readHosts(
      { hosts: [host({ name: 'H1' }), host({ addr: 5 }), host({ key: 'nope' }), { name: 'h4', extra: 1 }], typo: 1 },
      dir,
    );
    expect('issues' in r && r.issues.map((i) => `${i.field} ${i.message}`)).toEqual([
      'typo is not a field of a hosts file',
      'hosts[0].name "H1" must be a-z, 0-9 and -, starting with a letter, at most 15',
      'hosts[1].addr must be text',
      `hosts[2].key ${join(dir, 'nope')} does not exist`,
      'hosts[3].extra is not a field of a host',
      'hosts[3].ssh is missing',
      'hosts[3].key is missing',
      'hosts[3].addr is missing',
    ]);
  });

  it('refuses a name given twice and an empty list', () => {
    expect(readHosts({ hosts: [host(), host()] }, dir)).toEqual({
      issues: [{ field: 'hosts', message: 'h1 is named twice' }],
    });
    expect(readHosts({ hosts: [] }, dir)).toMatchObject({ issues: [{ field: 'hosts' }] });
  });
});

describe('loadHostsFile', () => {
  it('one usage error for a bad file, naming the first problem and how many more', () => {
    const f = join(dir, 'bad.yaml');
    writeFileSync(f, 'hosts:\n  - name: h1\n');
    expect(() => loadHostsFile(f)).toThrow(UsageError);
    expect(() => loadHostsFile(f)).toThrow(/hosts\[0\]\.ssh is missing \(and 2 more\)/);
    expect(() => loadHostsFile(join(dir, 'none.yaml'))).toThrow(/cannot read hosts file .*ENOENT/);
    writeFileSync(f, 'hosts: [');
    expect(() => loadHostsFile(f)).toThrow(/is not YAML/);
  });

  it('known_hosts defaults to the file beside it', () => {
    const f = join(dir, 'ok.yaml');
    writeFileSync(f, `hosts:\n  - { name: h1, ssh: "root@10.0.0.5:22", key: id, addr: 10.0.0.5 }\n`);
    expect(loadHostsFile(f).knownHosts).toBe(join(dir, 'known_hosts'));
  });
});
