import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { execa } from 'execa';
import { waitFor } from './wait.js';

/**
 * What the kernel says about a lab's node network, read by the test itself (`ip`, `nft`, /proc), never through
 * zklab's own record of what it made.
 */

/**
 * The prefix of every name a lab's network carries: `zl` and 8 hex digits of the sha256 of the lab's root. The rule
 * is the product's, re-derived here; a test checks it against the names it finds while the lab runs, so a "nothing
 * left" check that looked for the wrong names could not pass unnoticed.
 */
export function labNetPrefix(root: string): string {
  return `zl${createHash('sha256').update(root).digest('hex').slice(0, 8)}`;
}

// stderr kept: `ip link` says "Peer netns reference is invalid" of a veth whose namespace the kernel is tearing down.
const lines = (cmd: string, args: readonly string[]): string[] =>
  execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
    .split('\n')
    .filter(Boolean);

/** Network namespaces by name (`ip netns list`). */
export const netnsNames = (): string[] => lines('ip', ['netns', 'list']).map((l) => l.split(' ')[0]!);

/** Interfaces of the machine's own namespace (`ip -br link`), without their `@peer`. */
export const linkNames = (): string[] => lines('ip', ['-br', 'link']).map((l) => l.split(/\s+/)[0]!.split('@')[0]!);

/** nftables tables of the machine's own namespace, as `family name`. */
export const nftTables = (): string[] => lines('nft', ['list', 'tables']).map((l) => l.replace(/^table /, ''));

/** Everything of the machine's network whose name carries `prefix`: namespaces, links, tables. */
export function netLeft(prefix: string): string[] {
  return [
    ...netnsNames()
      .filter((n) => n.includes(prefix))
      .map((n) => `netns ${n}`),
    ...linkNames()
      .filter((n) => n.includes(prefix))
      .map((n) => `link ${n}`),
    ...nftTables()
      .filter((n) => n.includes(prefix))
      .map((n) => `nft ${n}`),
  ];
}

/** Waits until nothing of `prefix` is left (default within 5 s), and fails naming what is. */
export async function nothingLeft(prefix: string, timeoutMs = 5000): Promise<void> {
  await waitFor(
    () => netLeft(prefix).length === 0,
    `nothing of ${prefix} left: ${netLeft(prefix).join(', ')}`,
    timeoutMs,
  );
}

/** The network namespace a process is in, as the kernel names it (`net:[4026532…]`). */
export const netnsOf = (pid: number): string => readlinkSync(`/proc/${pid}/ns/net`);

/** Runs a program inside the network namespace of `pid` (nsenter), as that node's peers run theirs. */
export async function inNetOf(pid: number, argv: readonly string[]): Promise<{ exitCode: number; stdout: string }> {
  const r = await execa('nsenter', ['-t', String(pid), '-n', ...argv], { reject: false, timeout: 30_000 });
  return { exitCode: r.exitCode ?? -1, stdout: r.stdout };
}

/** The IPv4 addresses on `dev` in the machine's own namespace, with their prefix length. */
export const addrsOn = (dev: string): string[] =>
  [...execFileSync('ip', ['-4', '-o', 'addr', 'show', 'dev', dev], { encoding: 'utf8' }).matchAll(/inet (\S+)/g)].map(
    (m) => m[1]!,
  );
