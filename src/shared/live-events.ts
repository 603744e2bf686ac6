import { z } from 'zod';
import { userStatusSchema } from './auth';
import { generationRecordSchema } from './generations';
import { generationStatusSchema } from './money/plans';

/**
 * GET /api/events (decision 011): one Server-Sent Events stream per signed-in tab. Each event's
 * data is the current state of what changed, never a difference, so a repeated or late event is
 * harmless. Event names and their data:
 * - 'snapshot': everything the live pages show (on a new stream, or when Last-Event-ID is too old);
 * - 'generation': one generation as GET /api/video-generation lists it;
 * - 'generation-deleted': a generation that is gone;
 * - 'balance': credits, unlimited flag and plan, with daily and extra generations (what
 *   GET /api/user/balance answers).
 */
export const LIVE_EVENTS_URL = '/api/events';

export const liveBalanceSchema = z.object({ status: userStatusSchema, generationStatus: generationStatusSchema });
export type LiveBalance = z.infer<typeof liveBalanceSchema>;

export const liveSnapshotSchema = z.object({
  generations: z.array(generationRecordSchema),
  balance: liveBalanceSchema,
});
export type LiveSnapshot = z.infer<typeof liveSnapshotSchema>;

export const liveGenerationDeletedSchema = z.object({ id: z.string() });

export const LIVE_EVENT_NAMES = ['snapshot', 'generation', 'generation-deleted', 'balance'] as const;
export type LiveEventName = (typeof LIVE_EVENT_NAMES)[number];

/** At most this many open streams per user (one per tab; more are refused and that tab polls). */
export const MAX_STREAMS_PER_USER = 5;
/**
 * At most this many open streams per client address, across its users: an office behind one NAT
 * with a few people each on a couple of tabs stays under it; one address farming accounts for
 * streams does not get thousands. Refused tabs poll instead, as past the per-user cap.
 */
export const MAX_STREAMS_PER_ADDRESS = 20;
