import { StarRating } from './star-rating';

interface Testimonial {
  name: string;
  role: string;
  initials: string;
  content: string;
  rating: number;
}

const TESTIMONIALS: readonly Testimonial[] = [
  {
    name: 'Maya Thompson',
    role: 'Social media manager',
    initials: 'MT',
    content: 'I turn product photos into short clips for our stories in minutes. It saves me hours every week.',
    rating: 5,
  },
  {
    name: 'Daniel Okafor',
    role: 'Indie musician',
    initials: 'DO',
    content: 'Uploading a track and a cover image gave me a visualiser I could post the same day.',
    rating: 5,
  },
  {
    name: 'Sofia Lindqvist',
    role: 'Teacher',
    initials: 'SL',
    content: 'My students describe a scene and watch it come to life. Paying per video keeps it affordable.',
    rating: 4,
  },
];

export function TestimonialsSection() {
  return (
    <section aria-labelledby="testimonials-title" className="bg-muted/50 py-16">
      <div className="mx-auto w-full max-w-6xl px-4 sm:px-6">
        <h2 id="testimonials-title" className="text-center text-3xl font-bold tracking-tight">
          What creators say
        </h2>
        <ul className="mt-10 grid gap-4 md:grid-cols-3">
          {TESTIMONIALS.map((t) => (
            <li key={t.name}>
              <figure className="flex h-full flex-col gap-4 rounded-xl border border-border bg-card p-6 shadow-sm">
                <StarRating rating={t.rating} />
                <blockquote className="flex-1 text-sm leading-relaxed">“{t.content}”</blockquote>
                <figcaption className="flex items-center gap-3">
                  <span
                    aria-hidden="true"
                    className="flex size-10 items-center justify-center rounded-full bg-linear-to-br from-violet-600 to-fuchsia-600 text-sm font-semibold text-white"
                  >
                    {t.initials}
                  </span>
                  <span>
                    <span className="block text-sm font-semibold">{t.name}</span>
                    <span className="block text-xs text-muted-foreground">{t.role}</span>
                  </span>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
