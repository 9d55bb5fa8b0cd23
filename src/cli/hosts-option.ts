import { UsageError } from '../errors.js';
import type { HostsRequest } from '../hosts/hosts-file.js';

/** `--hosts FILE` and `--place`: the commands that make a lab (`ensemble up`, `drill run`) put its nodes on hosts. */
export const HOSTS_OPTIONS = {
  hosts: {
    type: 'string',
    describe: 'a hosts file: the lab on machines reached over SSH (see `zklab hosts`), one server per host',
  },
  place: {
    type: 'string',
    describe: 'with --hosts: where nodes go, servers and contenders, zk1=h1,c2=h3 (default: in turn)',
  },
} as const;

/** `--hosts FILE` and `--place`, read and checked before anything is touched. */
export async function hostsArg(a: { hosts?: string; place?: string }): Promise<HostsRequest | undefined> {
  if (a.hosts === undefined) {
    if (a.place !== undefined) throw new UsageError('--place goes with --hosts', 'give --hosts FILE too');
    return undefined;
  }
  const { loadHostsFile } = await import('../hosts/hosts-file.js');
  const { parsePlace } = await import('../hosts/placement.js');
  return { file: loadHostsFile(a.hosts), place: parsePlace(a.place) };
}
