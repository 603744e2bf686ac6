import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';

import { buttonVariants } from '../ui/button';

/** A page's way back ('Back to Generator'): an outline button with an arrow. */
export function BackLink({
  href,
  size = 'sm',
  children,
}: {
  href: string;
  size?: 'sm' | 'default';
  children: ReactNode;
}) {
  return (
    <Link href={href} className={buttonVariants({ variant: 'outline', size })}>
      <ArrowLeft aria-hidden="true" /> {children}
    </Link>
  );
}
