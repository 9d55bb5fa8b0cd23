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
 * at the instant the millisecond turns, found by watching for it (at most 1 ms). A reading pre-empted between the
 * two clocks (a loaded machine) would put the node's time ahead by the pause: it is taken again, up to a few times.
 */
export function timeAnchor(): string {
  let best: { wall: number; at: bigint; gap: bigint } | undefined;
  for (let tries = 0; tries < ANCHOR_TRIES && (best === undefined || best.gap > ANCHOR_GAP_NS); tries++) {
    // Each wall reading follows a monotonic one: the turn lies after the reading before it (and so after `prev`)
    // and before the reading that shows it (just after `at`).
    let prev = process.hrtime.bigint();
    const start = Date.now();
    for (;;) {
      const at = process.hrtime.bigint();
      const wall = Date.now();
      if (wall !== start) {
        if (best === undefined || at - prev < best.gap) best = { wall, at, gap: at - prev };
        break;
      }
      prev = at;
    }
  }
  return `${best!.wall}:${best!.at}`;
}

/** A turn seen within this (ns) is exact enough; a wider one was pre-empted. */
const ANCHOR_GAP_NS = 200_000n;
const ANCHOR_TRIES = 8;

interface Anchor {
  readonly wallMs: number;
  readonly hrNs: bigint;
}

export function parseAnchor(text: string | undefined): Anchor | undefined {
  const m = /^(\d+):(\d+)$/.exec(text ?? '');
  return m ? { wallMs: Number(m[1]), hrNs: BigInt(m[2]!) } : undefined;
}

/**
 * A node on another machine (a host) anchors itself when it starts: this machine's monotonic clock is not its own.
 * Its wall clock is true then (a node starts with a true clock, and a fault comes later), and on a host kept in time
 * with this machine (NTP) it agrees with the controller's.
 */
export const SELF_ANCHOR = 'self';

const anchor =
  process.env[TIME_ANCHOR_ENV] === SELF_ANCHOR ? parseAnchor(timeAnchor()) : parseAnchor(process.env[TIME_ANCHOR_ENV]);

/**
 * The lab's wall time in whole ms, as Date.now() says it: the controller's, carried on the monotonic clock;
 * Date.now() outside a node.
 */
export function labNow(): number {
  if (!anchor) return Date.now();
  return anchor.wallMs + Math.floor(Number(process.hrtime.bigint() - anchor.hrNs) / 1e6);
}
