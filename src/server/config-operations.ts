import { z } from 'zod';
import { flag, optionalText } from './config-fields';

/**
 * The operator's part of the environment (issue 31): the metrics endpoint's token, the refund of
 * failed generations and the daily spend cap. config.ts spreads `operationsEnv` into its schema and calls readOperationsConfig;
 * nothing here reads process.env.
 */
export const operationsEnv = {
  /** GET /metrics answers (Prometheus text) only with this bearer token; without it /metrics is a 404. */
  METRICS_TOKEN: optionalText.refine(
    (v) => v === undefined || (v.length >= 16 && /^[\x21-\x7e]+$/.test(v)),
    'must be at least 16 printable characters without spaces',
  ),
  /** Whether a generation that fails for a reason that is not the user's gives its charge back (off: the spec's "no refund"). */
  REFUND_FAILED_GENERATIONS: flag('false'),
  /** The most credits anyone may spend on generations in one UTC day, unless their own cap says otherwise; unset or 0: no cap. */
  DAILY_SPEND_CAP_CREDITS: z
    .string()
    .optional()
    .transform((v) => v?.trim() || '0')
    .pipe(
      z
        .string()
        .regex(/^\d{1,8}(\.\d{1,2})?$/, 'must be a number of credits with at most two decimals, such as 20 or 12.5')
        .transform(Number),
    ),
};

type OperationsEnv = z.output<z.ZodObject<typeof operationsEnv>>;

export interface OperationsConfig {
  /** The bearer token of GET /metrics; undefined turns the endpoint off (404). */
  metricsToken: string | undefined;
  /** REFUND_FAILED_GENERATIONS: refund system failures (provider errors, timeouts, crashes, a missing engine). */
  refundFailedGenerations: boolean;
  /** DAILY_SPEND_CAP_CREDITS in hundredths; null: no cap (a user's own cap on the admin page still applies). */
  dailySpendCapHundredths: number | null;
}

export function readOperationsConfig(env: OperationsEnv): OperationsConfig {
  const cap = Math.round(env.DAILY_SPEND_CAP_CREDITS * 100);
  return {
    metricsToken: env.METRICS_TOKEN,
    refundFailedGenerations: env.REFUND_FAILED_GENERATIONS,
    dailySpendCapHundredths: cap > 0 ? cap : null,
  };
}
