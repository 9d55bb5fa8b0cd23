import { z } from 'zod/v3';
import { CUT_MODES } from '../lab/net-plan.js';
import { LINK_KINDS, type LinkFault, type LinkKind } from './link-types.js';
import type { LinkStats } from './link-proxy.js';
import type { MemberDelay, PartitionRule } from '../lab/net-plan.js';
import { MAX_DELAY_MS } from './partition.js';
import { isResourceName, type ResourceState } from '../lab/fenced-resource.js';

/**
 * The link daemon's control protocol: one JSON object per line each way over `<lab>/net.sock`. Requests on one
 * connection are answered in order, one response line per request line.
 */

export interface LinkSpec {
  readonly id: string;
  readonly from: string;
  readonly to: string;
  readonly kind: LinkKind;
  /** A loopback address; absent: 127.0.0.1. Server links listen on an address per pair (src/lab/ports.ts). */
  readonly listenHost?: string;
  /** 0: any free port. */
  readonly listenPort: number;
  readonly targetHost: string;
  readonly targetPort: number;
}

export type NetRequest =
  | { readonly op: 'ping' }
  | { readonly op: 'add-links'; readonly links: readonly LinkSpec[] }
  | { readonly op: 'remove-links'; readonly ids: readonly string[] }
  /** `members` defaults to every end of every link; it decides who is in a split's implicit group. */
  | {
      readonly op: 'set-rules';
      readonly rules: readonly PartitionRule[];
      readonly delays: readonly MemberDelay[];
      readonly members?: readonly string[];
      readonly seed?: number;
    }
  | { readonly op: 'list' }
  | { readonly op: 'shutdown' }
  /** The lock workload's protected resource (src/lab/fenced-resource.ts): set its fencing, read it, write to it. */
  /** `reset`: start the register afresh (no holder of it is running). */
  | { readonly op: 'resource-configure'; readonly name: string; readonly fencing: boolean; readonly reset: boolean }
  | { readonly op: 'resource-read'; readonly name: string; readonly holder: string; readonly token: number }
  | {
      readonly op: 'resource-write';
      readonly name: string;
      readonly holder: string;
      readonly token: number;
      readonly value: number;
    };

export type NetOp = NetRequest['op'];

export interface LinkInfo extends LinkSpec {
  /** The port actually bound (equal to listenPort unless that was 0). */
  readonly port: number;
  readonly fault: LinkFault;
  readonly stats: LinkStats;
}

export interface NetResponses {
  ping: { readonly ok: true; readonly pid: number; readonly labRoot: string; readonly uptimeMs: number };
  'add-links': { readonly ok: true; readonly links: readonly { readonly id: string; readonly port: number }[] };
  'remove-links': { readonly ok: true; readonly removed: readonly string[] };
  'set-rules': { readonly ok: true; readonly faults: Readonly<Record<string, LinkFault>> };
  list: {
    readonly ok: true;
    readonly links: readonly LinkInfo[];
    readonly members: readonly string[];
    readonly rules: readonly PartitionRule[];
    readonly delays: readonly MemberDelay[];
  };
  shutdown: { readonly ok: true };
  'resource-configure': { readonly ok: true; readonly state: ResourceState };
  'resource-read': { readonly ok: true; readonly state: ResourceState };
  'resource-write': {
    readonly ok: true;
    readonly accepted: boolean;
    readonly lastToken: number;
    readonly previousValue: number;
    readonly state: ResourceState;
  };
}

/** `invalid`: the request was refused and nothing changed (a usage error); otherwise the daemon failed to act. */
export interface ErrorResponse {
  readonly ok: false;
  readonly error: string;
  readonly invalid: boolean;
}

export type ResponseFor<R extends NetRequest> = NetResponses[R['op']];
export type NetResponse = NetResponses[NetOp] | ErrorResponse;

const name = z.string().min(1).max(200);
const port = z.number().int().min(0).max(65535);
const ms = z.number().min(0).max(MAX_DELAY_MS);

const linkSpec = z.strictObject({
  id: name,
  from: name,
  to: name,
  kind: z.enum(LINK_KINDS),
  // Loopback only: the daemon never listens where another machine could reach it.
  listenHost: z
    .string()
    .regex(/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/, 'a loopback address (127.x.y.z)')
    .optional(),
  listenPort: port,
  targetHost: z.string().min(1),
  targetPort: port.min(1),
});

const rule = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('isolate'), member: name, mode: z.enum(CUT_MODES) }),
  z.strictObject({ type: z.literal('split'), groups: z.array(z.array(name)), mode: z.enum(CUT_MODES) }),
]);

const resourceName = z.string().refine(isResourceName, 'not a lock path');

const memberDelay = z.strictObject({ member: name, delayMs: ms, jitterMs: ms });

const request = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('ping') }),
  z.strictObject({ op: z.literal('add-links'), links: z.array(linkSpec) }),
  z.strictObject({ op: z.literal('remove-links'), ids: z.array(name) }),
  z.strictObject({
    op: z.literal('set-rules'),
    rules: z.array(rule),
    delays: z.array(memberDelay),
    members: z.array(name).optional(),
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 32 - 1)
      .optional(),
  }),
  z.strictObject({ op: z.literal('list') }),
  z.strictObject({ op: z.literal('shutdown') }),
  z.strictObject({ op: z.literal('resource-configure'), name: resourceName, fencing: z.boolean(), reset: z.boolean() }),
  z.strictObject({ op: z.literal('resource-read'), name: resourceName, holder: name, token: z.number().int().min(0) }),
  z.strictObject({
    op: z.literal('resource-write'),
    name: resourceName,
    holder: name,
    token: z.number().int().min(0),
    value: z.number().int(),
  }),
]);

/** Parses one request line; a string is the reason it is not a valid request. */
export function parseRequest(line: string): NetRequest | string {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return 'request is not JSON';
  }
  const parsed = request.safeParse(json);
  if (parsed.success) return parsed.data;
  return parsed.error.issues.map((i) => `${i.path.join('.') || 'request'}: ${i.message}`).join('; ');
}

export { lineSplitter } from './lines.js';
