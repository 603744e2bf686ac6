import { PenLine, Sparkles } from 'lucide-react';
import { type RefObject, useEffect, useState } from 'react';

import { Button } from '../../../components/ui/button';

/** What the bar offers: Generate itself, or the step that comes first. */
export type PhoneGenerateStep =
  { kind: 'generate'; price: string } | { kind: 'describe' } | { kind: 'review'; reason: string };

/**
 * On a phone, Generate is several screens below the description. While the form's own Generate
 * button is out of view, this bar above the bottom navigation keeps the next step one tap away:
 * Generate now (with the price), or, when it cannot run yet, what comes first, said in words.
 * Nothing from md up (the bottom navigation's breakpoint), while a video is being sent, or where
 * the browser cannot say what is in view.
 */
export function PhoneGenerateBar({
  generateButton,
  step,
  onDescribe,
}: {
  generateButton: RefObject<HTMLElement | null>;
  step: PhoneGenerateStep | null;
  onDescribe: () => void;
}) {
  const [outOfView, setOutOfView] = useState(false);
  useEffect(() => {
    const target = generateButton.current;
    if (!target || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(([entry]) => setOutOfView(entry ? !entry.isIntersecting : false));
    observer.observe(target);
    return () => observer.disconnect();
  }, [generateButton]);
  if (!outOfView || !step) return null;
  const reveal = () => generateButton.current?.scrollIntoView({ behavior: 'smooth', block: 'center' });
  return (
    <div
      className="fixed inset-x-0 bottom-[calc(4rem+env(safe-area-inset-bottom))] z-30 border-t border-border bg-background/95 px-4 py-2 backdrop-blur md:hidden"
      data-testid="phone-generate-bar"
    >
      <div className="mx-auto flex max-w-xl items-center gap-3">
        <p className="min-w-0 flex-1 truncate text-sm text-muted-foreground">
          {step.kind === 'generate' ? step.price : step.kind === 'describe' ? 'No description yet' : step.reason}
        </p>
        {step.kind === 'generate' ? (
          <Button type="submit" variant="brand" className="min-h-11">
            <Sparkles aria-hidden="true" /> Generate now
          </Button>
        ) : step.kind === 'describe' ? (
          <Button type="button" variant="outline" className="min-h-11" onClick={onDescribe}>
            <PenLine aria-hidden="true" /> Describe it
          </Button>
        ) : (
          <Button type="button" variant="outline" className="min-h-11" onClick={reveal}>
            See why
          </Button>
        )}
      </div>
    </div>
  );
}
