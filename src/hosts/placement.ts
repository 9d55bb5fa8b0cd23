import { UsageError } from '../errors.js';
import type { LabHost } from '../lab/state.js';

/**
 * Where each node of a lab on hosts runs: as `--place zk1=h1,c2=h3` says, the rest over the hosts in turn (the
 * least used host first, in the file's order). A server has a host to itself: its faults (a cut, a loss) act on its
 * host's address, which a second server there would share.
 */
export function parsePlace(text: string | undefined): Record<string, string> {
  const place: Record<string, string> = {};
  if (text === undefined || text.trim() === '') return place;
  for (const pair of text.split(',')) {
    const m = /^\s*([a-z][a-z0-9-]*)\s*=\s*([a-z][a-z0-9-]*)\s*$/.exec(pair);
    if (!m) throw new UsageError(`--place "${pair}" is not node=host`, 'e.g. --place zk1=h1,zk2=h3');
    if (place[m[1]!] !== undefined) throw new UsageError(`--place names ${m[1]} twice`, 'give each node one host');
    place[m[1]!] = m[2]!;
  }
  return place;
}

export function placeNodes(
  hosts: readonly LabHost[],
  nodes: readonly string[],
  asked: Readonly<Record<string, string>>,
  taken: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const names = hosts.map((h) => h.name);
  for (const [node, host] of Object.entries(asked)) {
    if (!nodes.includes(node))
      throw new UsageError(`--place names ${node}, which this command does not start`, `nodes: ${nodes.join(', ')}`);
    if (!names.includes(host))
      throw new UsageError(`--place puts ${node} on ${host}, which the hosts file lacks`, `hosts: ${names.join(', ')}`);
  }
  const place: Record<string, string> = { ...taken };
  const load = (h: string) => Object.values(place).filter((x) => x === h).length;
  const serverOn = (h: string) => Object.entries(place).some(([n, x]) => x === h && /^zk\d+$/.test(n));
  for (const node of nodes) {
    const isServer = /^zk\d+$/.test(node);
    const host =
      asked[node] ??
      [...names]
        .filter((h) => !isServer || !serverOn(h))
        .sort((a, b) => load(a) - load(b) || names.indexOf(a) - names.indexOf(b))[0];
    if (host === undefined)
      throw new UsageError(
        `${node} has no host of its own: ${hosts.length} host(s) for more servers`,
        'each server needs a host to itself: list more hosts, or start fewer servers (-n)',
      );
    if (isServer && serverOn(host))
      throw new UsageError(`--place puts two servers on ${host}`, 'each server needs a host to itself');
    place[node] = host;
  }
  return place;
}

/**
 * `--place` as a lab on hosts takes it when it is made: the servers' entries for now, the contenders' (cN) kept for
 * when they are spawned. A name that is neither, or a host the file lacks, is refused now.
 */
export function splitPlace(
  hosts: readonly LabHost[],
  place: Readonly<Record<string, string>>,
): { servers: Record<string, string>; contenders: Record<string, string> } {
  const servers: Record<string, string> = {};
  const contenders: Record<string, string> = {};
  const names = hosts.map((h) => h.name);
  for (const [node, host] of Object.entries(place)) {
    if (/^zk\d+$/.test(node)) servers[node] = host;
    else if (/^c\d+$/.test(node)) {
      if (!names.includes(host))
        throw new UsageError(
          `--place puts ${node} on ${host}, which the hosts file lacks`,
          `hosts: ${names.join(', ')}`,
        );
      contenders[node] = host;
    } else
      throw new UsageError(
        `--place names ${node}, which is neither a server (zkN) nor a contender (cN)`,
        'e.g. --place zk1=h1,c2=h3',
      );
  }
  return { servers, contenders };
}
