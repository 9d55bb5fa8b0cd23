import { UsageError } from '../errors.js';
import { DEFAULT_TAKEOVER_MS } from '../recipes/priority-layout.js';
import { POLICIES, RECIPES, type ElectorPolicy, type OnDisconnect, type RecipeName } from '../recipes/types.js';
import { wholeNumber } from '../validate.js';

export const MAX_CONTENDERS = 200;
export const DEFAULT_SESSION_TIMEOUT_MS = 2000;
export const DEFAULT_PATH = '/election';

export interface SpawnRequest {
  readonly count: number;
  readonly recipe: RecipeName;
  readonly sessionTimeoutMs: number;
  readonly path: string;
  readonly priorities?: readonly number[];
  readonly sites?: readonly string[];
  readonly policy: ElectorPolicy;
  readonly takeoverMs: number;
  readonly onDisconnect: OnDisconnect;
  readonly connect?: string;
}

export interface RawSpawnArgs {
  readonly count: unknown;
  readonly recipe?: string;
  readonly sessionTimeout?: unknown;
  readonly path?: string;
  readonly priority?: string;
  readonly site?: string;
  readonly policy?: string;
  readonly takeoverMs?: unknown;
  readonly onDisconnect?: string;
  readonly connect?: string;
}

function oneOf<T extends string>(v: string | undefined, allowed: readonly T[], what: string, fallback: T): T {
  if (v === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(v)) throw new UsageError(`unknown ${what} "${v}"`, `choose one of ${allowed.join(', ')}`);
  return v as T;
}

function list(v: string | undefined, count: number, what: string): string[] | undefined {
  if (v === undefined) return undefined;
  const items = v.split(',').map((s) => s.trim());
  if (items.length !== count || items.some((s) => s === '')) {
    throw new UsageError(`--${what} lists ${items.length} value${items.length === 1 ? '' : 's'} for ${count} contender${count === 1 ? '' : 's'}`, `give exactly one ${what} per contender, comma-separated`);
  }
  return items;
}

export function validateZnodePath(p: string): string {
  if (!/^(\/[A-Za-z0-9._:-]+)+$/.test(p)) throw new UsageError(`--path "${p}" is not a ZooKeeper path`, 'use an absolute path such as /election (letters, digits, . _ : -)');
  return p;
}

export function validateConnect(c: string): string {
  const ok = c.split(',').every((hp) => /^[A-Za-z0-9.-]+:\d{1,5}$|^\[[0-9a-fA-F:]+\]:\d{1,5}$/.test(hp.trim()));
  if (!ok) throw new UsageError(`--connect "${c}" is not a list of host:port`, 'e.g. --connect 10.0.0.1:2181,10.0.0.2:2181');
  return c;
}

/** Turns raw command-line values into a spawn request, or throws one UsageError naming what is wrong. */
export function parseSpawnRequest(raw: RawSpawnArgs): SpawnRequest {
  const count = wholeNumber(raw.count, 'the contender count', 1, MAX_CONTENDERS, 'e.g. `zklab contenders spawn 5`');
  const recipe = oneOf(raw.recipe, RECIPES, 'recipe', 'predecessor');
  const policy = oneOf(raw.policy, POLICIES, 'policy', 'priority');
  const onDisconnect = oneOf(raw.onDisconnect, ['pause', 'ignore'] as const, '--on-disconnect mode', 'pause');
  const sessionTimeoutMs = raw.sessionTimeout === undefined ? DEFAULT_SESSION_TIMEOUT_MS : wholeNumber(raw.sessionTimeout, '--session-timeout', 100, 120_000, 'milliseconds; the servers clamp it to [2, 20] ticks unless configured otherwise (a lab allows up to 60000)');
  const takeoverMs = raw.takeoverMs === undefined ? DEFAULT_TAKEOVER_MS : wholeNumber(raw.takeoverMs, '--takeover-ms', 0, 60_000, 'the priority recipe\'s PROGRESS → READY work, in ms');
  const priorities = list(raw.priority, count, 'priority')?.map((p) => {
    const n = Number(p);
    if (!Number.isInteger(n)) throw new UsageError(`--priority "${p}" is not a whole number`, 'e.g. --priority 5,3,1');
    return n;
  });
  const sites = list(raw.site, count, 'site');
  return {
    count,
    recipe,
    policy,
    onDisconnect,
    sessionTimeoutMs,
    takeoverMs,
    path: validateZnodePath(raw.path ?? DEFAULT_PATH),
    priorities,
    sites,
    connect: raw.connect === undefined ? undefined : validateConnect(raw.connect),
  };
}
