import { Progress } from '../../../components/ui/progress';

/**
 * How much of a video's progress is drawn (docs/product-rules.md, Statuses):
 * - 'bar': the bar alone (Recent History card, the gallery list's small poster);
 * - 'bar-percent': the bar with the percentage beside it (history page);
 * - 'stage-row': the stage on the left and the percentage on the right, above the bar (media list);
 * - 'stage-caption': 'stage N%' above the bar, on a placeholder screen (gallery poster, player);
 * - 'stage-line': 'stage · N%' as one line of text, without a bar (gallery list view).
 */
export type GenerationProgressVariant = 'bar' | 'bar-percent' | 'stage-row' | 'stage-caption' | 'stage-line';

interface BaseProps {
  /** The server's percentage, 0-100. */
  progress: number;
  /** The server's stage; 'Processing...' when it gives none. Only the stage variants show it. */
  stage?: string | null;
}

interface WithBarProps extends BaseProps {
  variant: Exclude<GenerationProgressVariant, 'stage-line'>;
  /** The bar's accessible name, e.g. 'Progress of {prompt}'. */
  label: string;
  /** Classes of the bar. */
  className?: string;
  /** Classes of the stage text of 'stage-caption'. */
  captionClassName?: string;
}

interface LineProps extends BaseProps {
  variant: 'stage-line';
}

type GenerationProgressProps = WithBarProps | LineProps;

/**
 * A video's progress while it is made: its stage, its percentage and a bar. 'stage-caption'
 * renders its caption and bar as two siblings, so they take part in the caller's own layout.
 */
export function GenerationProgress(props: GenerationProgressProps) {
  const percent = Math.round(props.progress);
  const stageText = props.stage ?? 'Processing...';
  if (props.variant === 'stage-line') {
    return (
      <p className="truncate text-xs text-muted-foreground">
        {stageText} · {percent}%
      </p>
    );
  }

  const bar = <Progress value={props.progress} label={props.label} className={props.className} />;
  switch (props.variant) {
    case 'bar':
      return bar;
    case 'bar-percent':
      return (
        <div className="flex items-center gap-3">
          {bar}
          <span className="text-xs font-semibold tabular-nums">{percent}%</span>
        </div>
      );
    case 'stage-row':
      return (
        <div className="grid gap-1.5">
          <p className="flex items-baseline justify-between gap-2 text-xs">
            <span className="truncate text-muted-foreground">{stageText}</span>
            <span className="font-semibold tabular-nums">{percent}%</span>
          </p>
          {bar}
        </div>
      );
    case 'stage-caption':
      return (
        <>
          <p className={props.captionClassName}>
            {stageText} <span className="text-muted-foreground tabular-nums">{percent}%</span>
          </p>
          {bar}
        </>
      );
  }
}
