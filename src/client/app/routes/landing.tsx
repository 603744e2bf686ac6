import { ExternalSignInButtons } from '../../features/auth/components/external-sign-in-buttons';
import { EthicalUseNotice } from '../../features/landing/components/ethical-use-notice';
import { HeroSection } from '../../features/landing/components/hero-section';
import { HowItWorks } from '../../features/landing/components/how-it-works';
import { LandingFooter } from '../../features/landing/components/landing-footer';
import { LandingHeader } from '../../features/landing/components/landing-header';
import { PricingSection } from '../../features/landing/components/pricing-section';
import { TestimonialsSection } from '../../features/landing/components/testimonials-section';

export function LandingPage() {
  return (
    <div className="min-h-dvh bg-background">
      <LandingHeader />
      <main>
        <HeroSection signIn={<ExternalSignInButtons layout="row" />} />
        <EthicalUseNotice />
        <HowItWorks />
        <TestimonialsSection />
        <PricingSection />
      </main>
      <LandingFooter />
    </div>
  );
}
