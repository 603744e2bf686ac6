import { LayoutGrid, List } from 'lucide-react';

import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/utils';

export type LayoutView = 'grid' | 'list';

const OPTIONS = [
  { value: 'grid', label: 'Grid view', icon: LayoutGrid },
  { value: 'list', label: 'List view', icon: List },
] as const;

/** Grid or list: two pressed-state buttons (the dashboard gallery and the media page). */
export function ViewToggle({ view, onViewChange }: { view: LayoutView; onViewChange: (view: LayoutView) => void }) {
  return (
    <div
      role="group"
      aria-label="Layout"
      className="flex shrink-0 items-center gap-0.5 rounded-lg border border-border bg-muted p-0.5"
    >
      {OPTIONS.map(({ value, label, icon: Icon }) => (
        <Button
          key={value}
          variant="ghost"
          size="icon"
          aria-label={label}
          aria-pressed={view === value}
          title={label}
          onClick={() => onViewChange(value)}
          className={cn(
            'size-8 rounded-md',
            view === value ? 'bg-card text-foreground shadow-sm hover:bg-card' : 'text-muted-foreground',
          )}
        >
          <Icon aria-hidden="true" />
        </Button>
      ))}
    </div>
  );
}
