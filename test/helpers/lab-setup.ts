import { installNodeStart } from '../../src/faults/kinds/registry.js';

// The lab files start labs in their own process (runDrill, ensembleUp) as the CLI's commands do in theirs: their
// nodes are prepared the same way, ready for clock faults (src/lab/node-start.ts).
installNodeStart();
