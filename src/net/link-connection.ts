import { connect, type Socket } from 'node:net';
import { ConnectResponseSniffer } from './connect-response.js';
import { Pump, resetSocket, type PumpHost } from './link-pump.js';

const REFUSED_RETRY_INTERVAL_MS = 50;

export interface ConnectionHost extends PumpHost {
  readonly targetHost: string;
  readonly targetPort: number;
  /** How long a refused connect to the target is retried before the client is reset (0: reset at once). */
  readonly refusedRetryMs: number;
  countToTarget(bytes: number): void;
  countFromTarget(bytes: number): void;
  /** The connecting side ended or closed its connection (called once per connection): its process may be gone. */
  clientLeft(): void;
  /** Client links: the session the server granted on a connection (read from its ConnectResponse). */
  readonly sessionGranted?: (session: string, timeoutMs: number) => void;
  closed(conn: ProxiedConnection): void;
}

/**
 * One accepted connection and its twin towards the target. The target connection is opened only while the link
 * passes: one accepted during a blackhole stays silent until healed (like a SYN retried across a partition), and
 * is dropped without ever reaching the target if its client gives up first.
 */
export class ProxiedConnection {
  private upstream: Socket | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private readonly toTarget: Pump;
  private fromTarget: Pump | undefined;
  private clientClosed = false;
  private leftNoted = false;
  private upstreamClosed = false;
  private done = false;

  constructor(
    private readonly client: Socket,
    private readonly host: ConnectionHost,
  ) {
    client.setNoDelay(true);
    this.toTarget = new Pump(client, host, (n) => host.countToTarget(n));
    client.on('data', (chunk: Buffer) => this.toTarget.push(chunk));
    client.on('end', () => this.onClientEnd());
    client.on('error', () => {}); // the 'close' that follows carries hadError
    client.on('close', (hadError) => this.onClientClose(hadError));
    if (host.fault.mode === 'pass') this.openUpstream();
  }

  get heldBytes(): number {
    return this.toTarget.heldBytes + (this.fromTarget?.heldBytes ?? 0);
  }

  /** Applies the link's current fault to this connection. */
  applyFault(): void {
    const mode = this.host.fault.mode;
    if (mode === 'reject') this.reset();
    else if (mode === 'pass') {
      if (!this.upstream && !this.retryTimer) this.openUpstream();
      this.toTarget.flush();
      this.fromTarget?.flush();
    }
  }

  /** Both sides get a RST now. */
  reset(): void {
    clearTimeout(this.retryTimer);
    this.toTarget.discard();
    this.fromTarget?.discard();
    resetSocket(this.client);
    if (this.upstream) resetSocket(this.upstream);
  }

  /** Orderly teardown (the proxy is stopping). */
  destroy(): void {
    clearTimeout(this.retryTimer);
    this.toTarget.discard();
    this.fromTarget?.discard();
    this.client.destroy();
    this.upstream?.destroy();
  }

  private openUpstream(firstTry = Date.now()): void {
    this.retryTimer = undefined;
    if (this.clientClosed) return;
    const upstream = connect({
      host: this.host.targetHost,
      port: this.host.targetPort,
      allowHalfOpen: true,
      noDelay: true,
    });
    this.upstream = upstream;
    const fromTarget = new Pump(upstream, this.host, (n) => this.host.countFromTarget(n));
    this.fromTarget = fromTarget;
    let refused = false;
    let connected = false;
    const granted = this.host.sessionGranted;
    const sniffer = granted && new ConnectResponseSniffer(granted);
    upstream.on('data', (chunk: Buffer) => {
      sniffer?.feed(chunk);
      fromTarget.push(chunk);
    });
    upstream.on('end', () => fromTarget.pushEnd('fin'));
    upstream.on('error', (err: NodeJS.ErrnoException) => (refused = err.code === 'ECONNREFUSED'));
    // Both pumps wait for the connection to exist: a refused attempt must neither swallow client bytes nor leave
    // listeners on the client behind.
    upstream.once('connect', () => {
      connected = true;
      fromTarget.attach(this.client);
      this.toTarget.attach(upstream);
    });
    upstream.on('close', (hadError) => {
      if (refused && this.retryLater(firstTry)) return;
      if (!connected) fromTarget.attach(this.client);
      this.upstreamClosed = true;
      this.toTarget.discard();
      // A refused connect or a reset from the target reaches the client as a reset, after what was already sent.
      if (hadError) fromTarget.pushEnd('rst');
      this.finishIfClosed();
    });
  }

  /**
   * A client that reached the proxy has seen its connect succeed, so a refusal can only reach it as a reset, which
   * a ZooKeeper learner takes as a failed sync rather than a leader not listening yet (it retries a refused connect).
   * Within `refusedRetryMs` the proxy retries instead, as the learner would have.
   */
  private retryLater(firstTry: number): boolean {
    if (this.clientClosed || Date.now() - firstTry >= this.host.refusedRetryMs) return false;
    this.upstream = undefined;
    this.fromTarget = undefined;
    this.retryTimer = setTimeout(() => {
      if (this.host.fault.mode === 'pass') this.openUpstream(firstTry);
      else this.retryTimer = undefined; // healing opens it afresh
    }, REFUSED_RETRY_INTERVAL_MS);
    return true;
  }

  private onClientEnd(): void {
    this.noteClientLeft();
    if (this.upstream || this.retryTimer) {
      this.toTarget.pushEnd('fin');
      return;
    }
    // It gave up before the target ever heard of it, like a connect abandoned during a partition.
    this.toTarget.discard();
    this.client.destroy();
  }

  private onClientClose(hadError: boolean): void {
    this.clientClosed = true;
    this.noteClientLeft();
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.fromTarget?.discard();
    if (!this.upstream) {
      this.toTarget.discard();
      this.finish();
      return;
    }
    if (hadError) this.toTarget.pushEnd('rst');
    this.finishIfClosed();
  }

  /** A FIN is enough: during a blackhole nothing answers it, so the connection may never close while the link is cut. */
  private noteClientLeft(): void {
    if (this.leftNoted) return;
    this.leftNoted = true;
    this.host.clientLeft();
  }

  private finishIfClosed(): void {
    if (this.clientClosed && this.upstreamClosed) this.finish();
  }

  private finish(): void {
    if (this.done) return;
    this.done = true;
    this.host.closed(this);
  }
}
