import { ZkClient } from '../../zk/client.js';
import type { SessionState, ZkPort } from '../../zk/port.js';

/** connecting: no session yet (or a new one after expiry); unreachable: no server serves, or the last attempt failed. */
export type ObserverState = 'connecting' | 'connected' | 'disconnected' | 'unreachable' | 'stopped';

export interface ObserverHandlers {
  /** A new session: everything watched on the old one is gone. */
  readonly onSession: (zk: ZkPort) => void;
  /** The session expired or was closed: stop using the client. */
  readonly onLost: () => void;
  /** The same session is usable again after a disconnect. */
  readonly onReconnected: () => void;
  readonly onStateChange: () => void;
}

export interface ObserverOptions {
  /** Direct client ports of the servers ("host:port,…"), never link proxies: the observer must not be partitioned. */
  readonly connect: string;
  readonly sessionTimeoutMs?: number;
  readonly connectTimeoutMs?: number;
  /** Whether any server looks able to take a session right now (the latest 4lw round says so). */
  readonly serving: () => boolean;
  /** Stand-in for ZkClient.connect (tests). */
  readonly connectFn?: (connect: string, sessionTimeoutMs: number, connectTimeoutMs: number) => Promise<ZkPort>;
}

const defaultConnect = (connect: string, sessionTimeoutMs: number, connectTimeoutMs: number): Promise<ZkPort> =>
  ZkClient.connect({ connect, sessionTimeoutMs, connectTimeoutMs, quiet: true });

/**
 * The inspect observer's ZooKeeper session. The native client reconnects within a session by itself (a server
 * leader change, a killed server); this owner makes a new session when one expires. While no server serves it
 * does not try at all: the native client spins on refused connections, burning a core for nothing. Its owner
 * calls poke() after every 4lw round, which paces the retries at one per round.
 */
export class ObserverSession {
  private client: ZkPort | null = null;
  private offState: (() => void) | undefined;
  private attempt: Promise<void> | null = null;
  private current: ObserverState = 'connecting';
  private stopping = false;
  /** Why there is no session, when there is none. */
  lastError: string | null = null;
  /** Times it was decided that no session could be had now, or one was had: --once waits for the first. */
  settled = 0;

  constructor(
    private readonly opts: ObserverOptions,
    private readonly handlers: ObserverHandlers,
  ) {}

  get state(): ObserverState {
    return this.current;
  }

  get sessionId(): string | null {
    return this.client?.sessionId ?? null;
  }

  private set(state: ObserverState): void {
    this.current = state;
    this.handlers.onStateChange();
  }

  /** Tries for a session unless one is held or being made; gives up at once while no server serves. */
  poke(): void {
    if (this.stopping || this.client || this.attempt) return;
    if (!this.opts.serving()) {
      this.settled++;
      this.lastError = 'no server answers as serving';
      this.set('unreachable');
      return;
    }
    this.attempt = this.connectOnce().finally(() => (this.attempt = null));
  }

  private async connectOnce(): Promise<void> {
    const { connect, sessionTimeoutMs = 10_000, connectTimeoutMs = 3000 } = this.opts;
    let zk: ZkPort;
    try {
      zk = await (this.opts.connectFn ?? defaultConnect)(connect, sessionTimeoutMs, connectTimeoutMs);
    } catch (e) {
      this.settled++;
      this.lastError = (e as Error).message;
      if (!this.stopping) this.set('unreachable');
      return;
    }
    this.settled++;
    if (this.stopping) {
      await zk.close();
      return;
    }
    this.client = zk;
    this.lastError = null;
    this.offState = zk.onState((s) => this.sessionState(zk, s));
    this.set('connected');
    this.handlers.onSession(zk);
  }

  private sessionState(zk: ZkPort, s: SessionState): void {
    if (zk !== this.client || this.stopping) return;
    if (s === 'connecting') {
      this.set('disconnected');
    } else if (s === 'connected') {
      this.set('connected');
      this.handlers.onReconnected();
    } else {
      // The handle is already gone; closing it again would crash the process.
      this.offState?.();
      this.client = null;
      this.handlers.onLost();
      this.set('connecting');
      this.poke();
    }
  }

  /** Closes the session and waits for an attempt in flight to finish (and closes what it made). */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.attempt;
    const zk = this.client;
    this.client = null;
    this.offState?.();
    if (zk) await zk.close();
    this.current = 'stopped';
  }
}
