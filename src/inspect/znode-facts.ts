import { normalizeSessionId } from '../zk/session-id.js';

export type ZnodeOwner =
  | { readonly kind: 'persistent' }
  | { readonly kind: 'ephemeral'; readonly session: string }
  | { readonly kind: 'ttl'; readonly ttlMs: number }
  | { readonly kind: 'container' };

/**
 * Decodes a stat's ephemeralOwner. With extendedTypesEnabled, ZooKeeper marks a TTL znode with the top byte 0xff,
 * 16 reserved bits of 0 and the TTL in the low 40 bits, and a container with 0x8000000000000000 (EphemeralType).
 */
export function decodeEphemeralOwner(raw: string): ZnodeOwner {
  const hex = normalizeSessionId(raw);
  if (hex === '0' || hex === '') return { kind: 'persistent' };
  if (hex === '8000000000000000') return { kind: 'container' };
  if (hex.length === 16 && hex.startsWith('ff') && hex.slice(2, 6) === '0000') {
    return { kind: 'ttl', ttlMs: Number.parseInt(hex.slice(6), 16) };
  }
  return { kind: 'ephemeral', session: hex };
}

/** Session ids as ZooKeeper prints them. */
export function sessionLabel(hex: string): string {
  return `0x${normalizeSessionId(hex)}`;
}

/** Data shown in a row: printable, one line, at most max characters. */
export function shortData(data: string, max = 24): string {
  // eslint-disable-next-line no-control-regex
  const flat = data.replace(/[\u0000-\u001f\u007f]/g, '·');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
