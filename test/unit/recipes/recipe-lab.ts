import type { ContenderEventName } from '../../../src/lab/events.js';
import type { Recipe, RecipeIO, RecipeOptions } from '../../../src/recipes/types.js';
import { FakeEnsemble, type FakeSession } from './fake-zk.js';

export interface Logged {
  readonly id: string;
  readonly event: ContenderEventName;
  readonly fields: Readonly<Record<string, unknown>>;
}

type MakeRecipe = (opts: RecipeOptions, io: RecipeIO, memberData: string) => Recipe;

/** Contenders running one recipe in-process against a FakeEnsemble, with every event they log. */
export class RecipeLab {
  readonly zk = new FakeEnsemble();
  readonly log: Logged[] = [];
  private readonly sessions = new Map<string, FakeSession[]>();
  private readonly recipes = new Map<string, Recipe>();
  private readonly killed = new Set<string>();

  constructor(
    private readonly make: MakeRecipe,
    private readonly base: Omit<RecipeOptions, 'id'>,
  ) {}

  /** Starts a contender; `onSession` may arm faults on each new session before the recipe uses it. */
  async start(id: string, overrides: Partial<RecipeOptions> = {}, onSession?: (s: FakeSession) => void): Promise<Recipe> {
    const opts: RecipeOptions = { ...this.base, ...overrides, id };
    const io: RecipeIO = {
      connect: async () => {
        const s = await this.zk.connect();
        this.sessions.set(id, [...(this.sessions.get(id) ?? []), s]);
        onSession?.(s);
        return s;
      },
      log: (event, ...fields) => this.log.push({ id, event, fields: fields[0] ?? {} }),
      failpoint: async () => undefined,
      openMulti: () => {
        throw new Error('the scripted ZooKeeper has no multi: the scheduler is tested on real servers');
      },
      resource: () => {
        throw new Error('the scripted lab has no resource: the lock workload is tested on real servers');
      },
    };
    const memberData = JSON.stringify({ id, pid: 1000 + this.recipes.size, recipe: opts.recipe, priority: opts.priority, site: opts.site });
    const recipe = this.make(opts, io, memberData);
    this.recipes.set(id, recipe);
    await recipe.start();
    return recipe;
  }

  session(id: string): FakeSession {
    const all = this.sessions.get(id);
    if (!all?.length) throw new Error(`no session for ${id}`);
    return all[all.length - 1]!;
  }

  recipe(id: string): Recipe {
    const r = this.recipes.get(id);
    if (!r) throw new Error(`no contender ${id}`);
    return r;
  }

  /** SIGKILL and session timeout in one: ephemerals go, the contender hears nothing more. */
  kill(id: string): void {
    this.killed.add(id);
    this.zk.kill(this.session(id));
  }

  events(id?: string, event?: ContenderEventName): Logged[] {
    return this.log.filter((e) => (id === undefined || e.id === id) && (event === undefined || e.event === event));
  }

  /** The event names of one contender, in order, keeping only those listed. */
  sequence(id: string, keep: readonly ContenderEventName[]): string[] {
    return this.events(id).filter((e) => keep.includes(e.event)).map((e) => e.event);
  }

  /** Live contenders whose latest leadership event says they lead now. */
  leaders(): string[] {
    const out: string[] = [];
    for (const id of this.recipes.keys()) {
      if (this.killed.has(id)) continue;
      const last = this.events(id).filter((e) => ['leader', 'resigned', 'paused', 'expired', 'stopped'].includes(e.event)).at(-1);
      if (last?.event === 'leader') out.push(id);
    }
    return out;
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.recipes.values()].map((r) => r.stop()));
  }
}
