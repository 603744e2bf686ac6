import { Check } from 'lucide-react';

import { CREDIT_PACKAGES } from '../../../../shared/money/plans';
import { formatPrice } from '../../../../shared/money/display';
import { Badge } from '../../../components/ui/badge';
import { cn } from '../../../lib/utils';
import { formatCreditTitle } from '../../../../shared/money/credits';

interface CreditPackagePickerProps {
  selected: number | null;
  onSelect: (credits: number) => void;
  /** A server that takes no payments: the packages are information only, nothing to select. */
  informationOnly?: boolean;
  /** False on a server that takes no payments: no dollar price where nothing can be bought. */
  withPrices?: boolean;
}

/** Prices (docs/product-rules.md): the four packages at $1 a credit, 30 marked most popular. */
export function CreditPackagePicker({
  selected,
  onSelect,
  informationOnly = false,
  withPrices = true,
}: CreditPackagePickerProps) {
  if (informationOnly) {
    return (
      <ul aria-label="Credit packages" className="grid grid-cols-2 gap-3 sm:gap-4">
        {CREDIT_PACKAGES.map(({ credits, priceCents, popular }) => (
          <li
            key={credits}
            className="relative flex flex-col items-start gap-1 rounded-xl border border-border bg-card p-4 pt-5 shadow-sm sm:p-5 sm:pt-6"
          >
            {popular ? (
              <Badge tone="brand" className="absolute -top-2.5 left-4 bg-card">
                Most Popular
              </Badge>
            ) : null}
            <span className="text-xl font-bold tracking-tight sm:text-2xl">{formatCreditTitle(credits)}</span>
            {withPrices ? (
              <span className="text-lg font-semibold text-muted-foreground">{formatPrice(priceCents)}</span>
            ) : null}
            <span className="text-xs text-muted-foreground">
              About {credits} standard {credits === 1 ? 'video' : 'videos'}
            </span>
          </li>
        ))}
      </ul>
    );
  }
  return (
    <ul aria-label="Credit packages" className="grid grid-cols-2 gap-3 sm:gap-4">
      {CREDIT_PACKAGES.map(({ credits, priceCents, popular }) => {
        const isSelected = selected === credits;
        return (
          <li key={credits} className="flex">
            <button
              type="button"
              aria-pressed={isSelected}
              onClick={() => onSelect(credits)}
              className={cn(
                'relative flex w-full flex-col items-start gap-1 rounded-xl border bg-card p-4 pt-5 text-left shadow-sm transition-colors outline-none focus-visible:ring-2 focus-visible:ring-ring sm:p-5 sm:pt-6',
                isSelected
                  ? 'border-violet-500 ring-2 ring-violet-500/30'
                  : 'border-border hover:border-violet-500/50 hover:bg-muted/40',
              )}
            >
              {popular ? (
                <Badge tone="brand" className="absolute -top-2.5 left-4 bg-card">
                  Most Popular
                </Badge>
              ) : null}
              {isSelected ? (
                <span className="absolute top-3 right-3 flex size-5 items-center justify-center rounded-full bg-violet-600 text-white">
                  <Check aria-hidden="true" className="size-3.5" />
                </span>
              ) : null}
              <span className="text-xl font-bold tracking-tight sm:text-2xl">{formatCreditTitle(credits)}</span>
              <span className="text-lg font-semibold text-violet-700 dark:text-violet-300">
                {formatPrice(priceCents)}
              </span>
              <span className="text-xs text-muted-foreground">
                About {credits} standard {credits === 1 ? 'video' : 'videos'}
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
