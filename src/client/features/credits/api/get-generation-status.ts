import type { LiveBalance } from '../../../../shared/live-events';
import type { GenerationStatus } from '../../../../shared/money/plans';
import { useBalance } from './get-balance';

const generationStatusOf = (balance: LiveBalance): GenerationStatus => balance.generationStatus;

/** Today's daily generations, extra generations and the subscription: a part of the one balance query. */
export function useGenerationStatus({ enabled }: { enabled: boolean }) {
  return useBalance({ enabled }, generationStatusOf);
}
