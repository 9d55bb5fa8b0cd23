import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The kernel's own word on whether a process is frozen, read here without zklab's code: stopped by a signal (state T
 * in /proc/<pid>/stat), or frozen with its control group (the cgroup named in /proc/<pid>/cgroup says `frozen 1` in
 * cgroup.events on v2, FROZEN in freezer.state on v1). A frozen task's own state reads S or D.
 */
export function isFrozen(pid: number): boolean {
  const read = (file: string): string => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return '';
    }
  };
  const stat = read(`/proc/${pid}/stat`);
  if (stat === '') return false;
  const state = stat.slice(stat.lastIndexOf(')') + 2)[0];
  if (state === 'T' || state === 't') return true;
  const mounts = read('/proc/self/mountinfo')
    .split('\n')
    .map((l) => l.split(' - '))
    .filter((p) => p.length === 2)
    .map(([left, right]) => ({ point: left!.split(' ')[4]!, type: right!.split(' ')[0]!, opts: right!.split(' ')[2] }));
  const v2 = mounts.find((m) => m.type === 'cgroup2')?.point;
  const freezer = mounts.find((m) => m.type === 'cgroup' && m.opts?.split(',').includes('freezer'))?.point;
  for (const line of read(`/proc/${pid}/cgroup`).split('\n')) {
    const [id, controllers, path] = line.split(':');
    if (!path || path === '/') continue;
    if (id === '0' && v2 && /^frozen 1$/m.test(read(join(v2, path, 'cgroup.events')))) return true;
    if (
      freezer &&
      controllers?.split(',').includes('freezer') &&
      read(join(freezer, path, 'freezer.state')).trim() === 'FROZEN'
    )
      return true;
  }
  return false;
}
