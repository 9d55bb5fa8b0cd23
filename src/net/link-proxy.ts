import { createServer, type Server, type Socket } from 'node:net';
import { ProxiedConnection, type ConnectionHost } from './link-connection.js';
import { resetSocket } from './link-pump.js';
import { NO_FAULT, type LinkFault, type LinkKind } from './link-types.js';

export interface LinkProxyOptions {
  readonly kind: LinkKind;
  readonly targetHost: string;
  readonly targetPort: number;
  /** 0 (the default) lets the system choose; `start()` resolves the bound port. */
  readonly listenPort?: number;
  readonly listenHost?: string;
  readonly fault?: Partial<LinkFault>;
  /**
   * How long a refused connect to the target is retried before the client is reset. Default: 2000 ms for quorum
   * links (a learner may connect before its new leader listens), 0 for the others.
   */
  readonly refusedRetryMs?: number;
  /** Source of jitter, uniform in [0, 1); replaceable for tests. */
  readonly random?: () => number;
  /**
   * Called when a connecting side ends or closes one of its connections (a FIN, a reset, or the proxy closing it).
   * When a process dies the kernel closes its sockets, so this is how the link daemon hears of a contender's death.
   */
  readonly onClientLeft?: () => void;
  /** Client links: called with the session id (hex) the server grants on each connection. */
  readonly onSession?: (session: string, timeoutMs: number) => void;
}

export interface LinkStats {
  /** Connections accepted since start, rejected ones included. */
  readonly accepted: number;
  readonly rejected: number;
  readonly open: number;
  /** Bytes delivered to the target (from → to) and back to the connecting side. */
  readonly bytesToTarget: number;
  readonly bytesFromTarget: number;
  /** Bytes received but not yet delivered (delayed, or held by a blackhole). */
  readonly heldBytes: number;
}

/**
 * A TCP proxy for one directed link (from → to): listens on loopback and forwards every accepted connection to
 * the target. Its fault applies at once to existing and new connections:
 * - pass: bytes flow, after `delayMs` plus uniform jitter in [0, jitterMs) per chunk, order kept per direction;
 * - blackhole: silence. Sockets stay open, nothing (data, FIN or RST) crosses, new connections are accepted and
 *   left silent. What was sent meanwhile is held and delivered in order when healed, as TCP retransmission does
 *   after a real partition; past 1 MiB per direction the proxy stops reading, so the sender's TCP window closes.
 *   A connection accepted during the blackhole reaches the target only when healed, and not at all if its client
 *   gives up first (a connect abandoned during a partition never reached the other side either).
 *   Why hold rather than discard: a TCP stream cannot lose bytes in the middle, so discarding would force a reset
 *   of every connection that lost some once healed, turning a short blip into the reset fault a partition must
 *   not be. Holding keeps a blip invisible, as on a real network, and a long partition still ends the way
 *   ZooKeeper ends it: its own timeouts close the sockets, and the stale bytes then meet closed sockets.
 * - reject: existing connections are reset (RST) and new ones reset as soon as accepted.
 */
export class LinkProxy {
  readonly kind: LinkKind;
  private readonly server: Server;
  private readonly connections = new Set<ProxiedConnection>();
  private readonly host: ConnectionHost;
  private currentFault: LinkFault;
  private boundPort: number | undefined;
  private counts = { accepted: 0, rejected: 0, bytesToTarget: 0, bytesFromTarget: 0 };
  private whenIdle: (() => void) | undefined;

  constructor(private readonly options: LinkProxyOptions) {
    this.kind = options.kind;
    this.currentFault = { ...NO_FAULT, ...options.fault };
    const counts = this.counts;
    const self = this;
    this.host = {
      targetHost: options.targetHost,
      targetPort: options.targetPort,
      refusedRetryMs: options.refusedRetryMs ?? (options.kind === 'quorum' ? 2000 : 0),
      get fault() {
        return self.currentFault;
      },
      random: options.random ?? Math.random,
      countToTarget: (n) => (counts.bytesToTarget += n),
      countFromTarget: (n) => (counts.bytesFromTarget += n),
      clientLeft: () => options.onClientLeft?.(),
      sessionGranted: options.onSession,
      closed: (conn) => {
        this.connections.delete(conn);
        if (this.connections.size === 0) this.whenIdle?.();
      },
    };
    this.server = createServer({ allowHalfOpen: true, noDelay: true }, (socket) => this.accept(socket));
  }

  /** Starts listening; resolves the bound port. */
  start(): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen({ host: this.options.listenHost ?? '127.0.0.1', port: this.options.listenPort ?? 0 }, () => {
        this.server.off('error', reject);
        const address = this.server.address();
        if (address === null || typeof address === 'string')
          return reject(new Error('link proxy bound to a non-TCP address'));
        this.boundPort = address.port;
        resolve(address.port);
      });
    });
  }

  /** The bound port (after `start()`). */
  get port(): number {
    if (this.boundPort === undefined) throw new Error('link proxy not started');
    return this.boundPort;
  }

  get fault(): LinkFault {
    return this.currentFault;
  }

  /** Changes the fault; fields left out keep their value. Applies to open connections at once. */
  setFault(change: Partial<LinkFault>): void {
    const next = { ...this.currentFault, ...change };
    const f = this.currentFault;
    if (next.mode === f.mode && next.delayMs === f.delayMs && next.jitterMs === f.jitterMs) return;
    this.currentFault = next;
    for (const conn of [...this.connections]) conn.applyFault();
  }

  stats(): LinkStats {
    let heldBytes = 0;
    for (const conn of this.connections) heldBytes += conn.heldBytes;
    return { ...this.counts, open: this.connections.size, heldBytes };
  }

  /** Closes the listener and every connection; resolves when all are closed. */
  async stop(): Promise<void> {
    const closed = new Promise<void>((resolve) => {
      if (!this.server.listening) return resolve();
      this.server.close(() => resolve());
    });
    const idle = new Promise<void>((resolve) => {
      if (this.connections.size === 0) return resolve();
      this.whenIdle = resolve;
    });
    for (const conn of [...this.connections]) conn.destroy();
    await Promise.all([closed, idle]);
  }

  private accept(socket: Socket): void {
    this.counts.accepted++;
    if (this.currentFault.mode === 'reject') {
      this.counts.rejected++;
      socket.on('error', () => {});
      resetSocket(socket);
      return;
    }
    this.connections.add(new ProxiedConnection(socket, this.host));
  }
}
