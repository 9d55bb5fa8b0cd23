import { unlessGone } from './errors.js';
import { childPath } from './paths.js';
import type { ZkPort } from './port.js';
import { normalizeSessionId } from './session-id.js';

/** An ephemeral znode and the session that owns it (normalized hex). */
export interface Ephemeral {
  readonly znode: string;
  readonly owner: string;
}

/** How deep and how many znodes a walk looks at: a real system's tree below its path is small. */
export const WALK_LIMITS = { depth: 8, znodes: 5000 } as const;

/**
 * The ephemeral znodes below `path`, level by level to `depth` (1: its children only), at most `limit` znodes looked
 * at. `stop` ends the walk early once it returns true for one found.
 */
export async function ephemeralsBelow(
  zk: ZkPort,
  path: string,
  opts: { readonly depth?: number; readonly limit?: number; readonly stop?: (e: Ephemeral) => boolean } = {},
): Promise<Ephemeral[]> {
  const { depth = WALK_LIMITS.depth, limit = WALK_LIMITS.znodes, stop } = opts;
  const found: Ephemeral[] = [];
  let level = [path];
  let seen = 0;
  for (let d = 0; d < depth && level.length > 0; d++) {
    const next: string[] = [];
    for (const parent of level) {
      for (const name of (await unlessGone(zk.getChildren(parent))) ?? []) {
        if (++seen > limit) return found;
        const znode = childPath(parent, name);
        const stat = await zk.exists(znode);
        if (!stat) continue;
        const owner = normalizeSessionId(stat.ephemeralOwner);
        if (!/^0+$/.test(owner)) {
          const e = { znode, owner };
          found.push(e);
          if (stop?.(e)) return found;
        }
        if (stat.numChildren > 0) next.push(znode);
      }
    }
    level = next;
  }
  return found;
}
