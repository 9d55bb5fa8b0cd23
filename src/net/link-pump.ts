import type { Socket } from 'node:net';
import { isNoFault, type LinkFault } from './link-types.js';

/** What a pump needs from its link: the current fault (read on every chunk, so changes apply at once). */
export interface PumpHost {
  readonly fault: LinkFault;
  random(): number;
}

type Item = { readonly data: Buffer; readonly due: number } | { readonly data: 'fin' | 'rst'; readonly due: number };

/** Above this many held bytes the source stops being read, so TCP itself pushes back on the sender. */
export const HOLD_HIGH_WATER = 1 << 20;

/**
 * One direction of a proxied connection: bytes from `src` (pushed by the connection) to `dst`.
 * In `pass` mode with no delay and nothing queued a chunk is written straight through (no timer, no copy).
 * Otherwise chunks wait in an ordered queue until their due time, and are not delivered at all while the link is
 * not in `pass` mode: a blackhole holds data, FIN and RST alike and delivers them, in order, once healed.
 */
export class Pump {
  private readonly queue: Item[] = [];
  private dst: Socket | undefined;
  private timer: NodeJS.Timeout | undefined;
  private lastDue = 0;
  private dstFull = false;
  private dead = false;
  /** Bytes waiting in the queue. */
  heldBytes = 0;

  constructor(
    private readonly src: Socket,
    private readonly host: PumpHost,
    private readonly delivered: (bytes: number) => void,
  ) {}

  /** The destination may come later than the source (a connection accepted during a blackhole). */
  attach(dst: Socket): void {
    this.dst = dst;
    dst.on('drain', () => {
      this.dstFull = false;
      this.flush();
    });
    this.flush();
  }

  push(chunk: Buffer): void {
    if (this.dead) return;
    const f = this.host.fault;
    if (isNoFault(f) && this.queue.length === 0 && this.dst && !this.dstFull) {
      this.write(this.dst, chunk);
      return;
    }
    this.heldBytes += chunk.length;
    this.enqueue(chunk);
  }

  /** The source half-closed (fin) or was reset (rst): tell the destination, in order with the data. */
  pushEnd(how: 'fin' | 'rst'): void {
    if (!this.dead) this.enqueue(how);
  }

  /** The destination is gone: nothing will ever be delivered. */
  discard(): void {
    this.dead = true;
    this.queue.length = 0;
    this.heldBytes = 0;
    clearTimeout(this.timer);
    this.timer = undefined;
    // Keep reading (and dropping) so the source's own FIN or RST is still noticed.
    if (this.src.isPaused() && !this.src.destroyed) this.src.resume();
  }

  /** Delivers whatever is due; called on every change of fault, on timers and when the destination drains. */
  flush(): void {
    const dst = this.dst;
    if (dst && this.host.fault.mode === 'pass') {
      const now = performance.now();
      while (!this.dstFull && !this.dead) {
        const head = this.queue[0];
        if (!head) break;
        if (head.due > now) {
          this.schedule(head.due - now);
          break;
        }
        this.queue.shift();
        this.deliver(dst, head);
      }
    }
    this.updateFlow();
  }

  private enqueue(data: Item['data']): void {
    const f = this.host.fault;
    const wanted = performance.now() + f.delayMs + (f.jitterMs > 0 ? this.host.random() * f.jitterMs : 0);
    // Jitter must not reorder a TCP stream: a chunk is never due before the one ahead of it.
    this.lastDue = Math.max(this.lastDue, wanted);
    this.queue.push({ data, due: this.lastDue } as Item);
    if (this.queue.length === 1) this.flush();
    else this.updateFlow();
  }

  private deliver(dst: Socket, item: Item): void {
    if (item.data === 'fin') {
      if (!dst.destroyed) dst.end();
    } else if (item.data === 'rst') {
      resetSocket(dst);
      this.discard();
    } else {
      this.heldBytes -= item.data.length;
      this.write(dst, item.data);
    }
  }

  private write(dst: Socket, chunk: Buffer): void {
    if (dst.destroyed || dst.writableEnded) return;
    this.delivered(chunk.length);
    if (!dst.write(chunk)) {
      this.dstFull = true;
      this.updateFlow();
    }
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, Math.ceil(ms));
  }

  private updateFlow(): void {
    const stop = this.dstFull || this.heldBytes > HOLD_HIGH_WATER;
    if (stop && !this.src.isPaused()) this.src.pause();
    else if (!stop && this.src.isPaused() && !this.dead) this.src.resume();
  }
}

/** Destroys with a TCP RST (SO_LINGER 0); a socket still connecting has no connection to reset and is just destroyed. */
export function resetSocket(socket: Socket): void {
  if (socket.destroyed) return;
  if (socket.connecting) socket.destroy();
  else socket.resetAndDestroy();
}
