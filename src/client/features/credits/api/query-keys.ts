import type { CostEstimateRequest } from '../../../../shared/money/pricing';

// The credits feature's own query keys. The balance, the user status and the generation status are
// also refreshed by other features (a generation, a purchase), so their keys are in lib/query-keys.ts.

/** POST /api/credits/estimate, cached per set of generator inputs. */
export function costEstimateQueryKey(request: CostEstimateRequest) {
  return ['/api/credits/estimate', request] as const;
}
