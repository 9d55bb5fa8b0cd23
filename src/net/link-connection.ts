import { connect, type Socket } from 'node:net';
import { InitialMessageRewriter } from './initial-message.js';
import { Pump, resetSocket, type PumpHost } from './link-pump.js';

export interface ConnectionHost extends PumpHost {
  readonly targetHost: string;
  readonly targetPort: number;
  /** `host:port` to advertise in place of the InitialMessage's addresses (election links only). */
  readonly advertise: string | undefined;
  countToTarget(bytes: number): void;
  countFromTarget(bytes: number): void;
  closed(conn: ProxiedConnection): void;
}

/**
 * One accepted connection and its twin towards the target. The target connection is opened only while the link
 * passes: one accepted during a blackhole stays silent until healed (like a SYN retried across a partition), and
 * is dropped without ever reaching the target if its client gives up first.
 */
export class ProxiedConnection {
  private upstream: Socket | undefined;
  private readonly toTarget: Pump;
  private fromTarget: Pump | undefined;
  /** Until the first InitialMessage has gone through (election links with an address to advertise). */
  private rewriter: InitialMessageRewriter | undefined;
  private clientClosed = false;
  private upstreamClosed = false;
  private done = false;

  constructor(
    private readonly client: Socket,
    private readonly host: ConnectionHost,
  ) {
    client.setNoDelay(true);
    this.toTarget = new Pump(client, host, (n) => host.countToTarget(n));
    if (host.advertise !== undefined) this.rewriter = new InitialMessageRewriter(host.advertise);
    client.on('data', (chunk: Buffer) => (this.rewriter ? this.rewrite(this.rewriter, chunk) : this.toTarget.push(chunk)));
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
      if (!this.upstream) this.openUpstream();
      this.toTarget.flush();
      this.fromTarget?.flush();
    }
  }

  /** Both sides get a RST now. */
  reset(): void {
    this.toTarget.discard();
    this.fromTarget?.discard();
    resetSocket(this.client);
    if (this.upstream) resetSocket(this.upstream);
  }

  /** Orderly teardown (the proxy is stopping). */
  destroy(): void {
    this.toTarget.discard();
    this.fromTarget?.discard();
    this.client.destroy();
    this.upstream?.destroy();
  }

  private openUpstream(): void {
    if (this.clientClosed) return;
    const upstream = connect({ host: this.host.targetHost, port: this.host.targetPort, allowHalfOpen: true, noDelay: true });
    this.upstream = upstream;
    const fromTarget = new Pump(upstream, this.host, (n) => this.host.countFromTarget(n));
    this.fromTarget = fromTarget;
    upstream.on('data', (chunk: Buffer) => fromTarget.push(chunk));
    upstream.on('end', () => fromTarget.pushEnd('fin'));
    upstream.on('error', () => {});
    upstream.on('close', (hadError) => {
      this.upstreamClosed = true;
      this.toTarget.discard();
      // A refused connect or a reset from the target reaches the client as a reset, after what was already sent.
      if (hadError) fromTarget.pushEnd('rst');
      this.finishIfClosed();
    });
    fromTarget.attach(this.client);
    this.toTarget.attach(upstream);
  }

  private rewrite(rewriter: InitialMessageRewriter, chunk: Buffer): void {
    const out = rewriter.feed(chunk);
    if (out === undefined) return;
    this.rewriter = undefined;
    this.toTarget.push(out);
  }

  private onClientEnd(): void {
    if (this.upstream) {
      this.toTarget.pushEnd('fin');
      return;
    }
    // It gave up before the target ever heard of it, like a connect abandoned during a partition.
    this.toTarget.discard();
    this.client.destroy();
  }

  private onClientClose(hadError: boolean): void {
    this.clientClosed = true;
    this.fromTarget?.discard();
    if (!this.upstream) {
      this.toTarget.discard();
      this.finish();
      return;
    }
    if (hadError) this.toTarget.pushEnd('rst');
    this.finishIfClosed();
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
