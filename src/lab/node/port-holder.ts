import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { cmdlineOf } from './procs.js';
import { JVM_MARKER_PREFIX, NODE_MARKER_PREFIX } from '../paths.js';

/** The socket inodes listening on `port` (IPv4 or IPv6), from /proc/net/tcp{,6}: state 0A is LISTEN. */
function listeningInodes(port: number): Set<string> {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length > 9 && f[1]!.endsWith(`:${hex}`) && f[3] === '0A') inodes.add(f[9]!);
    }
  }
  return inodes;
}

/**
 * Who listens on `port`: the process and, when it carries a lab's marker, that lab's directory. Undefined when
 * it cannot be told (a process of another user, whose sockets /proc does not show us).
 */
export function portHolder(port: number): { pid: number; command: string; lab?: string } | undefined {
  const inodes = listeningInodes(port);
  if (inodes.size === 0) return undefined;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${entry}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      let target = '';
      try {
        target = readlinkSync(`/proc/${entry}/fd/${fd}`);
      } catch {
        continue;
      }
      const m = /^socket:\[(\d+)\]$/.exec(target);
      if (!m || !inodes.has(m[1]!)) continue;
      const args = cmdlineOf(Number(entry)) ?? [];
      const marker = args.find((a) => a.startsWith(JVM_MARKER_PREFIX) || a.startsWith(NODE_MARKER_PREFIX));
      const lab = marker?.slice(
        marker.startsWith(JVM_MARKER_PREFIX) ? JVM_MARKER_PREFIX.length : NODE_MARKER_PREFIX.length,
      );
      return { pid: Number(entry), command: args.slice(0, 3).join(' '), ...(lab ? { lab } : {}) };
    }
  }
  return undefined;
}

/** "held by the zklab lab at DIR (pid N)", "held by pid N (java …)", or "" when the holder cannot be told. */
export function describePortHolder(port: number): string {
  const h = portHolder(port);
  if (!h) return '';
  return h.lab ? `held by the zklab lab at ${h.lab} (pid ${h.pid})` : `held by pid ${h.pid} (${h.command})`;
}
