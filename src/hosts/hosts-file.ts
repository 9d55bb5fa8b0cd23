import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parse } from 'yaml';
import { UsageError } from '../errors.js';
import type { LabHost } from '../lab/state.js';
import { isRecord } from '../validate.js';

/**
 * A hosts file: the machines a lab runs on and how to reach each over SSH.
 *
 *   known_hosts: ./known_hosts      # optional: where their host keys are pinned (default: beside this file)
 *   hosts:
 *     - name: h1                    # the lab's name for it
 *       ssh: root@10.0.0.5:22       # user@host[:port]
 *       key: ~/.ssh/zklab           # the private key (relative: to this file)
 *       addr: 10.0.0.5              # the address the lab's nodes use on it
 *
 * Paths are resolved here, so the rest of zklab sees absolute ones.
 */
export type HostSpec = LabHost;

export interface HostsFile {
  readonly file: string;
  readonly knownHosts: string;
  readonly hosts: readonly HostSpec[];
}

/** A lab asked for on hosts (`--hosts FILE`, `--place`): the file read, and where the user put which node. */
export interface HostsRequest {
  readonly file: HostsFile;
  readonly place: Readonly<Record<string, string>>;
}

const NAME = /^[a-z][a-z0-9-]{0,14}$/;
const USER = /^[a-z_][a-z0-9_.-]{0,31}$/;
const HOSTNAME =
  /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;

/** One problem of a hosts file: where (`hosts[1].ssh`) and what. */
export interface HostsIssue {
  readonly field: string;
  readonly message: string;
}

const isAddress = (s: string): boolean => IPV4.test(s) || (HOSTNAME.test(s) && !/^[\d.]+$/.test(s));

/** `user@host[:port]`, or why not. Hosts are names or IPv4 addresses: nothing an SSH option could be read from. */
export function parseDestination(text: string): { user: string; host: string; port: number } | { error: string } {
  const m = /^([^@\s]+)@([^:\s]+)(?::(\d{1,5}))?$/.exec(text);
  if (!m) return { error: `"${text}" is not user@host[:port]` };
  const [, user, host, portText] = m;
  if (!USER.test(user!)) return { error: `"${user}" is not a user name` };
  if (!isAddress(host!)) return { error: `"${host}" is not a host name or an IPv4 address` };
  const port = portText === undefined ? 22 : Number(portText);
  if (port < 1 || port > 65535) return { error: `port ${portText} is outside 1-65535` };
  return { user: user!, host: host!, port };
}

function expandPath(p: string, base: string, home: string): string {
  if (p === '~' || p.startsWith('~/')) return resolve(home, p.slice(2));
  return isAbsolute(p) ? p : resolve(base, p);
}

/** The hosts of a parsed document, or every issue found (all of them, not just the first). */
export function readHosts(
  doc: unknown,
  base: string,
  home: string = process.env.HOME ?? '/root',
): { hosts: HostSpec[]; knownHosts?: string } | { issues: HostsIssue[] } {
  const issues: HostsIssue[] = [];
  if (!isRecord(doc) || !Array.isArray(doc.hosts) || doc.hosts.length === 0)
    return { issues: [{ field: 'hosts', message: 'must be a list of at least one host' }] };
  for (const k of Object.keys(doc)) {
    if (k !== 'hosts' && k !== 'known_hosts') issues.push({ field: k, message: 'is not a field of a hosts file' });
  }
  let knownHosts: string | undefined;
  if (doc.known_hosts !== undefined) {
    if (typeof doc.known_hosts === 'string' && doc.known_hosts !== '')
      knownHosts = expandPath(doc.known_hosts, base, home);
    else issues.push({ field: 'known_hosts', message: 'must be a file path' });
  }
  const hosts: HostSpec[] = [];
  doc.hosts.forEach((h: unknown, i: number) => {
    const at = (f: string) => `hosts[${i}]${f ? `.${f}` : ''}`;
    if (!isRecord(h)) {
      issues.push({ field: at(''), message: 'must be a map of name, ssh, key and addr' });
      return;
    }
    for (const k of Object.keys(h)) {
      if (!['name', 'ssh', 'key', 'addr'].includes(k))
        issues.push({ field: at(k), message: 'is not a field of a host' });
    }
    const str = (f: string): string | undefined => {
      const v = h[f];
      if (typeof v === 'string' && v !== '') return v;
      issues.push({ field: at(f), message: v === undefined ? 'is missing' : 'must be text' });
      return undefined;
    };
    const [name, ssh, key, addr] = [str('name'), str('ssh'), str('key'), str('addr')];
    if (name !== undefined && !NAME.test(name))
      issues.push({
        field: at('name'),
        message: `"${name}" must be a-z, 0-9 and -, starting with a letter, at most 15`,
      });
    const dest = ssh === undefined ? undefined : parseDestination(ssh);
    if (dest && 'error' in dest) issues.push({ field: at('ssh'), message: dest.error });
    if (addr !== undefined && !isAddress(addr))
      issues.push({ field: at('addr'), message: `"${addr}" is not a host name or an IPv4 address` });
    const keyPath = key === undefined ? undefined : expandPath(key, base, home);
    if (keyPath !== undefined && !existsSync(keyPath))
      issues.push({ field: at('key'), message: `${keyPath} does not exist` });
    if (name && ssh && key && addr && dest && !('error' in dest) && keyPath)
      hosts.push({ name, ...dest, key: keyPath, addr });
  });
  const seen = new Set<string>();
  for (const h of hosts) {
    if (seen.has(h.name)) issues.push({ field: 'hosts', message: `${h.name} is named twice` });
    seen.add(h.name);
  }
  return issues.length > 0 ? { issues } : { hosts, knownHosts };
}

/** Reads and checks a hosts file: its hosts, or one UsageError naming the first problem (and how many more). */
export function loadHostsFile(file: string): HostsFile {
  const path = resolve(file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read hosts file ${file}: ${(e as NodeJS.ErrnoException).code ?? e}`, hostsHint);
  }
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (e) {
    throw new UsageError(`${file} is not YAML: ${(e as Error).message.split('\n')[0]}`, hostsHint);
  }
  const read = readHosts(doc, dirname(path));
  if ('issues' in read) {
    const [first, ...rest] = read.issues;
    const more = rest.length > 0 ? ` (and ${rest.length} more)` : '';
    throw new UsageError(`${file}: ${first!.field} ${first!.message}${more}`, hostsHint);
  }
  return { file: path, hosts: read.hosts, knownHosts: read.knownHosts ?? resolve(dirname(path), 'known_hosts') };
}

const hostsHint =
  'a hosts file lists hosts with name, ssh (user@host[:port]), key and addr; `zklab hosts sandbox 3` prints one';
