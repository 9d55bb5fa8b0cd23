import { statSync } from 'node:fs';
import type { LabPaths } from '../lab/paths.js';
import { readState, type LabState } from '../lab/state.js';
import { fourLetterWord, parseCons } from '../zk/four-letter.js';

/**
 * Which session belongs to which contender on the node network, where no link proxy sees a contender connect: each
 * server's `cons` lists its clients' addresses, and each contender node has an address of its own. The link daemon
 * asks every server every POLL_MS and records each session it has not recorded yet (its `session` events).
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
    const net = state?.nodeNet;
    if (!state || !net) return;
    const byAddr = new Map(
      state.contenders.flatMap((c) => (net.addrs[c.id] ? [[net.addrs[c.id]!, c.id] as const] : [])),
    );
    if (byAddr.size === 0) return;
    this.busy = true;
    try {
      await Promise.all(
        state.servers.map(async (s) => {
          const host = net.addrs[s.name];
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
}
