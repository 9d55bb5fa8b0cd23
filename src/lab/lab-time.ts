/**
 * The lab's true timeline, whatever a node's wall clock says (a clock fault fakes the wall clock of every process
 * of a node). The controller, whose clock is never faked, reads its wall clock and the monotonic clock together when
 * it starts a node and hands both down (ZKLAB_TIME_ANCHOR); the monotonic clock is the machine's and is never faked,
 * so a node's processes carry the controller's wall time forward from it. Lab events are stamped with this.
 */

export const TIME_ANCHOR_ENV = 'ZKLAB_TIME_ANCHOR';

/** `<wall ms>:<monotonic ns>`, read together now: what a node is started with. */
export const timeAnchor = (): string => `${Date.now()}:${process.hrtime.bigint()}`;

interface Anchor {
  readonly wallMs: number;
  readonly hrNs: bigint;
}

export function parseAnchor(text: string | undefined): Anchor | undefined {
  const m = /^(\d+):(\d+)$/.exec(text ?? '');
  return m ? { wallMs: Number(m[1]), hrNs: BigInt(m[2]!) } : undefined;
}

const anchor = parseAnchor(process.env[TIME_ANCHOR_ENV]);

/** The lab's wall time in ms: the controller's, carried on the monotonic clock; Date.now() outside a node. */
export function labNow(): number {
  if (!anchor) return Date.now();
  return anchor.wallMs + Math.round(Number(process.hrtime.bigint() - anchor.hrNs) / 1e6);
}
