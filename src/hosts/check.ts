import type { HostSpec } from './hosts-file.js';
import { HostUnreachable, type SshHost } from './ssh.js';

/**
 * What `zklab hosts check` asks each host, in one SSH round trip: a script of ours on stdin prints `key<TAB>value`
 * lines, read here into checks with the fix for each. `hosts prepare` installs the Debian packages the failed ones
 * name.
 */
export interface HostCheck {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
  /** What to do when it is not ok. */
  readonly fix?: string;
  /** The Debian packages that fix it (`hosts prepare`). */
  readonly packages?: readonly string[];
  /** A lab cannot run on the host without it (the others disable one feature). */
  readonly required: boolean;
}

export interface HostReport {
  readonly host: HostSpec;
  readonly reachable: boolean;
  readonly checks: readonly HostCheck[];
}

/** Runs as the login user with `sh -s`; prints facts only, changes nothing (netem is tried in a throwaway netns). */
export const CHECK_SCRIPT = `say() { printf '%s\\t%s\\n' "$1" "$2"; }
say uid "$(id -u)"
if [ "$(id -u)" != 0 ]; then sudo -n true 2>/dev/null && say sudo yes || say sudo no; fi
say arch "$(uname -m)"
say os "$(. /etc/os-release 2>/dev/null && echo "$ID $VERSION_ID")"
if command -v java >/dev/null 2>&1; then say java "$(java -version 2>&1 | head -n 1)"; else say java ""; fi
if [ -n "$ZOOKEEPER_HOME" ] && ls "$ZOOKEEPER_HOME"/lib/zookeeper-*.jar >/dev/null 2>&1; then say zookeeper "$ZOOKEEPER_HOME";
elif [ -f /usr/share/java/zookeeper.jar ]; then say zookeeper "$(readlink -f /usr/share/java/zookeeper.jar)"; else say zookeeper ""; fi
if command -v node >/dev/null 2>&1; then say node "$(node --version)"; else say node ""; fi
py=/usr/bin/python3; [ -x "$py" ] || py="$(command -v python3)"
if [ -n "$py" ]; then say python3 "$py"; "$py" -c 'import kazoo' 2>/dev/null && say kazoo yes || say kazoo no;
else say python3 ""; say kazoo no; fi
[ -f /usr/share/java/curator-recipes.jar ] && say curator yes || say curator no
command -v nft >/dev/null 2>&1 || [ -x /usr/sbin/nft ] && say nft yes || say nft no
command -v tc >/dev/null 2>&1 || [ -x /usr/sbin/tc ] && say tc yes || say tc no
cg=""; for d in /sys/fs/cgroup /sys/fs/cgroup/unified; do [ "$(stat -fc %T "$d" 2>/dev/null)" = cgroup2fs ] && cg="$d" && break; done
say cgroup2 "$cg"
if command -v unshare >/dev/null 2>&1 && { command -v tc >/dev/null 2>&1 || [ -x /usr/sbin/tc ]; }; then
  try='ip link set lo up && tc qdisc add dev lo root netem delay 1ms'
  PATH="$PATH:/usr/sbin:/sbin" unshare -n sh -c "$try" >/dev/null 2>&1 && say netem yes || say netem no
else say netem unknown; fi
`;

/** The script's lines as a map. */
export function parseFacts(out: string): Map<string, string> {
  const facts = new Map<string, string>();
  for (const line of out.split('\n')) {
    const tab = line.indexOf('\t');
    if (tab > 0) facts.set(line.slice(0, tab), line.slice(tab + 1).trim());
  }
  return facts;
}

const has = (v: string | undefined): boolean => v !== undefined && v !== '' && v !== 'no';

/** Node's version as [major, minor], or undefined. */
function nodeVersion(v: string | undefined): [number, number] | undefined {
  const m = /^v(\d+)\.(\d+)/.exec(v ?? '');
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

/** The checks a host's facts give, `localArch` being this machine's (zklab ships its Node and clock shim from it). */
export function checksFromFacts(facts: Map<string, string>, localArch: string): HostCheck[] {
  const root = facts.get('uid') === '0';
  const sudo = facts.get('sudo') === 'yes';
  const arch = facts.get('arch') ?? '?';
  const node = nodeVersion(facts.get('node'));
  const netem = facts.get('netem');
  return [
    {
      name: 'root',
      ok: root || sudo,
      required: true,
      detail: root ? 'logged in as root' : sudo ? 'sudo without a password' : 'neither root nor passwordless sudo',
      fix: 'log in as root, or give the user passwordless sudo (namespaces, nftables and cgroups need root)',
    },
    {
      name: 'java',
      ok: has(facts.get('java')),
      required: true,
      detail: facts.get('java') || 'no java on PATH',
      fix: 'install a JRE 11 or later',
      packages: ['default-jre-headless'],
    },
    {
      name: 'zookeeper',
      ok: has(facts.get('zookeeper')),
      required: true,
      detail: facts.get('zookeeper') || 'no /usr/share/java/zookeeper.jar and no ZOOKEEPER_HOME',
      fix: "install Debian's zookeeper, or unpack Apache ZooKeeper >= 3.5.4 and set ZOOKEEPER_HOME for the login",
      packages: ['zookeeper'],
    },
    {
      name: 'architecture',
      ok: arch === localArch,
      required: false,
      detail: arch === localArch ? `${arch}, as here` : `${arch}, this machine is ${localArch}`,
      fix: `zklab ships its Node and its clock shim from this machine: contenders and clock faults need a ${localArch} host`,
    },
    {
      name: 'node',
      ok: true,
      required: false,
      detail:
        node && (node[0] > 20 || (node[0] === 20 && node[1] >= 19))
          ? `${facts.get('node')} (zklab ships its own all the same)`
          : `${facts.get('node') || 'none'}: zklab ships this machine's Node to the lab's directory`,
    },
    {
      name: 'kazoo',
      ok: has(facts.get('kazoo')),
      required: false,
      detail: has(facts.get('kazoo'))
        ? `${facts.get('python3')} has kazoo`
        : `${facts.get('python3') || 'no python3'}${facts.get('python3') ? ' has no kazoo' : ''}`,
      fix: 'for --recipe kazoo-election',
      packages: ['python3-kazoo'],
    },
    {
      name: 'curator',
      ok: has(facts.get('curator')),
      required: false,
      detail: has(facts.get('curator')) ? '/usr/share/java/curator-recipes.jar' : 'no Curator jars',
      fix: 'for --recipe curator-latch',
      packages: ['libcurator-recipes-java'],
    },
    {
      name: 'nftables',
      ok: has(facts.get('nft')),
      required: true,
      detail: has(facts.get('nft')) ? 'nft is installed' : 'no nft',
      fix: 'partitions and loss on hosts are nftables tables of the lab',
      packages: ['nftables'],
    },
    {
      name: 'cgroup v2',
      ok: has(facts.get('cgroup2')),
      required: true,
      detail: has(facts.get('cgroup2')) ? `mounted at ${facts.get('cgroup2')}` : 'no cgroup2 file system mounted',
      fix: 'boot with the unified hierarchy (systemd.unified_cgroup_hierarchy=1): the lab holds each node in a cgroup',
    },
    {
      name: 'netem',
      ok: netem === 'yes',
      required: false,
      detail:
        netem === 'yes'
          ? 'a netem qdisc can be added'
          : netem === 'unknown'
            ? 'not tried: no tc or unshare'
            : 'the kernel refused a netem qdisc (sch_netem missing): `net delay` on this host is refused',
      fix: `${has(facts.get('tc')) ? '' : 'install iproute2 (tc) and '}use a kernel with sch_netem (Debian's stock kernels have it)`,
      packages: has(facts.get('tc')) ? [] : ['iproute2'],
    },
  ];
}

/** Checks every host, in parallel; an unreachable one is one failed check saying why in ssh's words. */
export async function checkHosts(hosts: readonly SshHost[], localArch: string): Promise<HostReport[]> {
  return Promise.all(
    hosts.map(async (h): Promise<HostReport> => {
      try {
        const r = await h.script(CHECK_SCRIPT, [], 30_000);
        return { host: h.spec, reachable: true, checks: checksFromFacts(parseFacts(r.stdout), localArch) };
      } catch (e) {
        if (!(e instanceof HostUnreachable)) throw e;
        return {
          host: h.spec,
          reachable: false,
          checks: [{ name: 'ssh', ok: false, required: true, detail: e.message, fix: e.hint }],
        };
      }
    }),
  );
}

/** What `hosts prepare` would run on a host: apt-get for the failed checks' packages, or nothing. */
export function preparePlan(report: HostReport): readonly string[] | undefined {
  if (!report.reachable) return undefined;
  const packages = [...new Set(report.checks.filter((c) => !c.ok).flatMap((c) => c.packages ?? []))];
  if (packages.length === 0) return undefined;
  const root = report.checks.find((c) => c.name === 'root')?.detail === 'logged in as root';
  return [
    ...(root ? [] : ['sudo', '-n']),
    'env',
    'DEBIAN_FRONTEND=noninteractive',
    'sh',
    '-c',
    'apt-get update -qq && apt-get install -y -qq --no-install-recommends "$@"',
    'apt-get',
    ...packages,
  ];
}
