import type { LabPaths } from '../lab/paths.js';
import { takenPorts } from '../lab/ports.js';
import { isOurs } from '../lab/node/procs.js';
import { type LabState, readState } from '../lab/state.js';
import { containment } from '../lab/node/containment.js';
import { netemHere, nodeNetProblem } from '../lab/node/net.js';
import { ZklabError } from '../errors.js';
import { findJava, findZooKeeper } from './discover.js';
import { loadNative } from '../zk/native.js';

export interface Check {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
  readonly fix?: string;
}

function failed(name: string, e: unknown): Check {
  if (e instanceof ZklabError) return { name, ok: false, detail: e.message, fix: e.hint };
  return { name, ok: false, detail: e instanceof Error ? e.message : String(e) };
}

/** How nodes are held here (what kill, pause and down act on), and for this lab if it chose otherwise. */
function containmentCheck(state: LabState | undefined): Check {
  const here = containment();
  const lab = state?.containment;
  const differs = lab !== undefined && (lab.kind !== here.kind || lab.base !== here.base);
  const how =
    here.kind === 'marker' ? 'every process a node starts is found by its environment' : 'a control group per node';
  return {
    name: 'containment',
    ok: true,
    detail: `${here.kind}: ${here.why}; ${how}${differs ? ` (this lab was made with ${lab.kind}, and keeps it)` : ''}`,
  };
}

/** The node network (`ensemble up --net ns`) and its delays: optional, for a lab made by root. */
export function nodeNetworkChecks(): Check[] {
  const problem = nodeNetProblem();
  if (problem) {
    return [
      {
        name: 'node network (--net ns)',
        ok: false,
        detail: `unavailable: ${problem}`,
        fix: 'run as root after bin/setup (it installs iproute2 and nftables)',
      },
    ];
  }
  const netem = netemHere();
  return [
    { name: 'node network (--net ns)', ok: true, detail: 'namespaces, a bridge and nftables can be made here' },
    netem?.ok
      ? { name: 'delays on the node network (netem)', ok: true, detail: 'this kernel has netem' }
      : {
          name: 'delays on the node network (netem)',
          ok: false,
          detail: `this kernel has no netem${netem?.why ? ` (${netem.why})` : ''}: \`net delay\` is refused on --net ns`,
          fix: 'load the sch_netem module, or use --net proxy, whose link proxies delay',
        },
  ];
}

export async function runDoctor(paths: LabPaths, zkHome?: string): Promise<Check[]> {
  const checks: Check[] = [];
  const [major] = process.versions.node.split('.').map(Number);
  checks.push({
    name: 'node',
    ok: (major ?? 0) >= 20,
    detail: `v${process.versions.node}`,
    fix: 'install Node.js 20 or newer',
  });
  try {
    const java = findJava();
    const { execa } = await import('execa');
    const r = await execa(java.bin, ['-version'], { reject: false, timeout: 20_000 });
    const line = (r.stderr || r.stdout).split('\n')[0] ?? '';
    checks.push({
      name: 'java',
      ok: r.exitCode === 0,
      detail: `${java.bin} (${java.source}): ${line}`,
      fix: 'reinstall the JRE (bin/setup does it on Debian)',
    });
  } catch (e) {
    checks.push(failed('java', e));
  }
  try {
    const zk = findZooKeeper(zkHome);
    checks.push({
      name: 'zookeeper',
      ok: true,
      detail: `${zk.version ?? 'unknown version'} at ${zk.home} (${zk.layout} layout)`,
    });
  } catch (e) {
    checks.push(failed('zookeeper', e));
  }
  try {
    loadNative();
    checks.push({ name: 'native client', ok: true, detail: 'the zookeeper addon loads' });
  } catch (e) {
    checks.push({
      name: 'native client',
      ok: false,
      detail: `the zookeeper addon does not load: ${(e as Error).message.split('\n')[0]}`,
      fix: 'run `npm rebuild zookeeper` (needs python3, make and g++), or bin/setup',
    });
  }
  checks.push(containmentCheck(readState(paths)));
  const state = readState(paths);
  if (!state) {
    checks.push({ name: 'lab', ok: true, detail: `no lab at ${paths.root} yet (\`zklab ensemble up\` creates one)` });
    return checks;
  }
  const live = state.servers.filter((s) => isOurs(s.pid, paths.markers));
  const idle = state.servers.filter((s) => !live.includes(s));
  const dead = idle.filter((s) => s.pid !== undefined);
  checks.push(
    dead.length > 0
      ? {
          name: 'lab',
          ok: false,
          detail: `${paths.root}: ${dead.map((s) => s.name).join(', ')} died behind the lab's back`,
          fix: '`zklab ensemble up` restarts them, `zklab ensemble down` cleans up',
        }
      : { name: 'lab', ok: true, detail: `${paths.root}: ${live.length}/${state.servers.length} servers running` },
  );
  const taken = await takenPorts(idle.flatMap((s) => [s.clientPort, s.quorumPort, s.electionPort]));
  checks.push(
    taken.length > 0
      ? {
          name: 'ports',
          ok: false,
          detail: `port ${taken.join(', ')} of this lab's stopped servers is used by another program`,
          fix: 'stop that program, or `zklab ensemble down --purge` and `up` again for new ports',
        }
      : {
          name: 'ports',
          ok: true,
          detail: `block from ${state.basePort}: ${idle.length === 0 ? 'in use by this lab' : 'free'}`,
        },
  );
  return checks;
}
