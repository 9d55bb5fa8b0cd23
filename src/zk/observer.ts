import { ZkClient } from './client.js';
import type { ZkPort } from './port.js';

/** Runs `fn` on a short-lived observer session (direct to the servers, never through link proxies), then closes it. */
export async function withObserver<T>(connect: string, fn: (zk: ZkPort) => Promise<T>, connectTimeoutMs = 5000): Promise<T> {
  const zk = await ZkClient.connect({ connect, sessionTimeoutMs: 10_000, connectTimeoutMs, quiet: true });
  try {
    return await fn(zk);
  } finally {
    await zk.close();
  }
}
