/** `node dist/faults/kinds/clock/library-build.js`: builds the clock shim ahead of the first node (bin/setup runs it). */
import { shimLibrary } from './library.js';

const lib = shimLibrary();
console.log('path' in lib ? `clock shim: ${lib.path}` : `clock shim: not built (${lib.why}); clock faults are refused`);
