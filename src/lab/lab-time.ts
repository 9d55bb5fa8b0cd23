/**
 * The lab's true timeline, whatever a node's wall clock says (a clock fault fakes the wall clock of every process
 * of a node). The controller, whose clock is never faked, reads its wall clock and the monotonic clock together when
 * it starts a node and hands both down (ZKLAB_TIME_ANCHOR); the monotonic clock is the machine's and is never faked,
 * so a node's processes carry the controller's wall time forward from it. Lab events are stamped with this.
 */

export const TIME_ANCHOR_ENV = 'ZKLAB_TIME_ANCHOR';

/**
 * `<wall ms>:<monotonic ns>`, read together now: what a node is started with. Date.now() is whole milliseconds, cut
 * down: read at a random moment it is up to 1 ms behind, and two nodes' events a fraction of a millisecond apart
 * could swap places on the timeline (a successor's claim before its predecessor's release). So the anchor is taken
 * at the instant the millisecond turns, found by watching for it (at most 1 ms).
 */
export function timeAnchor(): string {
  const start = Date.now();
  let before = process.hrtime.bigint();
  let wall = Date.now();
  while (wall === start) {
    before = process.hrtime.bigint();
    wall = Date.now();
  }
  // The millisecond turned between the previous reading and this one, just after `before`.
  return `${wall}:${before}`;
}

interface Anchor {
  readonly wallMs: number;
  readonly hrNs: bigint;
}

export function parseAnchor(text: string | undefined): Anchor | undefined {
  const m = /^(\d+):(\d+)$/.exec(text ?? '');
  return m ? { wallMs: Number(m[1]), hrNs: BigInt(m[2]!) } : undefined;
}

const anchor = parseAnchor(process.env[TIME_ANCHOR_ENV]);

/**
 * The lab's wall time in whole ms, as Date.now() says it: the controller's, carried on the monotonic clock;
 * Date.now() outside a node.
 */
export function labNow(): number {
  if (!anchor) return Date.now();
  return anchor.wallMs + Math.floor(Number(process.hrtime.bigint() - anchor.hrNs) / 1e6);
}
