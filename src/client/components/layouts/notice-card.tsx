import type { ReactNode } from 'react';

import { cn } from '../../lib/utils';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';

interface NoticeCardProps {
  icon: ReactNode;
  /** 'brand' for a feature announcement, 'muted' for something not available, 'danger' and 'success' for outcomes. */
  tone?: keyof typeof TONES;
  title: string;
  description: ReactNode;
  action?: ReactNode;
  /** 'status' or 'alert' when the card reports the outcome of something the user did. */
  role?: 'status' | 'alert';
}

const TONES = {
  brand: 'bg-linear-to-br from-violet-600 to-fuchsia-600 text-white',
  muted: 'bg-muted text-primary',
  danger: 'bg-red-500/10 text-red-600 dark:text-red-400',
  success: 'bg-emerald-500/15 text-emerald-700 dark:text-emerald-300',
} as const;

/** A card that tells the user something plainly, with one way onward. */
export function NoticeCard({ icon, tone = 'muted', title, description, action, role }: NoticeCardProps) {
  return (
    <Card role={role}>
      <CardHeader>
        <div className={cn('mb-2 flex size-10 items-center justify-center rounded-lg [&_svg]:size-5', TONES[tone])}>
          {icon}
        </div>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      {action ? <CardContent>{action}</CardContent> : null}
    </Card>
  );
}
