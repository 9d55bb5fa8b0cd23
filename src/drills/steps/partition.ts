import { z } from 'zod';
import { stepModes } from '../../faults/kinds/registry.js';
import type { ModeStep } from '../../faults/kinds/step.js';
import { strict } from '../core/zod-helpers.js';
import { serverOfStep, stepBuild, stepRun } from './fault-kinds.js';
import type { BuildContext, StepBase, StepKind } from './kind.js';

/**
 * Cuts links, in one of the modes the fault kinds add to it (src/faults/kinds/: `stepModes('partition')`): an
 * isolation, a split, a one-way cut. The step holds the mode's name and what the mode built from its value.
 */
export interface PartitionStep extends StepBase {
  readonly kind: 'partition';
  readonly partition: { readonly mode: string };
}

const MODES = stepModes('partition');
const modeNamed = (field: string): ModeStep => MODES.find((m) => m.mode === field)!;

const fields = Object.fromEntries(MODES.map((m) => [m.mode, m.value(z).optional()]));
const schema = strict(fields);

/** `a, b or c`, and `a, b, or c` for the examples (two: `a or b`). */
const listed = (words: readonly string[], last: string): string =>
  words.length < 3 ? words.join(' or ') : `${words.slice(0, -1).join(', ')}${last}${words.at(-1)}`;
const NAMES = listed(
  MODES.map((m) => m.mode),
  ' or ',
);
const EXAMPLES = listed(
  MODES.map((m) => m.example),
  ', or ',
);

/** What a mode's build checks, at fields inside its own value. */
const inMode = (ctx: BuildContext, field: string): BuildContext => ({
  ...ctx,
  target: (name, allowed, at = []) => ctx.target(name, allowed, [field, ...at]),
  problem: (message, at = []) => ctx.problem(message, [field, ...at]),
});

export const partition: StepKind<PartitionStep, typeof schema> = {
  kind: 'partition',
  summary: `Cut links, in exactly one mode: ${MODES.map((m) => `${m.mode}, ${m.summary}`).join('; ')}; heal lifts it`,
  examples: MODES.map((m) => `partition: { ${m.example} }`),
  schema,
  fields: Object.keys(fields),
  fault: true,
  build(v, ctx) {
    const values = v as Record<string, unknown>;
    const given = MODES.filter((m) => values[m.mode] !== undefined);
    if (given.length !== 1) {
      ctx.problem(`needs exactly one of ${NAMES} (write ${EXAMPLES})`);
      return null;
    }
    const mode = given[0]!;
    const built = mode.build(values[mode.mode], stepBuild(inMode(ctx, mode.mode)));
    return built === null ? null : { kind: 'partition', partition: { ...built, mode: mode.mode } };
  },
  describe: ({ partition: p }) => modeNamed(p.mode).describe(p),
  server: ({ partition: p }) => serverOfStep(modeNamed(p.mode), p),
  run: (ctx, { partition: p }) => modeNamed(p.mode).run(stepRun(ctx), p),
};
