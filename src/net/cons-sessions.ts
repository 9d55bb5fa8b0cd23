import { statSync } from 'node:fs';
import type { LabPaths } from '../lab/paths.js';
import { isOurs } from '../lab/node/procs.js';
import { hostOf, readState, type LabState } from '../lab/state.js';
import { fourLetterWord, parseCons } from '../zk/four-letter.js';

/**
 * Which session belongs to which contender on the node network and on hosts, where no link proxy sees a contender
 * connect: each server's `cons` lists its clients' addresses, and each contender node has an address of its own (on
 * hosts its host's, which tells it apart while it is the only contender running there). The link daemon asks every
 * server every POLL_MS and records each session it has not recorded yet (its `session` events).
 */
const POLL_MS = 200;
const CONS_TIMEOUT_MS = 500;

export type Granted = (contender: string, server: string, session: string, timeoutMs: number) => void;

export class ConsSessions {
  private timer: NodeJS.Timeout | undefined;
  private state: LabState | undefined;
  private stamp = '';
  private busy = false;

  constructor(
    private readonly paths: LabPaths,
    private readonly granted: Granted,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.tick(), POLL_MS);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private readState(): LabState | undefined {
    try {
      const st = statSync(this.paths.stateFile);
      const stamp = `${st.mtimeMs}:${st.size}`;
      if (stamp !== this.stamp) {
        this.state = readState(this.paths);
        this.stamp = stamp;
      }
    } catch {
      // gone, or half written: the next tick reads it
    }
    return this.state;
  }

  private async tick(): Promise<void> {
    if (this.busy) return;
    const state = this.readState();
    if (!state || (!state.nodeNet && !state.hosts)) return;
    const byAddr = this.contendersByAddr(state);
    if (byAddr.size === 0) return;
    this.busy = true;
    try {
      await Promise.all(
        state.servers.map(async (s) => {
          const host = addrOf(state, s.name);
          if (!host) return;
          let text: string;
          try {
            text = await fourLetterWord(s.clientPort, 'cons', CONS_TIMEOUT_MS, host);
          } catch {
            return; // down, paused or cut off: asked again next tick
          }
          for (const c of parseCons(text)) {
            const contender = byAddr.get(c.remote.replace(/:\d+$/, ''));
            if (contender && c.sessionId) this.granted(contender, s.name, c.sessionId, c.timeoutMs ?? 0);
          }
        }),
      );
    } finally {
      this.busy = false;
    }
  }

  /** Each address that is one running contender's alone. */
  private contendersByAddr(state: LabState): Map<string, string> {
    const byAddr = new Map<string, string>();
    const shared = new Set<string>();
    for (const c of state.contenders) {
      const addr = addrOf(state, c.id);
      if (!addr || c.stoppedAt !== undefined || (state.hosts && !isOurs(c.pid, this.paths.markers))) continue;
      if (byAddr.has(addr)) shared.add(addr);
      byAddr.set(addr, c.id);
    }
    for (const a of shared) byAddr.delete(a);
    return byAddr;
  }
}

const addrOf = (state: LabState, node: string): string | undefined =>
  state.nodeNet ? state.nodeNet.addrs[node] : hostOf(state, node)?.addr;
