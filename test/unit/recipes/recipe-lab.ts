import type { ContenderEventName } from '../../../src/lab/events.js';
import { applyRead, applyWrite, emptyResource, type ResourceState } from '../../../src/lab/fenced-resource.js';
import type { Recipe, RecipeIO, RecipeOptions, ResourcePort } from '../../../src/recipes/types.js';
import { FakeEnsemble, type FakeSession } from './fake-zk.js';

export interface Logged {
  readonly id: string;
  readonly event: ContenderEventName;
  readonly fields: Readonly<Record<string, unknown>>;
}

type MakeRecipe = (opts: RecipeOptions, io: RecipeIO, memberData: string) => Recipe;

/** One call a contender made on the lab's protected resource, and what the resource decided. */
export interface ResourceDecision {
  readonly op: 'read' | 'write';
  /** The contender's id. */
  readonly holder: string;
  readonly token: number;
  /** read: the value returned; write: the value written (stored only if accepted). */
  readonly value: number;
  /** A read is always answered (it may raise the highest token seen); a write is refused when stale under fencing. */
  readonly accepted: boolean;
}

export interface RecipeLabOptions {
  /** Whether the lab's resource refuses stale tokens (default: the base's `lock.fencing`, else true). */
  readonly fencing?: boolean;
}

/** Contenders running one recipe in-process against a FakeEnsemble, with every event they log. */
export class RecipeLab {
  readonly zk = new FakeEnsemble();
  readonly log: Logged[] = [];
  private readonly sessions = new Map<string, FakeSession[]>();
  private readonly recipes = new Map<string, Recipe>();
  private readonly killed = new Set<string>();
  /** The protected resource the lab's contenders share (the lock workload), as src/lab/fenced-resource.ts decides. */
  resourceState: ResourceState;
  /** Every read and write on the resource, in the order the resource decided them. */
  readonly decisions: ResourceDecision[] = [];

  constructor(
    private readonly make: MakeRecipe,
    private readonly base: Omit<RecipeOptions, 'id'>,
    options: RecipeLabOptions = {},
  ) {
    this.resourceState = emptyResource(base.path, options.fencing ?? base.lock?.fencing ?? true);
  }

  /** The writes the resource decided, in order. */
  writes(): ResourceDecision[] {
    return this.decisions.filter((d) => d.op === 'write');
  }

  /** The resource as contender `holder` reaches it: each call is decided when it arrives (a microtask later). */
  private resourceFor(holder: string): ResourcePort {
    return {
      read: async (token) => {
        await Promise.resolve();
        this.resourceState = applyRead(this.resourceState, token);
        const value = this.resourceState.value;
        this.decisions.push({ op: 'read', holder, token, value, accepted: true });
        return { token: this.resourceState.token, value };
      },
      write: async (token, value) => {
        await Promise.resolve();
        const out = applyWrite(this.resourceState, { holder, token, value });
        this.resourceState = out.state;
        this.decisions.push({ op: 'write', holder, token, value, accepted: out.accepted });
        return { accepted: out.accepted, lastToken: out.lastToken, previousValue: out.previousValue };
      },
    };
  }

  /** Starts a contender; `onSession` may arm faults on each new session before the recipe uses it. */
  async start(
    id: string,
    overrides: Partial<RecipeOptions> = {},
    onSession?: (s: FakeSession) => void,
  ): Promise<Recipe> {
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
      resource: () => this.resourceFor(id),
    };
    const memberData = JSON.stringify({
      id,
      pid: 1000 + this.recipes.size,
      recipe: opts.recipe,
      priority: opts.priority,
      site: opts.site,
    });
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
    return this.events(id)
      .filter((e) => keep.includes(e.event))
      .map((e) => e.event);
  }

  /** Live contenders whose latest leadership event says they lead now. */
  leaders(): string[] {
    const out: string[] = [];
    for (const id of this.recipes.keys()) {
      if (this.killed.has(id)) continue;
      const last = this.events(id)
        .filter((e) => ['leader', 'resigned', 'paused', 'expired', 'stopped'].includes(e.event))
        .at(-1);
      if (last?.event === 'leader') out.push(id);
    }
    return out;
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.recipes.values()].map((r) => r.stop()));
  }
}
