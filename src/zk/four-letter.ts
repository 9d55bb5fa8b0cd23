/**
 * ZooKeeper's four-letter words over plain TCP: srvr, mntr, cons, wchp, wchc, and their parsers. Below every layer
 * that asks a server what it is (the ensemble's status, inspect, the link daemon's record of sessions).
 */
import { formatDuration } from '../duration.js';
import { normalizeSessionId } from './session-id.js';
import { connect } from 'node:net';

/** Sends a four-letter word and returns the whole reply; rejects on refusal or after timeoutMs. */
export function fourLetterWord(port: number, word: string, timeoutMs = 1000, host = '127.0.0.1'): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const sock = connect({ port, host });
    const timer = setTimeout(() => {
      sock.destroy();
      reject(new Error(`${word} to ${host}:${port} timed out after ${formatDuration(timeoutMs)}`));
    }, timeoutMs);
    sock.on('connect', () => sock.end(word));
    sock.on('data', (c: Buffer) => chunks.push(c));
    sock.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    sock.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
  });
}

export type ServerMode = 'leader' | 'follower' | 'observer' | 'standalone' | 'not-serving' | 'down';

/** The server whose word is the ensemble's: the quorum's leader, or a server that runs alone. */
export function leadsQuorum(mode: string): boolean {
  return mode === 'leader' || mode === 'standalone';
}

export interface Srvr {
  readonly mode: ServerMode;
  readonly zxid?: string;
  readonly connections?: number;
  readonly nodeCount?: number;
  readonly version?: string;
}

export function parseSrvr(text: string): Srvr {
  if (text.includes('not currently serving requests')) return { mode: 'not-serving' };
  const field = (name: string): string | undefined => new RegExp(`^${name}:\\s*(.*)$`, 'm').exec(text)?.[1]?.trim();
  const mode = field('Mode');
  if (!mode) return { mode: 'not-serving' };
  const num = (v: string | undefined): number | undefined => (v === undefined ? undefined : Number.parseInt(v, 10));
  return {
    mode: (['leader', 'follower', 'observer', 'standalone'].includes(mode) ? mode : 'not-serving') as ServerMode,
    zxid: field('Zxid'),
    connections: num(field('Connections')),
    nodeCount: num(field('Node count')),
    version: field('Zookeeper version')?.split(',')[0],
  };
}

/** srvr, with a refused or silent server reported as down / not-serving instead of an error. */
export async function probeSrvr(port: number, timeoutMs = 1000, host = '127.0.0.1'): Promise<Srvr> {
  try {
    return parseSrvr(await fourLetterWord(port, 'srvr', timeoutMs, host));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { mode: code === 'ECONNREFUSED' || code === 'ECONNRESET' ? 'down' : 'not-serving' };
  }
}

/** mntr's "key<TAB>value" lines; numeric values become numbers. */
export function parseMntr(text: string): Map<string, string | number> {
  const out = new Map<string, string | number>();
  for (const line of text.split('\n')) {
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    const key = line.slice(0, tab).trim();
    const raw = line.slice(tab + 1).trim();
    const n = Number(raw);
    out.set(key, raw !== '' && Number.isFinite(n) ? n : raw);
  }
  return out;
}

/** wchp: path lines, each followed by tab-indented session ids. Returns path → sessions (lower-case hex, no 0x). */
export function parseWchp(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of text.split('\n')) {
    if (line.startsWith('/')) {
      current = [];
      out.set(line.trim(), current);
    } else if (current && line.trim().startsWith('0x')) {
      current.push(normalizeSessionId(line.trim()));
    }
  }
  return out;
}

/** wchc: session lines ("0x…"), each followed by tab-indented paths. Returns session → paths. */
export function parseWchc(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (t.startsWith('0x')) {
      current = [];
      out.set(normalizeSessionId(t), current);
    } else if (current && t.startsWith('/')) {
      current.push(t);
    }
  }
  return out;
}

export interface Connection {
  readonly remote: string;
  readonly sessionId?: string;
  readonly timeoutMs?: number;
}

/** cons: one line per client connection, " /127.0.0.1:5555[1](queued=0,…,sid=0x…,…,to=2000,…)". */
export function parseCons(text: string): Connection[] {
  const out: Connection[] = [];
  for (const line of text.split('\n')) {
    const m = /^\s*\/?([^[\s]+)\[\d+\]\((.*)\)\s*$/.exec(line);
    if (!m) continue;
    const fields = new Map(m[2]!.split(',').map((kv) => kv.split('=') as [string, string]));
    const sid = fields.get('sid');
    const to = fields.get('to');
    out.push({
      remote: m[1]!,
      sessionId: sid ? normalizeSessionId(sid) : undefined,
      timeoutMs: to ? Number(to) : undefined,
    });
  }
  return out;
}

/** Session ids in one form everywhere: lower-case hex without 0x and without leading zeros. */
