import { CheckCircle2, Circle, Settings } from 'lucide-react';
import { Link } from 'wouter';

import { buttonVariants } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { useInstallationSettings } from '../api/installation-settings';

interface Step {
  done: boolean;
  title: string;
  detail: string;
}

/**
 * The first-run checklist on the administrators' dashboard (issue 45), shown until a real video model
 * is connected: the one step that makes this server more than a preview maker comes first, with a
 * button to it; the others say what each brings and where it is set.
 */
export function SetupChecklist() {
  const settings = useInstallationSettings();
  const data = settings.data;
  if (!data?.previewOnly) return null;
  const steps: Step[] = [
    {
      done: false,
      title: 'Connect a video model',
      detail:
        'Until then every video is a preview made on this server, not AI video. One fal.ai key reaches most models.',
    },
    {
      done: data.setup.payments,
      title: 'Take payments',
      detail: data.setup.payments
        ? 'Stripe is connected: people can buy credits.'
        : "Without Stripe's keys, credits come only from sign-up and from you: paste them in Settings.",
    },
    {
      done: data.setup.mail,
      title: 'Send mail',
      detail: data.setup.mail
        ? 'Mail is set up: password resets and notifications are sent.'
        : 'Without a mail server, nobody can reset a forgotten password by mail: set one up in Settings.',
    },
    {
      done: data.setup.operatorContact,
      title: 'Say who runs this server',
      detail: data.setup.operatorContact
        ? 'Your contact is shown where people need someone to ask.'
        : 'Give an email or web address in Settings, so people know whom to ask for credits or help.',
    },
  ];
  return (
    <Card aria-labelledby="setup-heading" role="region" className="border-amber-500/40">
      <CardHeader>
        <CardTitle id="setup-heading">Finish setting up this server</CardTitle>
        <CardDescription>This list stays here until a real video model is connected.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <ol className="grid gap-3">
          {steps.map((step) => (
            <li key={step.title} className="flex items-start gap-3">
              {step.done ? (
                <CheckCircle2 aria-label="Done" className="mt-0.5 size-5 shrink-0 text-emerald-600" />
              ) : (
                <Circle aria-label="To do" className="mt-0.5 size-5 shrink-0 text-muted-foreground" />
              )}
              <div>
                <p className="font-medium">{step.title}</p>
                <p className="text-sm text-muted-foreground">{step.detail}</p>
              </div>
            </li>
          ))}
        </ol>
        <div>
          <Link href="/admin/settings" className={buttonVariants()}>
            <Settings aria-hidden="true" /> Open Settings
          </Link>
        </div>
      </CardContent>
    </Card>
  );
}
