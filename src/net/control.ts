import { formatDuration } from '../duration.js';
import { connect, type Socket } from 'node:net';
import { EnvironmentError, ProcessError, UsageError } from '../errors.js';
import { LabPaths } from '../lab/paths.js';
import { entryPoint } from '../entry-points.js';
// Types only from protocol.ts: its zod schemas are the daemon's business, and cost every CLI command 70 ms to load.
import { lineSplitter } from './lines.js';
import type { ErrorResponse, NetRequest, NetResponse, ResponseFor } from './protocol.js';
import { tailFile } from '../lab/fs.js';
import { signal, spawnDetached } from '../lab/node/procs.js';

/** The compiled daemon entry. */
export const DAEMON_SCRIPT = entryPoint('net/daemon');

/** sun_path holds 108 bytes on Linux, the last one a NUL. */
export const MAX_UNIX_SOCKET_PATH = 107;

const NOT_RUNNING_HINT = 'the lab network daemon is not running: `zklab ensemble up` starts it again';

interface Pending {
  resolve(res: NetResponse): void;
  reject(err: Error): void;
}

/** A connection to a lab's link daemon. Requests are answered in the order they are sent. */
export class NetControl {
  private readonly pending: Pending[] = [];
  private closedError: Error | undefined;

  private constructor(
    private readonly socket: Socket,
    readonly socketPath: string,
  ) {
    socket.on(
      'data',
      lineSplitter(
        (line) => {
          let res: NetResponse;
          try {
            res = JSON.parse(line) as NetResponse;
          } catch {
            return this.fail(
              new ProcessError(`the link daemon on ${socketPath} answered with something that is not JSON`),
            );
          }
          this.pending.shift()?.resolve(res);
        },
        () => this.fail(new ProcessError(`the link daemon on ${socketPath} sent an oversized line`)),
      ),
    );
    socket.on('error', (err) =>
      this.fail(
        new ProcessError(`lost the link daemon on ${socketPath}: ${err.message}`, NOT_RUNNING_HINT, { cause: err }),
      ),
    );
    socket.on('close', () =>
      this.fail(new ProcessError(`the link daemon on ${socketPath} closed the connection`, NOT_RUNNING_HINT)),
    );
  }

  static connect(socketPath: string, timeoutMs = 2000): Promise<NetControl> {
    return new Promise((resolve, reject) => {
      const socket = connect(socketPath);
      const timer = setTimeout(() => {
        socket.destroy();
        reject(
          new ProcessError(
            `the link daemon on ${socketPath} did not accept a connection within ${formatDuration(timeoutMs)}`,
            NOT_RUNNING_HINT,
          ),
        );
      }, timeoutMs);
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.removeAllListeners('error');
        resolve(new NetControl(socket, socketPath));
      });
      socket.once('error', (err: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        reject(
          new ProcessError(
            `cannot reach the link daemon on ${socketPath} (${err.code ?? err.message})`,
            NOT_RUNNING_HINT,
            { cause: err },
          ),
        );
      });
    });
  }

  /** Sends one request; resolves its success response, rejects with UsageError (refused) or ProcessError. */
  request<R extends NetRequest>(req: R, timeoutMs = 10_000): Promise<ResponseFor<R>> {
    if (this.closedError) return Promise.reject(this.closedError);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.fail(
          new ProcessError(
            `the link daemon did not answer '${req.op}' within ${formatDuration(timeoutMs)}`,
            `see its log in the lab's logs/net.log`,
          ),
        );
      }, timeoutMs);
      this.pending.push({
        resolve: (res) => {
          clearTimeout(timer);
          if (res.ok) resolve(res as ResponseFor<R>);
          else reject(responseError(req, res));
        },
        reject: (err) => {
          clearTimeout(timer);
          reject(err);
        },
      });
      this.socket.write(`${JSON.stringify(req)}\n`);
    });
  }

  close(): void {
    this.fail(new ProcessError('the link daemon connection is closed'));
  }

  /** Ends the connection and fails every request still waiting (all later answers would be out of step). */
  private fail(err: Error): void {
    this.closedError ??= err;
    this.socket.destroy();
    for (const p of this.pending.splice(0)) p.reject(this.closedError);
  }
}

function responseError(req: NetRequest, res: ErrorResponse): Error {
  const message = `the link daemon refused '${req.op}': ${res.error}`;
  return res.invalid ? new UsageError(message) : new ProcessError(message, 'see the lab log logs/net.log');
}

/**
 * Runs `fn` on a connection to a link daemon's socket (given by path, or a lab's paths), closing it afterwards.
 * `timeoutMs` bounds the connect; each request takes its own. A ProcessError saying `up` repairs it when none answers.
 */
export async function withDaemon<T>(
  target: string | LabPaths,
  fn: (ctl: NetControl) => Promise<T>,
  { timeoutMs = 2000 }: { timeoutMs?: number } = {},
): Promise<T> {
  const ctl = await NetControl.connect(typeof target === 'string' ? target : target.controlSocket, timeoutMs);
  try {
    return await fn(ctl);
  } finally {
    ctl.close();
  }
}

/** Pings the lab's daemon; undefined when none answers. */
export async function pingDaemon(labRoot: string, timeoutMs = 1000): Promise<ResponseFor<{ op: 'ping' }> | undefined> {
  try {
    return await withDaemon(new LabPaths(labRoot), (ctl) => ctl.request({ op: 'ping' }, timeoutMs), { timeoutMs });
  } catch {
    return undefined;
  }
}

/**
 * Starts the lab's link daemon detached (its own process group, output to `<lab>/logs/net.log`) and waits until
 * it answers a ping. When one already answers, returns its pid instead of starting another.
 */
export async function startDaemon(
  labRoot: string,
  timeoutMs = 10_000,
): Promise<{ pid: number; alreadyRunning: boolean }> {
  const paths = new LabPaths(labRoot);
  if (Buffer.byteLength(paths.controlSocket) > MAX_UNIX_SOCKET_PATH) {
    throw new EnvironmentError(
      `the lab's control socket path is too long for a unix socket ` +
        `(${Buffer.byteLength(paths.controlSocket)} > ${MAX_UNIX_SOCKET_PATH} bytes): ${paths.controlSocket}`,
      'use a lab directory with a shorter path (--lab DIR or ZKLAB_LAB)',
    );
  }
  const running = await pingDaemon(paths.root);
  if (running) return { pid: running.pid, alreadyRunning: true };

  const logFile = paths.netLog;
  let exited: string | undefined;
  const child = spawnDetached(process.execPath, [DAEMON_SCRIPT, '--lab-root', paths.root, paths.nodeMarker], logFile, {
    cwd: paths.root,
  });
  child.once('error', (err) => (exited = err.message));
  child.once('exit', (code, signal) => (exited = `exited with ${signal ?? `code ${code}`}`));
  const pid = child.pid;

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const pong = await pingDaemon(paths.root, 500);
    if (pong) return { pid: pong.pid, alreadyRunning: false };
    if (exited !== undefined || pid === undefined || Date.now() > deadline) {
      if (pid !== undefined && exited === undefined) signal(pid, 'SIGKILL');
      const why = exited ?? `did not answer within ${formatDuration(timeoutMs)}`;
      throw new ProcessError(`the lab network daemon ${why}`, `its log ends with:\n${tailFile(logFile, 10)}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}
