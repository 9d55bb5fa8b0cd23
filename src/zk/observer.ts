import { ZkClient } from './client.js';
import type { ZkPort } from './port.js';

/** An observer session (direct to the servers, never through link proxies); the caller closes it. */
export function openObserver(connect: string, connectTimeoutMs = 5000, sessionTimeoutMs = 10_000): Promise<ZkPort> {
  return ZkClient.connect({ connect, sessionTimeoutMs, connectTimeoutMs, quiet: true });
}

/** Runs `fn` on a short-lived observer session, then closes it. */
export async function withObserver<T>(
  connect: string,
  fn: (zk: ZkPort) => Promise<T>,
  connectTimeoutMs = 5000,
): Promise<T> {
  const zk = await openObserver(connect, connectTimeoutMs);
  try {
    return await fn(zk);
  } finally {
    await zk.close();
  }
}
