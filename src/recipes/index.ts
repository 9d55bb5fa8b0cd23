import { HerdElection } from './herd.js';
import { HerdLock, PredecessorLock } from './lock.js';
import { PredecessorElection } from './predecessor.js';
import { PriorityElection } from './priority.js';
import { SchedulerWorker } from './scheduler.js';
import { SingleFileElection } from './single-file.js';
import type { Recipe, RecipeIO, RecipeOptions } from './types.js';

/** memberData is what the contender stores in its znode(s): {id, pid, recipe, priority, site} as JSON. */
export function createRecipe(opts: RecipeOptions, io: RecipeIO, memberData: string): Recipe {
  switch (opts.recipe) {
    case 'predecessor':
      if (opts.lock) return new PredecessorLock(opts, io, memberData);
      return opts.scheduler ? new SchedulerWorker(opts, io, memberData) : new PredecessorElection(opts, io, memberData);
    case 'herd':
      return opts.lock ? new HerdLock(opts, io, memberData) : new HerdElection(opts, io, memberData);
    case 'single-file':
      return new SingleFileElection(opts, io, memberData);
    case 'priority':
      return new PriorityElection(opts, io, memberData);
  }
}
