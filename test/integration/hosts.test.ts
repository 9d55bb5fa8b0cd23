import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zklab } from '../helpers/cli.js';
import { labNetPrefix, netnsNames } from '../helpers/kernel-net.js';
import { liveProcesses } from '../helpers/node-processes.js';
import { tempDir } from '../helpers/paths.js';
import { waitFor } from '../helpers/wait.js';
import { fourLetter, srvrMode } from '../helpers/zk-raw.js';
import { type SandboxHost, sandboxSsh } from '../helpers/sandbox-hosts.js';

/**
 * A lab's servers on a sandbox of three local hosts, each a network namespace with its own sshd. Every fact is read
 * from the hosts themselves: the JVMs' network namespaces in /proc, the hosts' nftables over SSH (the lab's only
 * way in), srvr on each host's address; never from zklab's record of what it did.
 */

const dir = tempDir();
// Under the home directory, where the default sandbox lives (~/.cache): each host mounts a /root of its own, which
// must not hide the sandbox's own files from its sshd.
const sandbox = join(mkdtempSync(join(homedir(), '.zklab-test-')), 'sandbox');
const lab = join(dir, 'lab');
const hostsFile = join(sandbox, 'hosts.yaml');

let hosts: SandboxHost[] = [];
let knownHosts = '';
const servers: { name: string; port: number; host: SandboxHost }[] = [];

/** A command on a sandbox host, over SSH as a user would type it (the test's own ssh, not zklab's). */
async function onHost(h: SandboxHost, command: string): Promise<{ code: number; out: string }> {
  const r = await sandboxSsh(h, knownHosts, command);
  return { code: r.exitCode ?? -1, out: `${r.stdout}${r.stderr}` };
}

/** Each server's JVM on this machine: by its own command line (a JVM with the lab's marker, not the ssh holding it). */
function serverJvms(): Map<string, number> {
  const jvms = new Map<string, number>();
  for (const pid of liveProcesses((a) => a.includes(`-Dzklab.lab=${lab}`) && a[0]!.endsWith('java'))) {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const name = args.find((a) => a.startsWith('-Dzklab.server='))?.slice('-Dzklab.server='.length);
    if (name) jvms.set(name, pid);
  }
  return jvms;
}

const nsInode = (path: string): number => statSync(path).ino;
const sandboxNs = (h: SandboxHost): string =>
  `/run/netns/${netnsNames().find((n) => n.startsWith(labNetPrefix(sandbox)) && n.endsWith(`-${h.name}`))}`;

async function modes(): Promise<Record<string, string | null>> {
  const out: Record<string, string | null> = {};
  await Promise.all(
    servers.map(async (s) => {
      out[s.name] = await fourLetter(s.port, 'srvr', s.host.addr)
        .then(srvrMode)
        .catch(() => null);
    }),
  );
  return out;
}

const leaderOf = async (): Promise<string | undefined> =>
  Object.entries(await modes()).find(([, m]) => m === 'leader')?.[0];

async function labRules(h: SandboxHost): Promise<string> {
  return (await onHost(h, `nft list table inet ${labNetPrefix(lab)} 2>/dev/null || true`)).out;
}

beforeAll(async () => {
  const made = await zklab(['hosts', 'sandbox', '3', '--dir', sandbox]);
  expect(made.exitCode, made.stderr).toBe(0);
  const doc = parse(made.stdout) as { known_hosts: string; hosts: SandboxHost[] };
  hosts = doc.hosts;
  knownHosts = doc.known_hosts;
}, 60_000);

afterAll(async () => {
  await zklab(['ensemble', 'down', '--purge'], { lab });
  const down = await zklab(['hosts', 'sandbox', 'down', '--dir', sandbox]);
  expect(down.exitCode, down.stderr).toBe(0);
  // Nothing of the sandbox on the machine: its namespaces, its sshd processes, its files.
  expect(netnsNames().filter((n) => n.startsWith(labNetPrefix(sandbox)))).toEqual([]);
  expect(liveProcesses((a) => a.join(' ').includes(sandbox))).toEqual([]);
  expect(existsSync(sandbox) ? readdirSync(sandbox) : []).toEqual([]);
  rmdirSync(dirname(sandbox));
}, 60_000);

describe('zklab hosts on a sandbox of three local hosts', () => {
  it('the sandbox: each host answers over SSH from its own namespace, with its own /srv; check passes', async () => {
    expect(hosts.map((h) => h.name)).toEqual(['h1', 'h2', 'h3']);
    for (const h of hosts) {
      const r = await onHost(h, 'ip -4 -o addr show dev eth0; ls -A /srv');
      expect(r.code, r.out).toBe(0);
      expect(r.out).toContain(`inet ${h.addr}/24`);
      expect(r.out.trim().split('\n').at(-1)).toBe('zklab');
    }
    expect((statSync(hosts[0]!.key).mode & 0o777).toString(8)).toBe('600');
    const check = await zklab(['hosts', 'check', hostsFile]);
    expect(check.exitCode, check.stdout + check.stderr).toBe(0);
    for (const c of ['root', 'java', 'zookeeper', 'nftables', 'cgroup v2'])
      expect(check.stdout.match(new RegExp(`✓ ${c}:`, 'g'))?.length, c).toBe(3);
  });

  it('ensemble up --hosts: one server per host, each JVM in its host namespace, serving on its address', async () => {
    const up = await zklab(['ensemble', 'up', '--hosts', hostsFile, '--json'], { lab });
    expect(up.exitCode, up.stderr).toBe(0);
    const status = JSON.parse(up.stdout) as { servers: { name: string; clientPort: number }[] };
    for (const [i, s] of status.servers.entries()) servers.push({ name: s.name, port: s.clientPort, host: hosts[i]! });
    const jvms = serverJvms();
    expect([...jvms.keys()].sort()).toEqual(['zk1', 'zk2', 'zk3']);
    for (const s of servers) {
      expect(readlinkSync(`/proc/${jvms.get(s.name)}/ns/net`)).toBe(`net:[${nsInode(sandboxNs(s.host))}]`);
    }
    const m = await modes();
    expect(Object.values(m).sort()).toEqual(['follower', 'follower', 'leader']);
  });

  it('kill zk-leader ends its JVM on its host, and the two left elect a leader', async () => {
    const old = (await leaderOf())!;
    const r = await zklab(['kill', 'zk-leader'], { lab });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(serverJvms().has(old)).toBe(false);
    await waitFor(async () => ((await leaderOf()) ?? '') !== '' || null, 'a new leader', 30_000, 100);
    const up = await zklab(['ensemble', 'up'], { lab });
    expect(up.exitCode, up.stderr).toBe(0);
    expect(serverJvms().size).toBe(3);
  });

  it('partition isolate zk-leader: a table on its host drops what arrives, ss there shows the cut; heal lifts it', async () => {
    const old = (await leaderOf())!;
    const host = servers.find((s) => s.name === old)!.host;
    const cut = await zklab(['partition', 'isolate', 'zk-leader'], { lab });
    expect(cut.exitCode, cut.stderr).toBe(0);
    expect(await labRules(host)).toMatch(/tcp dport 22 accept[\s\S]*iifname != "lo" drop/);
    // The others elect among themselves; the cut-off host's own server drops out (srvr from here cannot reach it).
    await waitFor(
      async () => {
        const m = await modes();
        return Object.entries(m).some(([n, x]) => n !== old && x === 'leader') && m[old] === null ? m : null;
      },
      'another leader with the old one cut off',
      40_000,
      200,
    );
    // On the host: its peers' quorum connections are gone (nothing from them arrives).
    const peers = servers.filter((s) => s.name !== old).map((s) => s.host.addr);
    const ss = await onHost(host, 'ss -tn state established');
    for (const p of peers) expect(ss.out).not.toMatch(new RegExp(`${p.replaceAll('.', '\\.')}:\\d+\\s*$`, 'm'));
    const heal = await zklab(['heal'], { lab });
    expect(heal.exitCode, heal.stderr).toBe(0);
    expect(await labRules(host)).toBe('');
    await waitFor(
      async () =>
        Object.values(await modes()).filter((x) => x === 'leader' || x === 'follower').length === 3 ? 1 : null,
      'all three serving again',
      40_000,
      200,
    );
  });

  it('one-way and loss are rules on the hosts that receive; net clear and heal remove them', async () => {
    const [a, b, c] = servers;
    expect((await zklab(['partition', 'one-way', a!.name, b!.name], { lab })).exitCode).toBe(0);
    expect((await zklab(['net', 'loss', c!.name, '30'], { lab })).exitCode).toBe(0);
    expect(await labRules(b!.host)).toContain(`ip saddr ${a!.host.addr} drop`);
    expect(await labRules(a!.host)).not.toContain(`ip saddr ${b!.host.addr} drop`);
    expect(await labRules(c!.host)).toContain('iifname != "lo" numgen random mod 100 < 30 drop');
    expect(await labRules(a!.host)).toContain(`ip saddr ${c!.host.addr} numgen random mod 100 < 30 drop`);
    expect((await zklab(['net', 'clear'], { lab })).exitCode).toBe(0);
    expect((await zklab(['heal'], { lab })).exitCode).toBe(0);
    for (const h of hosts) expect(await labRules(h)).toBe('');
  });

  it('pause freezes the server on its host (its group there says frozen); resume thaws it', async () => {
    const s = servers[1]!;
    expect((await zklab(['pause', 'server', s.name], { lab })).exitCode).toBe(0);
    const frozen = await onHost(
      s.host,
      `cat /sys/fs/cgroup/unified/zklab-${labNetPrefix(lab)}/${s.name}.*/cgroup.events`,
    );
    expect(frozen.out).toContain('frozen 1');
    expect((await zklab(['resume', 'server', s.name], { lab })).exitCode).toBe(0);
    const thawed = await onHost(
      s.host,
      `cat /sys/fs/cgroup/unified/zklab-${labNetPrefix(lab)}/${s.name}.*/cgroup.events`,
    );
    expect(thawed.out).toContain('frozen 0');
  });

  it('a node whose holder here dies ends on its host within seconds (its warden)', async () => {
    const s = servers[0]!;
    const jvm = serverJvms().get(s.name)!;
    const handle = liveProcesses(
      (a) => a[0] === 'ssh' && a.includes(`-Dzklab.server=${s.name}`) && a.join(' ').includes(lab),
    );
    expect(handle.length).toBe(1);
    process.kill(handle[0]!, 'SIGKILL');
    await waitFor(() => (existsSync(`/proc/${jvm}`) ? null : true), `${s.name}'s JVM to end`, 10_000, 50);
    // Its owner gone and no other node of the lab on its host, the warden left nothing of the lab there.
    await waitFor(
      async () =>
        (await onHost(s.host, 'ls -A /srv; ls /sys/fs/cgroup/unified | grep zklab')).out.trim() === '' || null,
      `nothing of the lab left on ${s.host.name}`,
      10_000,
      100,
    );
    const up = await zklab(['ensemble', 'up'], { lab });
    expect(up.exitCode, up.stderr).toBe(0);
  });

  it("with a host's sshd gone, its node ends and every command aimed at it fails with one line", async () => {
    const s = servers[2]!;
    // Every sshd of the host (its listener and the lab's sessions), found by the host's network namespace.
    const ns = `net:[${nsInode(sandboxNs(s.host))}]`;
    const sshd = liveProcesses((a) => a[0]!.startsWith('sshd') || a[0] === '/usr/sbin/sshd').filter((p) => {
      try {
        return readlinkSync(`/proc/${p}/ns/net`) === ns;
      } catch {
        return false;
      }
    });
    expect(sshd.length).toBeGreaterThan(1);
    for (const p of sshd) process.kill(p, 'SIGKILL');
    await waitFor(async () => ((await onHost(s.host, 'true')).code === 255 ? true : null), 'sshd gone', 10_000, 50);
    // The lab's way to its server is gone: the server ends with it (its warden), as with an owner gone.
    await waitFor(() => (serverJvms().has(s.name) ? null : true), `${s.name}'s JVM to end`, 10_000, 50);
    const line = new RegExp(
      `^zklab: ${s.host.name} \\(root@${s.host.addr.replaceAll('.', '\\.')}\\) cannot be reached over SSH: .*refused`,
    );
    for (const args of [
      ['partition', 'isolate', s.name],
      ['ensemble', 'up'],
    ]) {
      const r = await zklab(args, { lab });
      expect(r.exitCode, `${args.join(' ')}\n${r.stderr}`).toBe(1);
      expect(r.stderr.split('\n')[0], args.join(' ')).toMatch(line);
    }
    // All or nothing: the isolation the other hosts took (dropping what comes from h3) was taken back.
    for (const h of hosts.slice(0, 2)) expect(await labRules(h), h.name).toBe('');
    expect((await zklab(['partition', 'list', '--json'], { lab })).stdout).not.toContain('"isolate"');
  });

  it('contenders on hosts are refused with the way around: a lab of their own here, against the servers', async () => {
    const spawn = await zklab(['contenders', 'spawn', '2'], { lab });
    expect(spawn.exitCode).toBe(2);
    expect(spawn.stderr).toMatch(/contenders on hosts are not built yet/);
    expect(spawn.stderr).toContain(`--connect ${servers.map((x) => `${x.host.addr}:${x.port}`).join(',')}`);
  });

  it('ensemble down leaves nothing on the hosts it reaches, and ends the nodes of the one it cannot', async () => {
    const down = await zklab(['ensemble', 'down'], { lab });
    // The host without sshd cannot be cleaned, and down says so; its node ended with its holder all the same.
    expect(down.exitCode).toBe(1);
    expect(down.stderr).toMatch(/could not clean h3/);
    expect(serverJvms().size).toBe(0);
    for (const h of hosts.slice(0, 2)) {
      const r = await onHost(h, `nft list tables; ls -A /srv; ls /sys/fs/cgroup/unified | grep zklab || true`);
      expect(r.code, r.out).toBe(0);
      expect(r.out.trim()).toBe('');
    }
    expect(execFileSync('ps', ['-eo', 'args']).toString()).not.toContain(`-Dzklab.lab=${lab}`);
  });
});
