import { House, Mail, RefreshCw, RotateCcw, TriangleAlert } from 'lucide-react';

import { getSupportEmail } from '../../lib/support-email';
import { Button } from '../ui/button';
import { Card, CardContent } from '../ui/card';

interface ErrorFallbackProps {
  errorId: string;
  onRetry: () => void;
}

export function ErrorFallback({ errorId, onRetry }: ErrorFallbackProps) {
  const supportEmail = getSupportEmail();
  return (
    <main className="flex min-h-dvh items-center justify-center bg-background px-4 py-10">
      <div className="w-full max-w-lg text-center">
        <p className="text-3xl font-extrabold tracking-tight text-brand-gradient">Reelsmith</p>
        <p className="mt-1 text-xs font-semibold tracking-[0.3em] text-muted-foreground">VIDEO GENERATOR</p>
        <Card className="mt-8 text-left">
          <CardContent className="space-y-6 pt-6">
            <div className="flex items-start gap-3">
              <TriangleAlert aria-hidden="true" className="mt-1 size-6 shrink-0 text-destructive" />
              <div>
                <h1 className="text-xl font-bold">Oops! Something went wrong</h1>
                <p className="mt-2 text-sm text-muted-foreground">
                  Don't worry - we've detected and logged the issue. Try one of the options below.
                </p>
              </div>
            </div>
            <div className="rounded-lg border border-border bg-muted p-4">
              <p className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">Error Reference ID</p>
              <p className="mt-1 font-mono text-sm break-all" data-testid="error-id">
                {errorId}
              </p>
              <p className="mt-2 text-xs text-muted-foreground">Include this ID if you contact support</p>
            </div>
            <div className="grid gap-2 sm:grid-cols-3">
              <Button variant="brand" onClick={onRetry}>
                <RotateCcw aria-hidden="true" /> Try Again
              </Button>
              <Button variant="outline" onClick={() => window.location.reload()}>
                <RefreshCw aria-hidden="true" /> Reload Page
              </Button>
              <Button variant="outline" onClick={() => window.location.assign('/')}>
                <House aria-hidden="true" /> Go Home
              </Button>
            </div>
            <a
              href={`mailto:${supportEmail}?subject=${encodeURIComponent(`Error ${errorId}`)}`}
              className="inline-flex items-center gap-2 rounded-sm text-sm font-medium text-primary underline-offset-4 hover:underline focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
            >
              <Mail aria-hidden="true" className="size-4" /> Contact support ({supportEmail})
            </a>
          </CardContent>
        </Card>
      </div>
    </main>
  );
}
