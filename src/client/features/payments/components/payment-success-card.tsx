import { CircleCheck, Coins, Download, LogOut, Sparkles, Upload, Wand2 } from 'lucide-react';
import { Link } from 'wouter';

import { creditsAddedSentence, videosAffordableSentence } from '../../../../shared/money/display';
import { Button, buttonVariants } from '../../../components/ui/button';
import { Card, CardContent, CardFooter, CardHeader } from '../../../components/ui/card';
import { useLogout } from '../../../lib/auth';

const NEXT_STEPS = [
  { icon: Wand2, text: 'Generate videos with AI models' },
  { icon: Upload, text: 'Upload images, videos or text' },
  { icon: Download, text: 'Download your creations' },
] as const;

/** Screens (docs/product-rules.md), /payment-success: what was added, what to do next, and the ways onward. */
export function PaymentSuccessCard({ creditsAdded }: { creditsAdded: number }) {
  const logout = useLogout();
  return (
    <Card className="overflow-hidden">
      <CardHeader className="items-center bg-linear-to-br from-emerald-500/10 to-violet-500/10 text-center">
        <span className="mb-1 flex size-14 items-center justify-center rounded-full bg-emerald-500/15 text-emerald-600 dark:text-emerald-400">
          <CircleCheck aria-hidden="true" className="size-8" />
        </span>
        <h2 className="text-2xl font-bold tracking-tight">Payment Successful!</h2>
        <p className="font-medium">{creditsAddedSentence(creditsAdded)}</p>
        <p className="text-sm text-muted-foreground">{videosAffordableSentence(creditsAdded)}</p>
      </CardHeader>
      <CardContent className="pt-6">
        <h3 className="mb-3 text-sm font-semibold">What&apos;s Next</h3>
        <ul className="grid gap-2">
          {NEXT_STEPS.map(({ icon: Icon, text }) => (
            <li key={text} className="flex items-center gap-3 rounded-lg bg-muted/60 px-3 py-2 text-sm">
              <Icon aria-hidden="true" className="size-4 shrink-0 text-violet-600 dark:text-violet-400" />
              {text}
            </li>
          ))}
        </ul>
      </CardContent>
      <CardFooter className="flex-col items-stretch gap-2 sm:flex-row">
        <Link href="/generator" className={buttonVariants({ variant: 'brand', className: 'sm:flex-1' })}>
          <Sparkles aria-hidden="true" /> Start Creating Videos
        </Link>
        <Link href="/credits" className={buttonVariants({ variant: 'outline' })}>
          <Coins aria-hidden="true" /> View Credits
        </Link>
        <Button variant="ghost" onClick={() => logout.mutate()} disabled={logout.isPending}>
          <LogOut aria-hidden="true" /> Logout
        </Button>
      </CardFooter>
    </Card>
  );
}
