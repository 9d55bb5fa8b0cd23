import type {
  ContenderEventFields,
  ContenderEventHead,
  ContenderEventName,
  ContenderEventOf,
  LabEventFields,
  LabEventName,
  LabEventOf,
} from '../../src/lab/events.js';

/**
 * A contender event for a fixture. The compiler checks the event's name and the names and types of the fields
 * given; fields a test does not care about may be left out. The head defaults to what a recorded log has.
 */
export function contenderEvent<E extends ContenderEventName>(
  t: number,
  id: string,
  event: E,
  fields: Partial<ContenderEventFields[E]> & Partial<ContenderEventHead> = {},
): ContenderEventOf<E> {
  return {
    t,
    id,
    pid: Number(id.slice(1)) || 1,
    session: `s-${id}`,
    znode: `/election/${id}`,
    event,
    ...fields,
  } as ContenderEventOf<E>;
}

/** A lab event for a fixture, with every field its writer writes. */
export function labEvent<E extends LabEventName>(t: number, event: E, fields: LabEventFields[E]): LabEventOf<E> {
  return { t, source: 'lab', event, ...fields } as LabEventOf<E>;
}
