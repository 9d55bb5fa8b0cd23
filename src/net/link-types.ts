/** Vocabulary shared by the link proxy, the partition rules and the control protocol. */

export const LINK_KINDS = ['client', 'quorum', 'election'] as const;
export type LinkKind = (typeof LINK_KINDS)[number];

/** pass: bytes flow; blackhole: silence with sockets kept open; reject: connections are reset (RST). */
export const LINK_MODES = ['pass', 'blackhole', 'reject'] as const;
export type LinkMode = (typeof LINK_MODES)[number];

export interface LinkFault {
  readonly mode: LinkMode;
  readonly delayMs: number;
  readonly jitterMs: number;
}

export const NO_FAULT: LinkFault = Object.freeze({ mode: 'pass', delayMs: 0, jitterMs: 0 });

/** The link passes traffic untouched. */
export function isNoFault(f: LinkFault): boolean {
  return f.mode === 'pass' && f.delayMs === 0 && f.jitterMs === 0;
}

/** One directed link: connections are opened by `from` towards `to`. */
export interface LinkRef {
  readonly id: string;
  readonly from: string;
  readonly to: string;
  readonly kind: LinkKind;
}

/** The conventional id of a link, e.g. `election:zk1->zk2`. */
export function linkId(link: { readonly from: string; readonly to: string; readonly kind: LinkKind }): string {
  return `${link.kind}:${link.from}->${link.to}`;
}
