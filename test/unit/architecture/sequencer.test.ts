import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../../src/templates.js';
import { LONGEST_FIRST } from '../../helpers/sequencer.js';

describe('the test sequencer', () => {
  it('names lab files that exist (a renamed file would start late again, unseen)', () => {
    for (const f of LONGEST_FIRST) expect(existsSync(join(PACKAGE_ROOT, f)), f).toBe(true);
  });
});
