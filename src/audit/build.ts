import type { HostsRequest } from '../hosts/hosts-file.js';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { ContenderSpecInput } from '../contenders/fields.js';
import type { Drill } from '../drills/format/drill.js';
import { parseDrill } from '../drills/format/schema.js';
import type { NetMode } from '../lab/node/net.js';
import type { Scenario, ScenarioContext, StepDoc } from './scenarios.js';
import type { Slo } from './slo.js';

/** The lab a scenario runs on. */
export interface AuditLab {
  readonly servers: number;
  readonly net: NetMode;
  /** The scenarios' labs on hosts reached over SSH (`audit --hosts`). */
  readonly hosts?: HostsRequest;
}

/** The steps that come before every scenario's fault: the steady state (the members joined as the run spawned them). */
const steady = (c: ScenarioContext): StepDoc[] => [
  { wait: { leader: true, timeout: `${c.failoverMs + 10_000}ms` } },
  { sleep: '1s' },
];

/** And after it: one leader again within the bound. */
const recovered = (c: ScenarioContext): StepDoc[] => [
  { wait: { leader: true, timeout: `${c.failoverMs + 5000}ms` } },
  { sleep: '1s' },
];

/** The drill file a scenario is, for the user's contenders: what `zklab drill run` would read. */
export function scenarioDrillText(
  s: Scenario,
  contenders: ContenderSpecInput,
  lab: AuditLab,
  c: ScenarioContext,
  slo: Slo,
): string {
  const checks: unknown[] = ['singleLeader'];
  if (s.expected === 'failover') checks.push({ failoverTime: { max: `${slo.failoverMs}ms` } });
  if (s.name === 'herd') checks.push(slo.herd === undefined ? 'herdSize' : { herdSize: { max: slo.herd } });
  const doc = {
    name: `audit-${s.name}`,
    description: `zklab audit: ${s.asks}`,
    ensemble: { servers: lab.servers, net: s.net ?? lab.net },
    contenders: { ...contenders, count: c.members },
    steps: [...steady(c), ...s.steps(c), ...recovered(c)],
    checks,
  };
  return stringify(doc, { lineWidth: 0 });
}

/** The scenario's drill, read as any drill file is (so a spec the drill reader refuses is refused here too). */
export function scenarioDrill(text: string, scenario: string, dir: string): Drill {
  return parseDrill(text, join(dir, `audit-${scenario}.yaml`));
}
