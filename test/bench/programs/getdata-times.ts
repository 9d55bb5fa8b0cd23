/**
 * `tsx getdata-times.ts CONNECT N`: N getData round trips on one fresh session (after N to warm the server), printed
 * as a JSON array of milliseconds. Run by the node-net bench in whatever network namespace it is started in, so that
 * every figure is taken the same way: one client, in a process of its own.
 */
import { ZkClient } from '../../../src/zk/client.js';

const [connect, n] = [process.argv[2]!, Number(process.argv[3])];
const c = await ZkClient.connect({ connect, sessionTimeoutMs: 10_000, connectTimeoutMs: 15_000, quiet: true });
try {
  await c.create('/bench-read', 'x', 'persistent').catch(() => undefined);
  for (let i = 0; i < n; i++) await c.getData('/bench-read');
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await c.getData('/bench-read');
    out.push(performance.now() - start);
  }
  process.stdout.write(JSON.stringify(out));
} finally {
  await c.close();
}
