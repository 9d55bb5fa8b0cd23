/** Session ids as one spelling: lower-case hex, no 0x, no leading zeros ('0' for none). The C client, the 4lw
 * answers and zklab's logs each print them differently. */
export function normalizeSessionId(id: string): string {
  return id
    .trim()
    .toLowerCase()
    .replace(/^0x/, '')
    .replace(/^0+(?=.)/, '');
}
