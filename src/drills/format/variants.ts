import type { Drill } from './drill.js';

/**
 * The runs a drill asks for: itself, or one drill per variant (its contenders and expected failures swapped in),
 * named `drill:variant` so each report says which it is.
 */
export function expandVariants(drill: Drill): Drill[] {
  if (!drill.variants) return [drill];
  const { variants, ...base } = drill;
  return variants.map((v) => ({
    ...base,
    name: `${drill.name}:${v.name}`,
    contenders: v.contenders,
    expectFailure: v.expectFailure,
  }));
}
