/**
 * The contender process: one recipe, one session at a time, events to its JSON-lines log.
 * SIGTERM / SIGINT close the session cleanly (ephemeral znodes vanish at once); SIGKILL leaves it to expire.
 */
import { existsSync } from 'node:fs';
import { LabPaths } from '../lab/paths.js';
import { createRecipe } from '../recipes/index.js';
import type { LogFields, Recipe, RecipeIO } from '../recipes/types.js';
import type { ContenderEventFields, ContenderEventName } from '../lab/events.js';
import { ZkClient } from '../zk/client.js';
import { decodeChildConfig } from './child-config.js';
import { EventLogWriter } from '../lab/event-log.js';
import { takeFailpoint } from '../lab/failpoints.js';
import { MultiClient } from '../zk/multi.js';
import { resourceClient } from './resource-client.js';
import { readState } from '../lab/state.js';
import { plannedConnect } from '../net/lab-links.js';

const cfg = decodeChildConfig(process.argv);
const log = new EventLogWriter(cfg.eventsFile, cfg.id);
const labPaths = new LabPaths(cfg.labRoot);
const labState = labPaths.stateFile;
let recipe: Recipe | undefined;

// The servers to use follow the lab's link plan as the membership changes (ensemble add/remove).
let connect = cfg.connect;
let session: ZkClient | undefined;

const io = {
  connect: async () => {
    session = await ZkClient.connect({
      connect,
      sessionTimeoutMs: cfg.sessionTimeoutMs,
      connectTimeoutMs: Math.max(5000, cfg.sessionTimeoutMs * 2),
    });
    return session;
  },
  log: <E extends ContenderEventName>(event: E, ...fields: LogFields<E>) =>
    log.write(event, recipe?.session ?? null, recipe?.znode ?? null, (fields[0] ?? {}) as ContenderEventFields[E]),
  failpoint: async (at: string) => {
    const fp = takeFailpoint(labPaths, cfg.id, at);
    if (!fp) return;
    log.write('failpoint', recipe?.session ?? null, recipe?.znode ?? null, { at, action: fp.action });
    if (fp.action === 'crash') process.kill(process.pid, 'SIGKILL');
    else if (fp.action === 'pause') process.kill(process.pid, 'SIGSTOP');
    else await new Promise<never>(() => undefined); // hang: this flow never goes on; the process and its session live
  },
  openMulti: () =>
    new MultiClient({
      connect,
      sessionTimeoutMs: cfg.sessionTimeoutMs,
      connectTimeoutMs: Math.max(5000, cfg.sessionTimeoutMs * 2),
    }),
  resource: () => resourceClient(labPaths, cfg.path, cfg.id),
} satisfies RecipeIO;

let stopping = false;
async function shutdown(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  try {
    await recipe?.stop();
  } finally {
    process.exit(code);
  }
}
process.on('SIGTERM', () => void shutdown(0));
process.on('SIGINT', () => void shutdown(0));
process.on('uncaughtException', (e) => {
  log.write('error', recipe?.session ?? null, recipe?.znode ?? null, { message: e.stack ?? e.message });
  void shutdown(1);
});

// A contender never outlives its lab: when the lab's state is purged, it leaves. While the lab lives, the contender
// takes up the servers its link plan lists now.
const labWatch = setInterval(() => {
  if (!existsSync(labState)) return void shutdown(0);
  followLinkPlan();
}, 2000);

function followLinkPlan(): void {
  let planned: string | null;
  try {
    const state = readState(labPaths);
    planned = state ? plannedConnect(state, cfg.id) : null;
  } catch {
    return; // a state file being replaced: next time
  }
  if (planned === null || planned === connect) return;
  connect = planned;
  try {
    session?.setServers(connect);
  } catch {
    // A handle closing meanwhile: the next session starts with the new list.
  }
  log.write('servers', recipe?.session ?? null, recipe?.znode ?? null, { connect });
}
labWatch.unref();

recipe = createRecipe(cfg, io, cfg.memberData);
log.write('started', null, null, {
  recipe: cfg.recipe,
  path: cfg.path,
  sessionTimeoutMs: cfg.sessionTimeoutMs,
  onDisconnect: cfg.onDisconnect,
  connect: cfg.connect,
});
await recipe.start();
