import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** The package root: src/ (or dist/) sits one level below it. */
export const PACKAGE_ROOT = fileURLToPath(new URL('..', import.meta.url));
export const TEMPLATES_DIR = join(PACKAGE_ROOT, 'templates');
/** The example programs zklab ships (an HA agent and its probe, a contender of one's own): `{programs}`. */
export const PROGRAMS_DIR = join(TEMPLATES_DIR, 'programs');

export function readTemplate(name: string): string {
  return readFileSync(join(TEMPLATES_DIR, name), 'utf8');
}

/** Replaces every {{key}}; a placeholder without a value, or a value without a placeholder, is a bug. */
export function fillTemplate(template: string, values: Readonly<Record<string, string | number>>): string {
  const used = new Set<string>();
  const out = template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => {
    const v = values[key];
    if (v === undefined) throw new Error(`template placeholder {{${key}}} has no value`);
    used.add(key);
    return String(v);
  });
  const unused = Object.keys(values).filter((k) => !used.has(k));
  if (unused.length > 0) throw new Error(`template has no placeholder for ${unused.join(', ')}`);
  return out;
}
