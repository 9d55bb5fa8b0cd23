import type { LabPaths } from '../lab/paths.js';
import { isOurs, stopProcesses, waitForExit } from '../lab/node/procs.js';
import {
  type ContenderVia,
  directConnectString,
  type LabNetState,
  type LabState,
  type ServerRecord,
} from '../lab/state.js';
import {
  createNodeNs,
  ensureNodeNetwork,
  freeContenderAddr,
  type NodeNet,
  removeNodeNs,
  serverAddr,
} from '../lab/node/net.js';
import { applyKernelRules, releaseEndedNodes } from './node-faults.js';
import { linkId } from './link-types.js';
import { type NetControl, pingDaemon, startDaemon, withDaemon } from './control.js';
import { forgetGoneContenders, goneContenders } from './gone-contenders.js';
import type { ResponseFor } from './protocol.js';
import {
  contenderLinkSpecs,
  emptyNet,
  labMembers,
  LOOPBACK,
  perDirectionDelays,
  serverLinkSpecs,
} from './lab-links.js';

/**
 * The lab network's lifecycle: the link daemon is the lab's long-lived process. `ensemble up` starts it (or
 * restarts a dead one and gives it back the links and rules recorded in the lab state), `ensemble down` shuts it
 * down, and contenders get their own links from it when spawned.
 */

/** The ping answer of this lab's own daemon; undefined when none answers, or the one answering serves another lab. */
async function pingLabDaemon(paths: LabPaths): Promise<ResponseFor<{ op: 'ping' }> | undefined> {
  const pong = await pingDaemon(paths.root);
  return pong && pong.labRoot === paths.root ? pong : undefined;
}

/** The lab's partition rules and delays, as the daemon applies them to every link. */
async function sendRules(ctl: NetControl, state: LabState, net: LabNetState): Promise<void> {
  await ctl.request({
    op: 'set-rules',
    rules: net.rules,
    delays: perDirectionDelays(net.delays),
    members: labMembers(state),
    ...(net.seed === undefined ? {} : { seed: net.seed }),
  });
}

/**
 * Makes the lab network match the state: a running daemon, the recorded rules and delays, every server link and
 * the links of every live contender. Idempotent: links that exist already are left alone. `warn` hears of
 * contenders whose links could not listen again (their ports were taken meanwhile). Resolves the daemon's pid.
 */
export async function ensureNetwork(
  paths: LabPaths,
  state: LabState,
  warn: (message: string) => void = () => {},
): Promise<number> {
  const { pid } = await startDaemon(paths.root);
  const net = state.net ?? emptyNet();
  // On the node network and on hosts the daemon holds no links (it records sessions and serves resources): the
  // kernel cuts.
  if (state.hosts) {
    // Loaded for a lab on hosts alone (its SSH channel costs every other command start-up time).
    await (await import('./host-faults.js')).applyHostRules(paths, state, net);
    return pid;
  }
  if (state.nodeNet) {
    applyKernelRules(paths, state, net);
    return pid;
  }
  await withDaemon(paths, async (ctl) => {
    // Rules before links: a link starts with the fault the current rules give it, so a restarted daemon never lets
    // a partitioned link pass in between.
    await sendRules(ctl, state, net);
    await ctl.request({ op: 'add-links', links: serverLinkSpecs(state) });
    const gone = new Set(goneContenders(paths, state));
    for (const c of state.contenders) {
      const ports = net.contenderPorts[c.id];
      if (!ports || gone.has(c.id)) continue;
      try {
        await ctl.request({ op: 'add-links', links: contenderLinkSpecs(c.id, state, ports, c.via) });
      } catch (e) {
        warn(`contender ${c.id} stays cut off: ${(e as Error).message}; stop it and spawn another`);
      }
    }
  });
  return pid;
}

/** Shuts the lab's daemon down cleanly and waits for it to exit (SIGKILL after 5 s); false when none answered. */
export async function stopNetwork(paths: LabPaths): Promise<boolean> {
  const pong = await pingLabDaemon(paths);
  if (!pong) return false;
  try {
    await withDaemon(paths, (ctl) => ctl.request({ op: 'shutdown' }));
  } catch {
    // It may close the connection as it exits; waiting for the pid is what counts.
  }
  const left = await waitForExit([pong.pid], 5000);
  if (left.length > 0 && isOurs(pong.pid, paths.markers)) await stopProcesses(left, 'SIGKILL');
  return true;
}

/** The daemon's pid when it answers. */
export async function daemonPid(paths: LabPaths): Promise<number | null> {
  return (await pingLabDaemon(paths))?.pid ?? null;
}

/**
 * A contender's connect string: its own client proxies, one per server, created now. Records their ports in
 * `state.net` (the caller writes the state), so a restarted daemon listens on the same ports again.
 */
export async function contenderConnect(
  paths: LabPaths,
  id: string,
  state: LabState,
  via: ContenderVia = 'all',
): Promise<string> {
  // A node on the lab's bridge reaches the servers at their own addresses: no proxy in the path.
  if (state.nodeNet) return directConnectString(state, via);
  const specs = contenderLinkSpecs(id, state, {}, via);
  const { links } = await withDaemon(paths, (ctl) => ctl.request({ op: 'add-links', links: specs }));
  state.net ??= emptyNet();
  state.net.contenderPorts[id] = Object.fromEntries(specs.map((s, i) => [s.to, links[i]!.port]));
  return links.map((l) => `${LOOPBACK}:${l.port}`).join(',');
}

/**
 * On the node network, gives each new contender its node: an address of the lab's /24, a namespace on the bridge,
 * and the lab's rules (a split in force cuts a newcomer off as one of those not named). First, the namespaces of
 * contenders that have ended are given back. The caller holds the lab lock and writes the state.
 */
export function addContenderNodes(paths: LabPaths, state: LabState, ids: readonly string[]): void {
  if (!state.nodeNet) return;
  releaseEndedNodes(paths, state);
  for (const id of ids) {
    const net: NodeNet = state.nodeNet!;
    const addr = freeContenderAddr(net);
    state.nodeNet = { ...net, addrs: { ...net.addrs, [id]: addr } };
    createNodeNs(paths, id, addr);
  }
  applyKernelRules(paths, state, state.net ?? emptyNet());
}

/** Takes back the nodes of a spawn that failed before its contenders ran: namespaces and addresses. */
export function dropContenderNodes(paths: LabPaths, state: LabState, ids: readonly string[]): void {
  if (!state.nodeNet) return;
  for (const id of ids) removeNodeNs(paths, id);
  state.nodeNet = {
    ...state.nodeNet,
    addrs: Object.fromEntries(Object.entries(state.nodeNet.addrs).filter(([n]) => !ids.includes(n))),
  };
}

/**
 * Forgets the links of every contender whose process is gone (`contenders stop` calls it under the lab lock; the
 * caller writes the state when it returns ids). The link daemon does the same by itself when a contender dies;
 * this makes `stop` see its own contenders' links closed when it returns. Best effort towards the daemon: with
 * none running there is nothing to close, and the next `up` does not restore links of contenders that are gone.
 */
export function forgetGoneContenderLinks(paths: LabPaths, state: LabState): Promise<string[]> {
  if (state.nodeNet) return Promise.resolve(releaseEndedNodes(paths, state));
  return forgetGoneContenders(paths, state, async (ids) => {
    try {
      await withDaemon(paths, (ctl) => ctl.request({ op: 'remove-links', ids }));
    } catch {
      // No daemon answers: its links are gone with it.
    }
  });
}

/**
 * A server joins the lab network: its links with every other server, and a client link to it for every live
 * contender that connects to servers of its role (the ports go into `state.net`; the caller writes the state).
 */
export async function addServerLinks(paths: LabPaths, state: LabState, server: ServerRecord): Promise<void> {
  state.net ??= emptyNet();
  const net = state.net;
  if (state.nodeNet) {
    // Its node: an address by its id, a namespace on the bridge, and the lab's rules in it.
    state.nodeNet = {
      ...state.nodeNet,
      addrs: { ...state.nodeNet.addrs, [server.name]: serverAddr(state.nodeNet, server.id) },
    };
    ensureNodeNetwork(paths, state);
    applyKernelRules(paths, state, net);
    return;
  }
  await withDaemon(paths, async (ctl) => {
    await sendRules(ctl, state, net);
    await ctl.request({
      op: 'add-links',
      links: serverLinkSpecs(state).filter((l) => l.from === server.name || l.to === server.name),
    });
    const gone = new Set(goneContenders(paths, state));
    for (const c of state.contenders) {
      const ports = net.contenderPorts[c.id];
      if (!ports || gone.has(c.id) || !isOurs(c.pid, paths.markers)) continue;
      const spec = contenderLinkSpecs(c.id, state, ports, c.via).find((l) => l.to === server.name);
      if (!spec) continue;
      const { links } = await ctl.request({ op: 'add-links', links: [spec] });
      ports[server.name] = links[0]!.port;
    }
  });
}

/** A server leaves the lab network: its server links and every contender's client link to it. */
export async function removeServerLinks(paths: LabPaths, state: LabState, server: ServerRecord): Promise<void> {
  if (state.nodeNet) {
    removeNodeNs(paths, server.name);
    const { [server.name]: _, ...addrs } = state.nodeNet.addrs;
    state.nodeNet = { ...state.nodeNet, addrs };
    return;
  }
  const ids = [
    ...serverLinkSpecs(state)
      .filter((l) => l.from === server.name || l.to === server.name)
      .map((l) => l.id),
    ...state.contenders.map((c) => linkId({ from: c.id, to: server.name, kind: 'client' })),
  ];
  await withDaemon(paths, (ctl) => ctl.request({ op: 'remove-links', ids }));
  for (const ports of Object.values(state.net?.contenderPorts ?? {})) delete ports[server.name];
}
