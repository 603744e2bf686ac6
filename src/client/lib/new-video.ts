import { useLocation } from 'wouter';

import { toast } from '../components/ui/use-toast';
import { getServerMessage } from './api-client';

interface NewVideoWords {
  /** The toast once it has started: what is being made, and where it will appear. */
  started: { title: string; description: string };
  /** The toast's title when the server refuses it; its description is the server's sentence. */
  failed: string;
}

/**
 * What a dialog that makes a new video from another (Extend, Finish) does with the server's answer:
 * once started it closes, says so and opens the new video on the media page, where its progress
 * shows; refused, it says why and stays open.
 */
export function useNewVideoOutcome(close: () => void, words: NewVideoWords) {
  const [, navigate] = useLocation();
  return {
    onSuccess: (record: { id: string }) => {
      close();
      toast({ ...words.started, duration: 3000 });
      navigate(`/media?video=${encodeURIComponent(record.id)}`);
    },
    onError: (error: unknown) => {
      toast({
        title: words.failed,
        description: getServerMessage(error) ?? 'Please try again.',
        variant: 'destructive',
      });
    },
  };
}
