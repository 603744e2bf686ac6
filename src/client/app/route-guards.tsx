import type { ReactNode } from 'react';
import { Redirect } from 'wouter';

import { SignInRequired, type SignInRequiredVariant } from '../features/auth/components/sign-in-required';
import { useAuth } from '../lib/auth';

interface SignedInOnlyProps {
  children: ReactNode;
  variant?: SignInRequiredVariant;
}

/** A signed-in screen: visitors see 'Sign In Required' instead. */
export function SignedInOnly({ children, variant = 'default' }: SignedInOnlyProps) {
  const { isAuthenticated } = useAuth();
  return isAuthenticated ? children : <SignInRequired variant={variant} />;
}

/** /register and /login: a signed-in user goes straight to the dashboard. */
export function SignedOutOnly({ children }: { children: ReactNode }) {
  const { isAuthenticated } = useAuth();
  return isAuthenticated ? <Redirect to="/dashboard" replace /> : children;
}
