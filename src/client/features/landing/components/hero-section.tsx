import { ArrowRight, Clock, Sparkles } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';

import { buttonVariants } from '../../../components/ui/button';
import { previewNote } from '../../../lib/installation';
import { retentionWords } from '../../../lib/retention';
import { cn } from '../../../lib/utils';

/** The first screen; `signIn` is where the page puts the external sign-in buttons. */
export function HeroSection({ signIn }: { signIn: ReactNode }) {
  return (
    <section className="relative isolate overflow-hidden" aria-labelledby="hero-title">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-x-0 -top-40 -z-10 mx-auto h-96 max-w-4xl rounded-full bg-linear-to-r from-violet-500/25 to-fuchsia-500/25 blur-3xl"
      />
      <div className="mx-auto w-full max-w-6xl px-4 pt-14 pb-12 text-center sm:px-6 sm:pt-20 lg:pt-24">
        <p className="mx-auto inline-flex items-center gap-2 rounded-full border border-border bg-card px-3 py-1 text-xs font-medium text-muted-foreground shadow-xs">
          <Sparkles aria-hidden="true" className="size-3.5 text-primary" /> AI video generator
        </p>
        <h1
          id="hero-title"
          className="mx-auto mt-6 max-w-3xl text-4xl font-extrabold tracking-tight sm:text-5xl lg:text-6xl"
        >
          Turn an idea into a <span className="text-brand-gradient">short AI video</span>
        </h1>
        <p className="mx-auto mt-5 max-w-2xl text-base text-muted-foreground sm:text-lg">
          Start from your own image, video or audio clip, describe the scene you have in mind, and Reelsmith generates a
          short video for you.
        </p>
        {/* Empty (and hidden) when a real model is connected; the server fills it in as it sends the page. */}
        <p
          data-preview-note
          className="mx-auto mt-4 max-w-2xl rounded-lg border border-amber-500/50 bg-amber-500/10 px-4 py-3 text-sm font-medium text-foreground empty:hidden"
        >
          {previewNote()}
        </p>
        <p className="mx-auto mt-3 inline-flex items-center gap-2 text-sm text-muted-foreground">
          <Clock aria-hidden="true" className="size-4" /> Videos are kept for {retentionWords()}, so download the ones
          you love.
        </p>
        <div className="mt-8 flex flex-col items-center justify-center gap-3 sm:flex-row">
          <Link href="/register" className={cn(buttonVariants({ variant: 'brand', size: 'lg' }), 'w-full sm:w-auto')}>
            Create a free account <ArrowRight aria-hidden="true" />
          </Link>
          <Link href="/login" className={cn(buttonVariants({ variant: 'outline', size: 'lg' }), 'w-full sm:w-auto')}>
            Sign in with email
          </Link>
        </div>
        <div className="mx-auto mt-6 max-w-xl">{signIn}</div>
      </div>
    </section>
  );
}
