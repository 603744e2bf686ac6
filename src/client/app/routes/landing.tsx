import { lazy, Suspense } from 'react';

import { ExternalSignInButtons } from '../../features/auth/components/external-sign-in-buttons';
import { EthicalUseNotice } from '../../features/landing/components/ethical-use-notice';
import { HeroSection } from '../../features/landing/components/hero-section';
import { HowItWorks } from '../../features/landing/components/how-it-works';
import { LandingFooter } from '../../features/landing/components/landing-footer';
import { LandingHeader } from '../../features/landing/components/landing-header';
import { TestimonialsSection } from '../../features/landing/components/testimonials-section';

// Below the fold, and the only part of the page that needs the shared price rules (and with them
// zod): its own chunk, so the first paint waits for none of it.
const PricingSection = lazy(() =>
  import('../../features/landing/components/pricing-section').then((m) => ({ default: m.PricingSection })),
);

export function LandingPage() {
  return (
    <div className="min-h-dvh bg-background">
      <LandingHeader />
      <main>
        <HeroSection signIn={<ExternalSignInButtons layout="row" />} />
        <EthicalUseNotice />
        <HowItWorks />
        <TestimonialsSection />
        <Suspense fallback={<div className="min-h-[40rem]" />}>
          <PricingSection />
        </Suspense>
      </main>
      <LandingFooter />
    </div>
  );
}
