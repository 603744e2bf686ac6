import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';

import { CONSENT_REQUIRED_CODE, CONTENT_POLICY_CODE } from '../../shared/moderation';
import { toast } from '../components/ui/use-toast';
import { useCreateGeneration } from '../features/generations/api/create-generation';
import type { GeneratorFormState } from '../features/generations/hooks/use-generator-form';
import type { DescriptionToSend } from '../features/prompts/hooks/use-prompt-enhancement';
import { ApiError, getServerMessage } from '../lib/api-client';
import { buildGenerationRequest, type GenerationQuote } from './generator-quote';

/** Screens (docs/product-rules.md): the media player opens 2 seconds after a generation starts. */
export const REDIRECT_DELAY_MS = 2000;

interface GenerateInputs {
  state: GeneratorFormState;
  quote: Pick<GenerationQuote, 'fitted' | 'inputFields' | 'compareModel' | 'draft'>;
  variations: number;
  /** Once the server has taken the request: the page empties its inputs. */
  onStarted: () => void;
}

/**
 * Generate: sends what the quote priced, says how it went, and opens the media player on the new
 * video. A refused description sends the cursor back to it; a picture showing a person asks for the
 * likeness consent (`consent`: the box's props while it is asked, else null), sent with the next Generate.
 */
export function useGenerate({ state, quote, variations, onStarted }: GenerateInputs) {
  const [, navigate] = useLocation();
  const create = useCreateGeneration();
  // Real people only with consent: asked once the server found a face in a chosen picture.
  const [consentAsked, setConsentAsked] = useState(false);
  const [consentGiven, setConsentGiven] = useState(false);
  const consentBox = useRef<HTMLInputElement>(null);
  const redirect = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (redirect.current) clearTimeout(redirect.current);
    },
    [],
  );

  const handleStarted = (id: string) => {
    toast({
      title: 'Video Generation Started',
      description: 'Redirecting to media player to monitor progress...',
      duration: 3000,
    });
    onStarted();
    setConsentAsked(false);
    setConsentGiven(false);
    // The media page opens on this video and follows it until it plays (decision 011).
    redirect.current = setTimeout(() => navigate(`/media?video=${encodeURIComponent(id)}`), REDIRECT_DELAY_MS);
  };

  const handleFailure = (error: Error) => {
    const code = error instanceof ApiError ? error.code : null;
    if (code === CONSENT_REQUIRED_CODE) {
      // Not a failure: one confirmation away. The box appears above Generate and takes the focus.
      setConsentAsked(true);
      toast({ title: 'Confirm Consent', description: getServerMessage(error) ?? error.message });
      requestAnimationFrame(() => consentBox.current?.focus());
      return;
    }
    const refused = code === CONTENT_POLICY_CODE;
    toast({
      title: refused ? 'Description Not Allowed' : 'Generation Failed',
      description: getServerMessage(error) ?? error.message,
      variant: 'destructive',
    });
    // The description is what to change: the cursor goes back to it.
    if (refused) document.getElementById('video-description')?.focus();
  };

  /** Sends this description (what the quote priced, or its version without the add-ons). */
  const generate = (sent: DescriptionToSend) => {
    const built = buildGenerationRequest(quote, {
      state,
      sent,
      variations,
      consentToLikeness: consentAsked && consentGiven,
    });
    if (!built.ok) {
      toast({ title: 'Generation Failed', description: built.message, variant: 'destructive' });
      return;
    }
    create.mutate(built.request, { onSuccess: (record) => handleStarted(record.id), onError: handleFailure });
  };

  return {
    generate,
    pending: create.isPending,
    consent: consentAsked ? { checked: consentGiven, onChange: setConsentGiven, inputRef: consentBox } : null,
  };
}
