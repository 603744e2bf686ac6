import { CalendarClock, Clock, Coins, Info } from 'lucide-react';
import { Link } from 'wouter';

import type { UserStatus } from '../../../shared/auth';
import type { ModelInfo } from '../../../shared/models';
import { isPreviewOnly } from '../../../shared/installation';
import type { GenerationPayer } from '../../../shared/money/display';
import type { VideoPrice } from '../../../shared/money/pricing';
import { PhoneCollapsible } from '../../components/layouts/phone-collapsible';
import { buttonVariants } from '../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card';
import { formatCredits } from '../../features/credits/api/get-user-status';
import { CreditsCard } from '../../features/credits/components/credits-card';
import { OperatorContact } from '../../features/payments/components/operator-contact';
import { PreviewOnlyNotice } from '../../features/generations/components/preview-only-notice';
import { GeneratorTourButton } from '../../features/onboarding/components/generator-tour';
import { retentionTitle, retentionWords } from '../../lib/retention';

function StorageWarningCard() {
  return (
    <Card className="border-amber-500/30 bg-warning text-warning-foreground">
      <CardHeader className="pb-2">
        <CardTitle className="flex items-center gap-2 text-base">
          <Clock aria-hidden="true" className="size-5" /> Important: {retentionTitle()} Video Storage
        </CardTitle>
      </CardHeader>
      <CardContent className="text-sm">
        Your videos and uploads are deleted automatically {retentionWords()} after they are made. Download the videos
        you want to keep.
      </CardContent>
    </Card>
  );
}

/** The storage notice and credits card as one line on phones while folded. */
function NoticesSummary({ status, previewOnly }: { status: UserStatus | undefined; previewOnly: boolean }) {
  // One line at 390 px: on a server with previews only, that says it in place of the retention (inside, in full).
  return (
    <>
      {previewOnly ? (
        <>
          <Info aria-hidden="true" className="size-4 shrink-0 text-amber-700 dark:text-amber-300" />
          <span className="shrink-0">Previews only</span>
        </>
      ) : (
        <>
          <Clock aria-hidden="true" className="size-4 shrink-0 text-amber-600 dark:text-amber-400" />
          <span className="truncate">Kept {retentionWords()}</span>
        </>
      )}
      <span aria-hidden="true" className="text-muted-foreground">
        ·
      </span>
      <Coins aria-hidden="true" className="size-4 shrink-0 text-violet-700 dark:text-violet-300" />
      <span className="truncate">
        {status ? (status.isUnlimited ? 'Unlimited' : formatCredits(status)) : 'Credits'}
      </span>
    </>
  );
}

/** Where a price exceeds the balance: the way to get more, right there (or who to ask, where payments are not set up). */
export function MoreCredits({ paymentsEnabled }: { paymentsEnabled: boolean | undefined }) {
  if (paymentsEnabled === undefined) return null;
  if (!paymentsEnabled) return <OperatorContact className="block text-sm font-normal text-foreground" />;
  return (
    <span className="flex flex-wrap gap-2">
      <Link href="/credits" className={buttonVariants({ variant: 'outline', size: 'sm' })}>
        <Coins aria-hidden="true" /> Buy Credits
      </Link>
      <Link href="/subscribe" className={buttonVariants({ variant: 'outline', size: 'sm' })}>
        <CalendarClock aria-hidden="true" /> Subscribe
      </Link>
    </span>
  );
}

interface GeneratorNoticesProps {
  status: UserStatus | undefined;
  models: ModelInfo[] | undefined;
  isAdmin: boolean;
  price: VideoPrice;
  /** False until the model's price is known: the credits card shows the total only. */
  itemised: boolean;
  payer: GenerationPayer;
  paymentsEnabled: boolean | undefined;
}

/** The generator's notices and its credits card; on phones both fold into one line, so the description box is on the first screen. */
export function GeneratorNotices({
  status,
  models,
  isAdmin,
  price,
  itemised,
  payer,
  paymentsEnabled,
}: GeneratorNoticesProps) {
  return (
    <PhoneCollapsible
      className="order-1"
      summary={<NoticesSummary status={status} previewOnly={models ? isPreviewOnly(models) : false} />}
    >
      <div className="grid gap-3 lg:gap-6">
        <PreviewOnlyNotice models={models} isAdmin={isAdmin} />
        <StorageWarningCard />
        <CreditsCard
          status={status}
          price={price}
          itemised={itemised}
          payer={payer}
          tourButton={<GeneratorTourButton />}
          paymentsEnabled={paymentsEnabled}
          whoToAsk={<OperatorContact />}
        />
      </div>
    </PhoneCollapsible>
  );
}
