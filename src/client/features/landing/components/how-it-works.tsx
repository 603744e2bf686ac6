import { Clapperboard, PenLine, SlidersHorizontal, Upload } from 'lucide-react';

const STEPS = [
  { icon: Upload, title: 'Upload files', text: 'Add an optional image, video or audio clip to guide the result.' },
  { icon: PenLine, title: 'Add prompt', text: 'Describe the scene you want; AI can polish the wording for you.' },
  { icon: SlidersHorizontal, title: 'Configure', text: 'Turn audio on or off and fine-tune the advanced settings.' },
  { icon: Clapperboard, title: 'Generate', text: 'Start the generation, then watch and download your video.' },
] as const;

export function HowItWorks() {
  return (
    <section aria-labelledby="how-title" className="mx-auto w-full max-w-6xl px-4 py-16 sm:px-6">
      <h2 id="how-title" className="text-center text-3xl font-bold tracking-tight">
        How it works
      </h2>
      <p className="mt-2 text-center text-muted-foreground">Four steps from idea to video.</p>
      <ol className="mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {STEPS.map(({ icon: Icon, title, text }, index) => (
          <li key={title} className="rounded-xl border border-border bg-card p-5 shadow-sm">
            <div className="flex items-center gap-3">
              <span className="flex size-10 items-center justify-center rounded-lg bg-linear-to-br from-violet-600 to-fuchsia-600 text-white">
                <Icon aria-hidden="true" className="size-5" />
              </span>
              <span className="text-sm font-semibold text-muted-foreground">Step {index + 1}</span>
            </div>
            <h3 className="mt-4 font-semibold">{title}</h3>
            <p className="mt-1 text-sm text-muted-foreground">{text}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}
