import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';

import { Card, CardContent, CardDescription, CardHeader } from '../ui/card';
import { Brand } from './brand';

interface AuthLayoutProps {
  title: string;
  description: string;
  children: ReactNode;
}

/** A centred card for /register and /login, with a way back to the landing page. */
export function AuthLayout({ title, description, children }: AuthLayoutProps) {
  return (
    <div className="flex min-h-dvh flex-col bg-background">
      <main className="mx-auto flex w-full max-w-md flex-1 flex-col px-4 py-6 sm:py-12">
        <div className="mb-6 flex items-center justify-between">
          <Brand />
          <Link
            href="/"
            className="inline-flex min-h-6 items-center gap-1 rounded-md text-sm font-medium text-muted-foreground max-md:min-h-11 hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
          >
            <ArrowLeft aria-hidden="true" className="size-4" /> Back to Home
          </Link>
        </div>
        <Card>
          <CardHeader>
            <h1 className="text-2xl leading-tight font-bold tracking-tight">{title}</h1>
            <CardDescription>{description}</CardDescription>
          </CardHeader>
          <CardContent>{children}</CardContent>
        </Card>
      </main>
    </div>
  );
}
