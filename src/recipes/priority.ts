import { ElectionRecipe } from './base.js';
import type { RecipeIO, RecipeOptions } from './types.js';

/** Placeholder until the recipe lands. */
export class PriorityElection extends ElectionRecipe {
  constructor(opts: RecipeOptions, io: RecipeIO, private readonly memberData: string) {
    super(opts, io);
  }
  protected async join(): Promise<void> {
    throw new Error(`the priority recipe is not implemented yet (${this.memberData.length})`);
  }
  protected async evaluate(): Promise<void> {}
}
