import { useEffect, useState } from 'react';

import { toast } from '../../../components/ui/use-toast';
import { getServerMessage } from '../../../lib/api-client';
import { useForgetSubscription, useNotificationSettings, useSaveSubscription } from '../api/notifications';
import {
  currentEndpoint,
  pushPermission,
  PushUnavailableError,
  subscribeThisBrowser,
  unsubscribeThisBrowser,
} from '../push';

export type BrowserPushState = 'unsupported' | 'blocked' | 'on' | 'off' | 'checking';

/** This browser's notification state, and turning it on or off (the server and the browser both). */
export function useBrowserPush() {
  const settings = useNotificationSettings();
  const save = useSaveSubscription();
  const forget = useForgetSubscription();
  const [endpoint, setEndpoint] = useState<string | null | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    void currentEndpoint()
      .catch(() => null)
      .then((found) => {
        if (live) setEndpoint(found);
      });
    return () => {
      live = false;
    };
  }, []);

  const permission = pushPermission();
  const state: BrowserPushState =
    permission === 'unsupported'
      ? 'unsupported'
      : permission === 'denied'
        ? 'blocked'
        : endpoint === undefined
          ? 'checking'
          : endpoint
            ? 'on'
            : 'off';

  async function turnOn(): Promise<boolean> {
    const publicKey = settings.data?.push.publicKey;
    if (!publicKey) return false;
    setBusy(true);
    try {
      const subscription = await subscribeThisBrowser(publicKey);
      await save.mutateAsync(subscription);
      setEndpoint(subscription.endpoint);
      toast({ title: 'Notifications On', description: 'This browser will tell you when a video is ready.' });
      return true;
    } catch (error) {
      const description =
        error instanceof PushUnavailableError
          ? error.message
          : (getServerMessage(error) ?? 'Notifications could not be turned on. Please try again.');
      toast({ variant: 'destructive', title: 'Notifications Not On', description });
      return false;
    } finally {
      setBusy(false);
    }
  }

  async function turnOff(): Promise<void> {
    setBusy(true);
    try {
      const gone = (await unsubscribeThisBrowser()) ?? endpoint;
      if (gone) await forget.mutateAsync(gone);
      setEndpoint(null);
      toast({ title: 'Notifications Off', description: 'This browser will no longer be notified.' });
    } catch (error) {
      toast({
        variant: 'destructive',
        title: 'Notifications Still On',
        description: getServerMessage(error) ?? 'Please try again.',
      });
    } finally {
      setBusy(false);
    }
  }

  return { settings, state, busy, turnOn, turnOff };
}
