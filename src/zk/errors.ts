/** ZooKeeper return codes zklab reacts to, by name. */
export type ZkCode =
  | 'NONODE'
  | 'NODEEXISTS'
  | 'NOTEMPTY'
  | 'BADVERSION'
  | 'CONNECTIONLOSS'
  | 'OPERATIONTIMEOUT'
  | 'SESSIONEXPIRED'
  | 'SESSIONMOVED'
  | 'CLOSED'
  | 'NOAUTH'
  | 'BADARGUMENTS'
  | 'UNIMPLEMENTED'
  | 'NEWCONFIGNOQUORUM'
  | 'RECONFIGINPROGRESS'
  | 'RECONFIGDISABLED'
  | 'OTHER';

const BY_RC: Readonly<Record<number, ZkCode>> = {
  [-101]: 'NONODE',
  [-110]: 'NODEEXISTS',
  [-111]: 'NOTEMPTY',
  [-103]: 'BADVERSION',
  [-4]: 'CONNECTIONLOSS',
  [-7]: 'OPERATIONTIMEOUT',
  [-112]: 'SESSIONEXPIRED',
  [-118]: 'SESSIONMOVED',
  [-116]: 'CLOSED', // ZCLOSING
  [-9]: 'CLOSED', // ZINVALIDSTATE: the handle is gone
  [-102]: 'NOAUTH',
  [-8]: 'BADARGUMENTS',
  [-6]: 'UNIMPLEMENTED',
  [-13]: 'NEWCONFIGNOQUORUM',
  [-14]: 'RECONFIGINPROGRESS',
  [-123]: 'RECONFIGDISABLED',
};

export class ZkError extends Error {
  constructor(
    readonly code: ZkCode,
    readonly rc: number,
    readonly op: string,
    readonly path: string | undefined,
    message: string,
  ) {
    super(`${op}${path ? ` ${path}` : ''}: ${message}`);
    this.name = 'ZkError';
  }

  /** The operation may or may not have happened; the session may still be alive. */
  get retryable(): boolean {
    return this.code === 'CONNECTIONLOSS' || this.code === 'OPERATIONTIMEOUT';
  }
}

/**
 * The package rejects with Error("<rc> <text>"), or with `… result: "ZINVALIDSTATE -9"` when the call could not be
 * queued; the return code lives only in the message.
 */
export function toZkError(err: unknown, op: string, path?: string): ZkError {
  if (err instanceof ZkError) return err;
  const message = err instanceof Error ? err.message : String(err);
  const m = /^(-?\d+)\s+(.*)$/s.exec(message) ?? /result: "\w+ (-?\d+)"/.exec(message);
  const rc = m ? Number(m[1]) : 0;
  return new ZkError(BY_RC[rc] ?? 'OTHER', rc, op, path, m?.[2] ?? message);
}

/** An error from a return code (the pure-JS client behind src/zk/multi.ts reports those as numbers). */
export function zkErrorFromRc(rc: number, op: string, path: string | undefined, message: string): ZkError {
  return new ZkError(BY_RC[rc] ?? 'OTHER', rc, op, path, message);
}

export function isCode(err: unknown, ...codes: ZkCode[]): boolean {
  return err instanceof ZkError && codes.includes(err.code);
}

/** The result of a read, or null when its znode is gone (NONODE); other errors pass through. */
export function unlessGone<T>(read: Promise<T>): Promise<T | null> {
  return read.catch((e: unknown) => {
    if (isCode(e, 'NONODE')) return null;
    throw e;
  });
}
