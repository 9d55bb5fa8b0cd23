import { readFileSync, readdirSync, readlinkSync } from 'node:fs';

/** Listening TCP sockets of a process, as "a.b.c.d:port" or "[v6]:port", read from /proc (what the kernel says). */
export function listeningAddresses(pid: number): string[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]!);
    } catch {
      // fd closed meanwhile
    }
  }
  const out: string[] = [];
  for (const [file, v6] of [['/proc/net/tcp', false], ['/proc/net/tcp6', true]] as const) {
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10 || cols[3] !== '0A' || !inodes.has(cols[9]!)) continue;
      const [hexAddr, hexPort] = cols[1]!.split(':') as [string, string];
      const port = parseInt(hexPort, 16);
      if (!v6) {
        const bytes = hexAddr.match(/../g)!.map((b) => parseInt(b, 16)).reverse();
        out.push(`${bytes.join('.')}:${port}`);
      } else if (/^0{16}FFFF0000/i.test(hexAddr)) {
        // an IPv4-mapped IPv6 socket (Java's default): the last 32 bits are the IPv4 address
        const bytes = hexAddr.slice(24).match(/../g)!.map((b) => parseInt(b, 16)).reverse();
        out.push(`${bytes.join('.')}:${port}`);
      } else {
        out.push(`[${hexAddr}]:${port}`);
      }
    }
  }
  return out;
}
