import { z } from 'zod';
import { notFound } from '../lib/app-error';
import type { ErrorAnswer } from './openapi-words';

// A record's id in a route's path. Ids are uuids: what is not one cannot be anyone's record, and
// gets the same 404 as someone else's (so a probe learns nothing, and the database is not asked).

/** The `:id` of a route's path (bounded: the uuid check comes after). */
export const idParams = z.object({ id: z.string().max(100) });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The id when it is a uuid; otherwise the route's own not-found answer. */
export function uuidOr404(id: string, notFoundAnswer: Pick<ErrorAnswer, 'code' | 'message'>): string {
  if (!UUID.test(id)) throw notFound(notFoundAnswer.message, notFoundAnswer.code);
  return id;
}
