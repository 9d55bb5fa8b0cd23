import { contenderPaused } from '../../faults/contender-signals.js';
import { hitWords } from '../../faults/hit.js';
import { applyHeal } from '../../faults/kinds/heal.js';
import { applyIsolate } from '../../faults/kinds/isolate.js';
import { applyKill } from '../../faults/kinds/kill.js';
import { freeze } from '../../faults/kinds/pause.js';
import { requireContenderSpec } from '../../contenders/spec.js';
import { spawnContenders } from '../../contenders/service.js';
import { UsageError } from '../../errors.js';
import type { LabPaths } from '../../lab/paths.js';
import { requireState } from '../../lab/state.js';

/** What the live view's keys do; each resolves to the one line the footer shows, or rejects with the reason. */
export interface InspectActions {
  kill(contender: string, signal: 'SIGKILL' | 'SIGTERM'): Promise<string>;
  togglePause(contender: string): Promise<string>;
  toggleIsolate(contender: string): Promise<string>;
  spawn(): Promise<string>;
}

/** The lab's own services, called in-process: the same code paths as `zklab kill`, `pause`, `partition`, `contenders spawn`. */
export function labActions(paths: LabPaths, electionPath: string): InspectActions {
  return {
    async kill(id, signal) {
      const r = await applyKill(paths, { name: id, kind: 'contender' }, signal);
      const session = signal === 'SIGKILL' ? 'its session lingers until it expires' : 'its session is closed';
      return `killed ${hitWords(r)} with ${signal}: ${session}`;
    },

    async togglePause(id) {
      const record = requireState(paths).contenders.find((c) => c.id === id);
      // Its node, whether or not its program still runs.
      const paused = record !== undefined && contenderPaused(paths, record);
      const r = await freeze(paths, { name: id, kind: 'contender' }, !paused);
      return `${paused ? 'resumed' : 'paused'} ${hitWords(r)}`;
    },

    async toggleIsolate(id) {
      const { memberNetwork } = await import('../../net/status.js');
      if (memberNetwork(requireState(paths), id).cutFrom.length > 0) {
        const r = await applyHeal(paths, id);
        return r.healed.length > 0 ? `healed ${id}: ${r.healed.join('; ')}` : `nothing cuts ${id} off`;
      }
      const r = await applyIsolate(paths, id);
      return `${r.description} (i again heals it)`;
    },

    async spawn() {
      const state = requireState(paths);
      const model = state.contenders
        .filter((c) => c.path === electionPath || c.scheduler?.root === electionPath)
        .at(-1);
      if (!model)
        throw new UsageError(
          `no contender of this lab runs on ${electionPath} to copy`,
          'spawn the first ones with `zklab contenders spawn`',
        );
      const connect = state.servers.length === 0 ? state.externalConnect : undefined;
      const { scheduler, lock } = model;
      const workload = scheduler
        ? {
            workload: 'scheduler',
            path: scheduler.root,
            strategy: scheduler.strategy,
            statusTtl: scheduler.statusTtlMs,
          }
        : lock
          ? { workload: 'lock', recipe: model.recipe, path: model.path, hold: lock.holdMs, think: lock.thinkMs }
          : undefined;
      // A lock holder joins the holders' fencing, whatever it is (the resource has one mode per lock).
      const fencing = lock ? { fencing: lock.fencing ? 'on' : 'off' } : {};
      const req = requireContenderSpec({
        count: 1,
        ...(workload ?? {
          recipe: model.recipe,
          path: model.path,
          ...(model.priority === undefined ? {} : { priorities: [model.priority] }),
          ...(model.site === undefined ? {} : { sites: [model.site] }),
          ...(model.policy === undefined ? {} : { policy: model.policy }),
          ...(model.preempt === false ? { preempt: false } : {}),
        }),
        ...fencing,
        sessionTimeout: model.sessionTimeoutMs,
        connect,
      });
      const r = await spawnContenders(paths, req);
      const what = scheduler ? `a scheduler worker at ${scheduler.root}` : `${model.recipe} on ${model.path}`;
      return `spawned ${r.spawned.map((c) => `${c.id} (pid ${c.pid})`).join(', ')} running ${what}`;
    },
  };
}

const NO_LAB = (): Promise<string> =>
  Promise.reject(
    new UsageError(
      "keys act on a lab's contenders; this view follows an ensemble given by --connect",
      'inspect with --lab DIR to kill, pause, isolate or spawn',
    ),
  );

/** With --connect and no lab there is nothing to kill or spawn: every key says so. */
export const noLabActions: InspectActions = { kill: NO_LAB, togglePause: NO_LAB, toggleIsolate: NO_LAB, spawn: NO_LAB };
