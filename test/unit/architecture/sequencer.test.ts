import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../../src/templates.js';
import { LAB_FILE_SECONDS, LAST } from '../../helpers/sequencer.js';

const labFiles = (dir: string) =>
  readdirSync(join(PACKAGE_ROOT, dir))
    .filter((f) => f.endsWith('.test.ts') || f.endsWith('.test.tsx'))
    .map((f) => `${dir}/${f}`);

describe('the test sequencer', () => {
  it('knows how long every lab file takes, and nothing else (a file left out would start first, one renamed late)', () => {
    const files = [...labFiles('test/integration'), ...labFiles('test/e2e')].filter((f) => f !== LAST).sort();
    expect([...LAB_FILE_SECONDS.keys()].sort()).toEqual(files);
  });

  it('starts the race reproductions last, and knows them', () => {
    expect(labFiles('test/integration')).toContain(LAST);
    expect(LAB_FILE_SECONDS.has(LAST)).toBe(false);
  });
});
