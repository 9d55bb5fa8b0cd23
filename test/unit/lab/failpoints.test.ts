import { existsSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { armFailpoint, clearFailpoint, listFailpoints, takeFailpoint } from '../../../src/lab/failpoints.js';
import { LabPaths } from '../../../src/lab/paths.js';
import { tempDir } from '../../helpers/paths.js';
import { failpointsOf } from '../../../src/recipes/failpoint-names.js';

describe('failpoints', () => {
  it('fire once, at their own point only, from a file private to the lab', () => {
    const paths = new LabPaths(tempDir());
    armFailpoint(paths, 'c2', { at: 'after-assign', action: 'crash' });
    expect(statSync(paths.contenderFailpoint('c2')).mode & 0o777).toBe(0o600);
    expect(takeFailpoint(paths, 'c2', 'before-assign')).toBeNull();
    expect(takeFailpoint(paths, 'c1', 'after-assign')).toBeNull();
    expect([...listFailpoints(paths).keys()]).toEqual(['c2']);
    expect(takeFailpoint(paths, 'c2', 'after-assign')).toMatchObject({ at: 'after-assign', action: 'crash' });
    expect(takeFailpoint(paths, 'c2', 'after-assign')).toBeNull();
    expect(existsSync(paths.contenderFailpoint('c2'))).toBe(false);
  });

  it('takes nothing but a contender id as a file name', () => {
    const paths = new LabPaths(tempDir());
    expect(() => armFailpoint(paths, '../lab', { at: 'after-assign', action: 'crash' })).toThrow(/not a contender id/);
    expect(() => clearFailpoint(paths, '../lab')).toThrow(/not a contender id/);
    expect(takeFailpoint(paths, '../lab', 'after-assign')).toBeNull();
  });

  it('a second arming replaces the first, and clear disarms', () => {
    const paths = new LabPaths(tempDir());
    armFailpoint(paths, 'c1', { at: 'before-status', action: 'hang' });
    armFailpoint(paths, 'c1', { at: 'after-assign', action: 'pause' });
    expect(listFailpoints(paths).get('c1')).toMatchObject({ at: 'after-assign', action: 'pause' });
    clearFailpoint(paths, 'c1');
    expect(listFailpoints(paths).size).toBe(0);
  });

  it('exist where a recipe has them: the scheduler, the sequential elections, no program of its own', () => {
    expect(failpointsOf('predecessor', 'scheduler')).toContain('after-status-before-unassign');
    expect(failpointsOf('herd', undefined)).toEqual(['after-create-before-watch']);
    expect(failpointsOf('exec', undefined)).toEqual([]);
    expect(failpointsOf('priority', undefined)).toEqual([]);
  });
});
