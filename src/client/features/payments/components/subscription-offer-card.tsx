import { Check, Sparkles } from 'lucide-react';

import {
  DAILY_GENERATION_LIMIT,
  SUBSCRIPTION_INTRO_PRICE_CENTS,
  SUBSCRIPTION_PRICE_CENTS,
} from '../../../../shared/money/plans';
import { formatPrice } from '../../../../shared/money/display';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '../../../components/ui/card';

const INTRO = formatPrice(SUBSCRIPTION_INTRO_PRICE_CENTS);
const REGULAR = formatPrice(SUBSCRIPTION_PRICE_CENTS);

/** Daily generations and the 3am New York day, and Screens (docs/product-rules.md): how the daily subscription works. */
const TERMS = [`${DAILY_GENERATION_LIMIT} generations daily`, 'Resets at 3am EST', 'Use them or lose them'] as const;
const BENEFITS = [
  'Full AI video generation access',
  'High-quality output videos',
  'Multiple file format support',
] as const;

interface SubscriptionOfferCardProps {
  onStart: () => void;
  isStarting: boolean;
  /** Another purchase is being set up. */
  disabled: boolean;
}

function CheckList({ label, items }: { label: string; items: readonly string[] }) {
  return (
    <ul aria-label={label} className="grid gap-2 text-sm">
      {items.map((item) => (
        <li key={item} className="flex items-start gap-2">
          <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-emerald-600 dark:text-emerald-400" />
          {item}
        </li>
      ))}
    </ul>
  );
}

/** The Daily Subscription offer, shown to users without an active subscription. */
export function SubscriptionOfferCard({ onStart, isStarting, disabled }: SubscriptionOfferCardProps) {
  return (
    <Card className="flex flex-col border-violet-500/40 bg-linear-to-b from-violet-500/5 to-transparent">
      <CardHeader>
        <Badge tone="brand" className="self-start">
          <Sparkles aria-hidden="true" /> Best for daily creators
        </Badge>
        <CardTitle className="text-xl">Daily Subscription</CardTitle>
        <CardDescription>
          {INTRO} per day for the first week, then {REGULAR}/day
        </CardDescription>
      </CardHeader>
      <CardContent className="grid flex-1 gap-5">
        <p className="flex items-baseline gap-1">
          <span className="text-4xl font-extrabold tracking-tight">{INTRO}</span>
          <span className="text-muted-foreground">/day to start</span>
        </p>
        <CheckList label="How it works" items={TERMS} />
        <div className="grid gap-2 border-t border-border pt-4">
          <p className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">Benefits</p>
          <CheckList label="Benefits" items={BENEFITS} />
        </div>
      </CardContent>
      <CardFooter>
        <Button variant="brand" size="lg" className="w-full" onClick={onStart} disabled={disabled || isStarting}>
          {isStarting ? 'Initializing...' : 'Start Subscription'}
        </Button>
      </CardFooter>
    </Card>
  );
}
