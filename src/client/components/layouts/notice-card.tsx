import type { ReactNode } from 'react';

import { cn } from '../../lib/utils';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';

interface NoticeCardProps {
  icon: ReactNode;
  /** 'brand' for a feature announcement, 'muted' for something not available. */
  tone?: 'brand' | 'muted';
  title: string;
  description: string;
  action: ReactNode;
}

/** A card that tells the user something plainly, with one way onward. */
export function NoticeCard({ icon, tone = 'muted', title, description, action }: NoticeCardProps) {
  return (
    <Card>
      <CardHeader>
        <div
          className={cn(
            'mb-2 flex size-10 items-center justify-center rounded-lg [&_svg]:size-5',
            tone === 'brand' ? 'bg-linear-to-br from-violet-600 to-fuchsia-600 text-white' : 'bg-muted text-primary',
          )}
        >
          {icon}
        </div>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>{action}</CardContent>
    </Card>
  );
}
