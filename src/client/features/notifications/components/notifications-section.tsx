import { Bell, Mail, MonitorSmartphone } from 'lucide-react';

import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeaderRow } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { Switch } from '../../../components/ui/switch';
import { toast } from '../../../components/ui/use-toast';
import { getServerMessage } from '../../../lib/api-client';
import { useEmailChoice } from '../api/notifications';
import { type BrowserPushState, useBrowserPush } from './use-browser-push';

const BROWSER_TEXT: Record<BrowserPushState, string> = {
  unsupported: 'This browser cannot show notifications from websites.',
  blocked: 'Notifications are blocked for this site in your browser’s settings.',
  checking: 'Checking this browser…',
  on: 'On: this browser tells you when a video is ready or could not be made.',
  off: 'Off',
};

/** The account page's notifications: this browser (Web Push) and e-mail, each opt-in. */
export function NotificationsSection() {
  const push = useBrowserPush();
  const email = useEmailChoice();
  const settings = push.settings.data;
  const others = settings ? settings.push.subscriptions - (push.state === 'on' ? 1 : 0) : 0;

  function chooseEmail(enabled: boolean) {
    email.mutate(enabled, {
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: 'Not Saved',
          description: getServerMessage(error) ?? 'Please try again.',
        }),
    });
  }

  return (
    <Card>
      <CardHeaderRow icon={<Bell aria-hidden="true" />} title="Notifications" />
      <CardContent className="grid gap-4">
        <CardDescription>
          Hear when a video is ready or could not be made, even with Reelsmith closed. Nothing is sent while Reelsmith
          is open in front of you.
        </CardDescription>
        {!settings ? (
          push.settings.isError ? (
            <p className="text-sm text-destructive">Your notification settings could not be loaded. Please reload.</p>
          ) : (
            <Spinner label="Loading your notification settings" />
          )
        ) : (
          <ul className="grid gap-2">
            <li className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-border p-3">
              <span className="flex min-w-0 items-center gap-3">
                <MonitorSmartphone aria-hidden="true" className="size-5 shrink-0 text-muted-foreground" />
                <span className="min-w-0">
                  <span className="block font-medium">This browser</span>
                  <span className="block text-sm text-muted-foreground">
                    {BROWSER_TEXT[push.state]}
                    {others > 0 ? ` ${others} other ${others === 1 ? 'browser is' : 'browsers are'} notified too.` : ''}
                  </span>
                </span>
              </span>
              {push.state === 'on' ? (
                <Button variant="outline" size="sm" disabled={push.busy} onClick={() => void push.turnOff()}>
                  Turn off
                </Button>
              ) : push.state === 'off' ? (
                <Button variant="brand" size="sm" disabled={push.busy} onClick={() => void push.turnOn()}>
                  Notify me here
                </Button>
              ) : null}
            </li>
            {settings.email.available ? (
              <li className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-border p-3">
                <span className="flex min-w-0 items-center gap-3">
                  <Mail aria-hidden="true" className="size-5 shrink-0 text-muted-foreground" />
                  <span className="min-w-0">
                    <span className="block font-medium" id="email-notifications-label">
                      E-mail me
                    </span>
                    <span className="block text-sm text-muted-foreground">
                      When a video is ready or could not be made.
                    </span>
                  </span>
                </span>
                <Switch
                  aria-labelledby="email-notifications-label"
                  checked={settings.email.enabled}
                  disabled={email.isPending}
                  onCheckedChange={chooseEmail}
                />
              </li>
            ) : null}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
