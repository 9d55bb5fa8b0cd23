import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { isPortFree } from '../../src/lab/ports.js';

/** Socket inodes a process holds open, from /proc/<pid>/fd. */
function socketInodes(pid: number): Set<string> {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]!);
    } catch {
      // fd closed meanwhile
    }
  }
  return inodes;
}

/** The kernel's TCP table rows (IPv4 and IPv6) of a process's sockets in one state ('0A' listen, '01' established). */
function tcpRows(pid: number, state: string): { local: string; remote: string; v6: boolean }[] {
  const inodes = socketInodes(pid);
  const rows: { local: string; remote: string; v6: boolean }[] = [];
  for (const [file, v6] of [
    ['/proc/net/tcp', false],
    ['/proc/net/tcp6', true],
  ] as const) {
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10 || cols[3] !== state || !inodes.has(cols[9]!)) continue;
      rows.push({ local: cols[1]!, remote: cols[2]!, v6 });
    }
  }
  return rows;
}

function formatAddress(hexAddrPort: string, v6: boolean): string {
  const [hexAddr, hexPort] = hexAddrPort.split(':') as [string, string];
  const port = parseInt(hexPort, 16);
  const v4 = (hex: string) =>
    hex
      .match(/../g)!
      .map((b) => parseInt(b, 16))
      .reverse()
      .join('.');
  if (!v6) return `${v4(hexAddr)}:${port}`;
  // An IPv4-mapped IPv6 socket (Java's default): the last 32 bits are the IPv4 address.
  if (/^0{16}FFFF0000/i.test(hexAddr)) return `${v4(hexAddr.slice(24))}:${port}`;
  return `[${hexAddr}]:${port}`;
}

/** Listening TCP sockets of a process, as "a.b.c.d:port" or "[v6]:port" (what the kernel says). */
export function listeningAddresses(pid: number): string[] {
  return tcpRows(pid, '0A').map((r) => formatAddress(r.local, r.v6));
}

/** Remote addresses ("a.b.c.d:port") of a process's established TCP connections. */
export function connectedAddresses(pid: number): string[] {
  return tcpRows(pid, '01').map((r) => formatAddress(r.remote, r.v6));
}

/** Remote ports of a process's established TCP connections. */
export function connectedPorts(pid: number): number[] {
  return tcpRows(pid, '01').map((r) => parseInt(r.remote.split(':')[1]!, 16));
}

/** The pair addresses ("127.<from>.<to>.1:port") of a lab's server links that something still listens on. */
export async function listeningPeerLinks(
  servers: readonly { id: number; quorumPort: number; electionPort: number }[],
): Promise<string[]> {
  const taken: string[] = [];
  for (const from of servers) {
    for (const to of servers) {
      if (from === to) continue;
      for (const port of [to.quorumPort, to.electionPort]) {
        const host = `127.${from.id}.${to.id}.1`;
        if (!(await isPortFree(port, host))) taken.push(`${host}:${port}`);
      }
    }
  }
  return taken;
}

/**
 * A base whose ports base+o (each o of `offsets`) are free on loopback now, from 32000–32767: above the blocks labs
 * take (below 32000) and below Linux's ephemeral range (32768+), so neither a lab of a test running beside this one
 * nor a client socket's local port takes them before the test's own program binds them.
 */
export async function freeTestPorts(offsets: readonly number[]): Promise<number> {
  const span = Math.max(...offsets);
  for (let attempt = 0; attempt < 100; attempt++) {
    const base = 32_000 + Math.floor(Math.random() * (768 - span));
    if ((await Promise.all(offsets.map((o) => isPortFree(base + o)))).every(Boolean)) return base;
  }
  throw new Error(`no free ports at ${offsets.length} offsets in 32000–32767`);
}
