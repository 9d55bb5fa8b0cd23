/** A ZooKeeper connect string, `host:port,host:port` (IPv6 literals in brackets): the one reader of it. */

export interface HostPort {
  readonly host: string;
  readonly port: number;
}

const ADDRESS = /^[A-Za-z0-9.-]+:\d{1,5}$|^\[[0-9a-fA-F:]+\]:\d{1,5}$/;

/** True when every comma-separated part is `host:port` (a name or IPv4 address, or `[IPv6]`) with a port ≤ 65535. */
export function isConnectString(connect: string): boolean {
  const parts = connect.split(',').map((p) => p.trim());
  return parts.every((p) => ADDRESS.test(p) && Number(p.slice(p.lastIndexOf(':') + 1)) <= 65_535);
}

/** The servers of a connect string checked by `isConnectString`; an IPv6 host without its brackets. */
export function parseConnectString(connect: string): HostPort[] {
  return connect.split(',').map((part) => {
    const t = part.trim();
    const colon = t.lastIndexOf(':');
    return { host: t.slice(0, colon).replace(/^\[(.*)\]$/, '$1'), port: Number(t.slice(colon + 1)) };
  });
}

/** Servers back into a connect string (brackets around IPv6 literals). */
export function formatConnectString(servers: readonly HostPort[]): string {
  return servers.map((s) => `${s.host.includes(':') ? `[${s.host}]` : s.host}:${s.port}`).join(',');
}
