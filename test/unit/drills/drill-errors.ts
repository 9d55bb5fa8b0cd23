import { DrillFileError, parseDrill } from '../../../src/drills/format/schema.js';

/** The error lines for a drill that must not parse; fails the test if it parses. */
export function drillErrors(text: string): string[] {
  try {
    parseDrill(text, 'd.yaml');
  } catch (err) {
    if (err instanceof DrillFileError) return err.message.split('\n');
    throw err;
  }
  throw new Error('the drill parsed');
}
