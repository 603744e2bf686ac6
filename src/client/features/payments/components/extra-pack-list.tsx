import { CalendarDays, Zap } from 'lucide-react';

import { EXTRA_PACKS, type ExtraPackName } from '../../../../shared/money/plans';
import { formatPrice } from '../../../../shared/money/display';
import { EXTRA_PACK_NAMES, formatUsd } from '../../../../shared/money/payments';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '../../../components/ui/card';

const PACK_TITLES: Record<ExtraPackName, string> = { small: 'Small Pack', medium: 'Medium Pack', large: 'Large Pack' };

interface ExtraPackListProps {
  onBuy: (pack: ExtraPackName) => void;
  /** The pack whose payment is being set up. */
  buying: ExtraPackName | null;
  disabled: boolean;
}

/** Extra packs (docs/product-rules.md): the three extra-generation packs, each valid for 30 days. */
export function ExtraPackList({ onBuy, buying, disabled }: ExtraPackListProps) {
  return (
    <section aria-labelledby="packs-heading" className="grid content-start gap-4">
      <div className="grid gap-1">
        <h2 id="packs-heading" className="flex items-center gap-2 text-lg font-semibold">
          <Zap aria-hidden="true" className="size-5 text-fuchsia-600 dark:text-fuchsia-400" /> Extra Generation Packs
        </h2>
        <p className="text-sm text-muted-foreground">
          Used once your daily generations are gone, with or without a subscription.
        </p>
      </div>
      <ul className="grid gap-4 sm:grid-cols-3">
        {EXTRA_PACK_NAMES.map((pack) => {
          const { generations, priceCents } = EXTRA_PACKS[pack];
          return (
            <li key={pack} className="flex">
              <Card className="flex w-full flex-col">
                <CardHeader className="pb-3">
                  <CardTitle id={`pack-${pack}-title`} className="text-base">
                    {PACK_TITLES[pack]}
                  </CardTitle>
                  <p className="text-3xl font-extrabold tracking-tight">{formatPrice(priceCents)}</p>
                </CardHeader>
                <CardContent className="grid flex-1 content-start gap-1.5 text-sm">
                  <p className="font-semibold">{generations} extra generations</p>
                  <p className="text-muted-foreground">
                    {formatUsd(Math.round(priceCents / generations))} per generation
                  </p>
                  <p className="flex items-center gap-1.5 text-xs text-muted-foreground">
                    <CalendarDays aria-hidden="true" className="size-3.5" /> Valid for 30 days
                  </p>
                </CardContent>
                <CardFooter>
                  <Button
                    variant="outline"
                    className="w-full"
                    onClick={() => onBuy(pack)}
                    disabled={disabled || buying !== null}
                    aria-describedby={`pack-${pack}-title`}
                  >
                    {buying === pack ? 'Initializing...' : 'Purchase Now'}
                  </Button>
                </CardFooter>
              </Card>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
