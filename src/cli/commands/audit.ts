import type { Argv, CommandModule } from 'yargs';
import type { CommandContext, GlobalArgs } from '../context.js';
import { withContenderOptions } from '../spawn-spec.js';
import type { AuditArgs } from './audit-run.js';
import { QUICK, SCENARIO_NAMES } from '../../audit/scenarios.js';
import { HOSTS_OPTIONS } from '../hosts-option.js';

const BATTERY = SCENARIO_NAMES.join(', ');

export function auditCommand(ctx: CommandContext): CommandModule<GlobalArgs, AuditArgs> {
  return {
    command: 'audit',
    describe: "Grade your program under ZooKeeper's failures: a battery of drills on fresh labs, and a report card",
    builder: (y: Argv<GlobalArgs>) =>
      withContenderOptions(
        y,
        {
          members: { type: 'string', describe: 'how many members of your program run (default 3)' },
          servers: { type: 'string', describe: 'how many ZooKeeper servers (default 3)' },
          net: {
            type: 'string',
            describe:
              "proxy (default: link proxies) or ns (the node network; needs root): the scenarios' network where " +
              'they can run on either; those that need the node network use it',
          },
          ...HOSTS_OPTIONS,
          scenarios: {
            type: 'string',
            describe: `all (default), quick (${QUICK.join(', ')}), or names: ${BATTERY}`,
          },
          slo: {
            type: 'string',
            describe:
              'bounds to grade by, e.g. failover=10s,churn=0,herd=1 (default: failover within 3 session ' +
              'timeouts; churn and herd reported, graded only when bounded)',
          },
          report: { type: 'string', describe: 'write the card and every scenario timeline to FILE.html' },
          junit: { type: 'string', describe: 'write JUnit XML to FILE, a test case per scenario' },
          drills: {
            type: 'string',
            describe:
              "write each scenario's drill file to DIR (to replay with `drill run`), and its run as JSON beside it",
          },
          seed: { type: 'string', describe: "seeds the scenarios' randomness (scenario k uses seed + k)" },
          json: { type: 'boolean', default: false, describe: 'print the card as JSON' },
        },
        ['count', 'connect', 'via', 'workload', 'strategy', 'statusTtl', 'hold', 'think', 'fencing'],
      ).epilog(
        'Exit codes: 0 every scenario passed or was skipped; 1 one failed; 2 bad input; 3 some could not be ' +
          'judged (none failed); 4 zklab itself failed in a scenario (none failed). Without --path, the audit finds ' +
          'where your members keep their election and prints it.',
      ) as Argv<AuditArgs>,
    handler: async (a) => (await import('./audit-run.js')).auditHandler(ctx, a),
  };
}
