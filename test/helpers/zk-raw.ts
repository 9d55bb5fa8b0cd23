import { connect } from 'node:net';

/**
 * ZooKeeper's own answers, read by the tests themselves: the oracles that production code is checked against, so
 * none of this calls the code under test (the four-letter words, their parsing, the sequence rule).
 */

/** A four-letter word's raw answer from a server ('' when it cannot be reached). */
export function fourLetter(port: number, word: string, host = '127.0.0.1'): Promise<string> {
  return new Promise((resolve) => {
    const s = connect(port, host, () => s.end(word));
    let out = '';
    s.setTimeout(3000, () => s.destroy());
    s.on('data', (d) => {
      out += d.toString();
    });
    s.on('close', () => resolve(out));
    s.on('error', () => resolve(''));
  });
}

/** Session ids as hex without 0x and leading zeros, lower case: the form every test compares. */
export function sessionKey(id: string): string {
  return id
    .trim()
    .toLowerCase()
    .replace(/^0x/, '')
    .replace(/^0+(?=.)/, '');
}

/** wchp: a path line, then one tab-indented `0x…` line per session watching it. */
export function wchpByPath(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let sessions: string[] | null = null;
  for (const line of text.split('\n')) {
    if (/^\//.test(line)) {
      sessions = [];
      out.set(line.trim(), sessions);
    } else if (sessions && /^\s+0x[0-9a-f]+\s*$/i.test(line)) {
      sessions.push(sessionKey(line));
    }
  }
  return out;
}

/** One numeric key of mntr's `key<TAB>value` lines (0 when absent). */
export function mntrNumber(text: string, key: string): number {
  const line = text.split('\n').find((l) => l.split('\t')[0] === key);
  return Number(line?.split('\t')[1] ?? 0);
}

/** `Mode: …` of a srvr answer, or null. */
export function srvrMode(text: string): string | null {
  return /^Mode: (\S+)/m.exec(text)?.[1] ?? null;
}

/** The 10-digit sequence ZooKeeper appended to a sequential znode's name, or null. */
export function sequenceOf(name: string): number | null {
  const m = /(\d{10})$/.exec(name);
  return m ? Number(m[1]) : null;
}

/** Sequential names, lowest sequence first (others dropped): the order a lowest-sequence election follows. */
export function bySequence(names: readonly string[]): string[] {
  return names.filter((n) => sequenceOf(n) !== null).sort((a, b) => sequenceOf(a)! - sequenceOf(b)!);
}

/** The server whose srvr says `Mode: leader` (or `standalone`), asked on each server's client port. */
export async function quorumLeader<S extends { readonly clientPort: number }>(
  servers: readonly S[],
): Promise<S | null> {
  const modes = await Promise.all(servers.map(async (s) => srvrMode(await fourLetter(s.clientPort, 'srvr'))));
  return servers.find((_, i) => modes[i] === 'leader' || modes[i] === 'standalone') ?? null;
}
