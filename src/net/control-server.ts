import { createServer, type Server, type Socket } from 'node:net';
import { InvalidRequestError } from './link-table.js';
import {
  lineSplitter,
  parseRequest,
  type NetOp,
  type NetRequest,
  type NetResponse,
  type NetResponses,
} from './protocol.js';

export type ControlHandler = (req: NetRequest) => Promise<NetResponses[NetOp]>;

export interface ControlServer {
  readonly server: Server;
  /** Stops listening and drops every control connection. */
  close(): Promise<void>;
}

/**
 * Listens on a unix socket for newline-delimited JSON requests. Each connection's requests are answered in
 * order; `replied` runs once a response has been flushed (so `shutdown` can answer before the process exits).
 */
export async function serveControl(
  socketPath: string,
  handler: ControlHandler,
  replied?: (req: NetRequest) => void,
): Promise<ControlServer> {
  const clients = new Set<Socket>();
  const server = createServer((socket) => {
    clients.add(socket);
    socket.on('close', () => clients.delete(socket));
    socket.on('error', () => {});
    let chain = Promise.resolve();
    const answer = async (line: string): Promise<void> => {
      const req = parseRequest(line);
      let res: NetResponse;
      if (typeof req === 'string') res = { ok: false, error: req, invalid: true };
      else {
        try {
          res = await handler(req);
        } catch (err) {
          res = {
            ok: false,
            error: err instanceof Error ? err.message : String(err),
            invalid: err instanceof InvalidRequestError,
          };
        }
      }
      await writeLine(socket, res);
      if (typeof req !== 'string') replied?.(req);
    };
    socket.on(
      'data',
      lineSplitter(
        (line) => (chain = chain.then(() => answer(line))),
        () => socket.end(`${JSON.stringify({ ok: false, error: 'request line too long', invalid: true })}\n`),
      ),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const c of clients) c.destroy();
      }),
  };
}

function writeLine(socket: Socket, res: NetResponse): Promise<void> {
  return new Promise((resolve) => {
    if (socket.destroyed || !socket.writable) return resolve();
    socket.write(`${JSON.stringify(res)}\n`, () => resolve());
  });
}
