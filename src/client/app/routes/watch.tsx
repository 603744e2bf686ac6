import { Link, useParams } from 'wouter';

import { Brand } from '../../components/layouts/brand';
import { WatchView } from '../../features/safety/components/watch-view';

/** /watch/:token: a shared video, for anyone with the link (issue 44). */
export function WatchPage() {
  const { token = '' } = useParams<{ token: string }>();
  return (
    <div className="flex min-h-dvh flex-col bg-background">
      <header className="mx-auto flex w-full max-w-4xl items-center px-4 py-4">
        <Brand />
      </header>
      <main className="mx-auto w-full max-w-4xl flex-1 px-4 pb-8">
        <WatchView token={token} />
      </main>
      <footer className="mx-auto w-full max-w-4xl px-4 pb-6 text-center text-sm text-muted-foreground">
        <Link href="/" className="font-medium underline-offset-4 hover:text-foreground hover:underline">
          Made with Reelsmith: make your own
        </Link>
      </footer>
    </div>
  );
}
