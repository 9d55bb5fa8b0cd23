/**
 * Reproducible jitter: one generator per link, derived from the lab's seed and the link's id, so a drill run with
 * `--seed S` draws the same delays on each link in the same order. mulberry32 over an FNV-1a hash: small, fast,
 * and good enough for spreading delays (not for anything secret).
 */
export function seededRandom(seed: number, key: string): () => number {
  let h = 0x811c9dc5 ^ (seed >>> 0);
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  let state = h >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
