import { connect, createServer, type Server, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** Polls `cond` until it holds; fails with `what` after timeoutMs. */
export async function waitFor(cond: () => boolean, timeoutMs = 3000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(5);
  }
}

/** Everything one end of a TCP connection observed. */
export class Peer {
  chunks: Buffer[] = [];
  ended = false;
  closed = false;
  errorCode: string | undefined;

  constructor(readonly socket: Socket) {
    socket.on('data', (c: Buffer) => this.chunks.push(c));
    socket.on('end', () => (this.ended = true));
    socket.on('error', (e: NodeJS.ErrnoException) => (this.errorCode = e.code));
    socket.on('close', () => (this.closed = true));
  }

  get received(): Buffer {
    return Buffer.concat(this.chunks);
  }

  get text(): string {
    return this.received.toString('utf8');
  }
}

/** A loopback target: records every accepted connection; echoes what it receives when asked to. */
export class TargetServer {
  readonly peers: Peer[] = [];
  private server: Server | undefined;
  port = 0;

  constructor(private readonly echo: boolean) {}

  async start(): Promise<this> {
    const server = createServer({ allowHalfOpen: true, noDelay: true }, (socket) => {
      const peer = new Peer(socket);
      this.peers.push(peer);
      if (this.echo) {
        socket.on('data', (c: Buffer) => socket.write(c));
        socket.on('end', () => socket.end());
      }
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen({ host: '127.0.0.1', port: 0 }, resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('unexpected address');
    this.port = address.port;
    return this;
  }

  async stop(): Promise<void> {
    for (const p of this.peers) p.socket.destroy();
    const server = this.server;
    if (server?.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

export async function connectPeer(port: number): Promise<Peer> {
  const socket = connect({ host: '127.0.0.1', port, allowHalfOpen: true, noDelay: true });
  const peer = new Peer(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return peer;
}

/** Round trip of `payload` through an echo target; resolves the elapsed milliseconds. */
export async function echoRoundTrip(peer: Peer, payload: string): Promise<number> {
  const before = peer.received.length;
  const t0 = performance.now();
  peer.socket.write(payload);
  await waitFor(() => peer.received.length >= before + Buffer.byteLength(payload), 5000, `echo of ${payload}`);
  return performance.now() - t0;
}

/**
 * Asserts that `cond` keeps holding for `ms`: the observation window of a negative ("nothing arrives"),
 * used only after the proxy is known to hold what would arrive.
 */
export async function stays(cond: () => boolean, ms: number, what: string): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!cond()) throw new Error(`no longer true: ${what}`);
    await sleep(5);
  }
  if (!cond()) throw new Error(`no longer true: ${what}`);
}

/** waitFor for conditions that need I/O to evaluate. */
export async function eventually(probe: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(10);
  }
}

/** The statements of the input chain in an nftables script, or [] when the script only removes its table. */
export function inputStatements(script: string): string[] {
  const lines = script.split('\n').map((l) => l.trim());
  const start = lines.indexOf('type filter hook input priority 0; policy accept;');
  if (start === -1) return [];
  return lines.slice(start + 1, lines.indexOf('}', start));
}
