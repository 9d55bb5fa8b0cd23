/**
 * The process that samples ZooKeeper's own state during a drill (see SamplerSession): who leads, and the scheduler's
 * status znodes. `node sampler-child.js --zklab-lab=DIR`. It carries the lab's marker, so the lab's teardown stops
 * it; SIGTERM ends it cleanly, and it leaves by itself when the lab's state is gone.
 */
import { existsSync } from 'node:fs';
import { LabPaths, NODE_MARKER_PREFIX } from '../../lab/paths.js';
import { SamplerSession } from './sampler-session.js';
import { StatusSampler } from './status-sampler.js';
import { ZkLeaderSampler } from './zk-leader-sampler.js';

const marker = process.argv.find((a) => a.startsWith(NODE_MARKER_PREFIX));
if (!marker) throw new Error(`usage: sampler-child.js ${NODE_MARKER_PREFIX}DIR`);
const paths = new LabPaths(marker.slice(NODE_MARKER_PREFIX.length));
const session = new SamplerSession(paths, [new ZkLeaderSampler(paths), new StatusSampler(paths)]);
const stop = async (): Promise<void> => {
  await session.stop();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
setInterval(() => {
  if (!existsSync(paths.stateFile)) void stop();
}, 1000);
await session.start();
