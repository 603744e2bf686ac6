import { type FormEvent, useState } from 'react';

import {
  type InstallationSettings,
  RULE_VARIABLES,
  type RuleName,
  type RulesSettings,
} from '../../../../shared/installation-settings';
import { hasAtMostTwoDecimals } from '../../../../shared/admin';
import { formatCreditCount, toCredits, toHundredths } from '../../../../shared/money/credits';
import {
  KEEP_GROUPS,
  type KeepGroup,
  MAX_VIDEO_RETENTION_HOURS,
  MIN_VIDEO_RETENTION_HOURS,
  retentionInWords,
} from '../../../../shared/retention';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { CheckboxField } from '../../../components/ui/checkbox-field';
import { FormField } from '../../../components/ui/form-field';
import { toast } from '../../../components/ui/use-toast';
import { getServerMessage } from '../../../lib/api-client';
import { useSaveRules } from '../api/installation-settings';

type Rules = InstallationSettings['rules'];

const KEEP_GROUP_LABELS: Record<KeepGroup, string> = {
  everyone: 'Everyone',
  admins: 'Administrators',
  subscribers: 'Subscribers (active or on a trial)',
  active: 'Active subscribers',
  trial: 'Subscribers on a trial',
  premium_unlimited: 'Premium Unlimited subscribers',
};

/** A rule the environment sets: what it is, and which variable to change. */
function FromEnvironment({ rule, children }: { rule: RuleName; children: string }) {
  return (
    <p className="text-sm">
      {children}{' '}
      <span className="text-muted-foreground">(set by {RULE_VARIABLES[rule]} in this server&apos;s environment)</span>
    </p>
  );
}

/** "1", "0.5", "12.25": credits as hundredths, or null when it is not such a number (the admin table's rule). */
function creditsToHundredths(text: string): number | null {
  const credits = Number(text);
  if (text.trim() === '' || credits < 0 || credits > 999_999 || !hasAtMostTwoDecimals(credits)) return null;
  return toHundredths(credits);
}

/**
 * How long videos are kept, who may keep one, what a new account is given, and whether registration
 * asks for a proof of work. A rule the environment sets is shown, not offered.
 */
export function RulesSettingsCard({ rules }: { rules: Rules }) {
  const save = useSaveRules();
  const [hours, setHours] = useState(String(rules.videoHours.value));
  const [keepFor, setKeepFor] = useState<Set<KeepGroup>>(new Set(rules.keepFor.value));
  const [credits, setCredits] = useState(String(toCredits(rules.signupCreditsHundredths.value)));
  const [open, setOpen] = useState(rules.registrationOpen.value);
  const [challenge, setChallenge] = useState(rules.registrationChallenge.value);
  const [errors, setErrors] = useState<{ hours?: string; credits?: string; form?: string }>({});
  const fixed = (rule: RuleName) => rules[rule].source === 'environment';
  const anySaved = (Object.keys(rules) as RuleName[]).some((rule) => rules[rule].source === 'saved');

  const send = (body: RulesSettings, done: string) => {
    save.mutate(body, {
      onSuccess: (settings) => {
        setHours(String(settings.rules.videoHours.value));
        setKeepFor(new Set(settings.rules.keepFor.value));
        setCredits(String(toCredits(settings.rules.signupCreditsHundredths.value)));
        setOpen(settings.rules.registrationOpen.value);
        setChallenge(settings.rules.registrationChallenge.value);
        toast({
          title: done,
          description: `Videos made from now on are kept for ${retentionInWords(settings.rules.videoHours.value)}.`,
        });
      },
      onError: (failure) => setErrors({ form: getServerMessage(failure) ?? `Could not save: ${failure.message}` }),
    });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: RulesSettings = {};
    const next: typeof errors = {};
    if (!fixed('videoHours')) {
      const value = Number(hours);
      if (!/^\d+$/.test(hours.trim()) || value < MIN_VIDEO_RETENTION_HOURS || value > MAX_VIDEO_RETENTION_HOURS)
        next.hours = `Give a whole number of hours from ${MIN_VIDEO_RETENTION_HOURS} to ${MAX_VIDEO_RETENTION_HOURS} (a year).`;
      else body.videoHours = value;
    }
    if (!fixed('keepFor')) body.keepFor = KEEP_GROUPS.filter((group) => keepFor.has(group));
    if (!fixed('signupCreditsHundredths')) {
      const value = creditsToHundredths(credits);
      if (value === null)
        next.credits = 'Give a number of credits like 1 or 0.5 (at most two decimals), or 0 for none.';
      else body.signupCreditsHundredths = value;
    }
    if (!fixed('registrationOpen')) body.registrationOpen = open;
    if (!fixed('registrationChallenge')) body.registrationChallenge = challenge;
    setErrors(next);
    if (Object.keys(next).length === 0) send(body, 'Rules saved');
  };

  return (
    <Card className="lg:col-span-2">
      <CardHeader>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle className="text-lg">Videos and sign-ups</CardTitle>
          {anySaved ? <Badge tone="success">Saved</Badge> : null}
        </div>
        <CardDescription>
          How long videos are kept, who may keep one, and what a new account gets. A change applies to videos made and
          accounts opened after it.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form className="grid gap-5" aria-label="Videos and sign-ups" onSubmit={submit} noValidate>
          <div className="grid gap-5 md:grid-cols-2">
            {fixed('videoHours') ? (
              <FromEnvironment rule="videoHours">{`Videos are kept for ${retentionInWords(rules.videoHours.value)}`}</FromEnvironment>
            ) : (
              <FormField
                label="Keep videos for (hours)"
                name="videoHours"
                type="number"
                inputMode="numeric"
                min={MIN_VIDEO_RETENTION_HOURS}
                max={MAX_VIDEO_RETENTION_HOURS}
                step={1}
                value={hours}
                onChange={(event) => setHours(event.target.value)}
                hint="From 1 to 8760 (a year); 24 is the usual. Then the video's file is deleted."
                error={errors.hours}
                disabled={save.isPending}
              />
            )}
            {fixed('signupCreditsHundredths') ? (
              <FromEnvironment rule="signupCreditsHundredths">{`New accounts get ${formatCreditCount(toCredits(rules.signupCreditsHundredths.value))}`}</FromEnvironment>
            ) : (
              <FormField
                label="Credits for each new account"
                name="signupCredits"
                type="text"
                inputMode="decimal"
                value={credits}
                onChange={(event) => setCredits(event.target.value)}
                hint="1 pays for one standard video; 0 gives nothing."
                error={errors.credits}
                disabled={save.isPending}
              />
            )}
          </div>
          {fixed('keepFor') ? (
            <FromEnvironment rule="keepFor">
              {rules.keepFor.value.length === 0
                ? 'Nobody may keep a video past that'
                : `May keep a video with no expiry: ${rules.keepFor.value.map((group) => KEEP_GROUP_LABELS[group]).join(', ')}`}
            </FromEnvironment>
          ) : (
            <fieldset className="grid gap-1 sm:grid-cols-2">
              <legend className="mb-2 text-sm font-medium">
                Who may keep a video with no expiry{' '}
                <span className="font-normal text-muted-foreground">(none: nobody)</span>
              </legend>
              {KEEP_GROUPS.map((group) => (
                <CheckboxField
                  key={group}
                  label={KEEP_GROUP_LABELS[group]}
                  checked={keepFor.has(group)}
                  disabled={save.isPending}
                  onCheckedChange={(checked) =>
                    setKeepFor((current) => {
                      const next = new Set(current);
                      if (checked) next.add(group);
                      else next.delete(group);
                      return next;
                    })
                  }
                />
              ))}
            </fieldset>
          )}
          {fixed('registrationOpen') ? (
            <FromEnvironment rule="registrationOpen">
              {rules.registrationOpen.value ? 'Anyone may open an account' : 'No new accounts are taken'}
            </FromEnvironment>
          ) : (
            <CheckboxField
              name="registrationOpen"
              label="Anyone may open an account"
              description="Off: the registration page says this server takes no new accounts, and a first sign-in with Google or single sign-on is refused. Existing accounts sign in as before."
              checked={open}
              disabled={save.isPending}
              onCheckedChange={setOpen}
            />
          )}
          {fixed('registrationChallenge') ? (
            <FromEnvironment rule="registrationChallenge">
              {rules.registrationChallenge.value
                ? 'Registration asks for a small proof of work'
                : 'Registration asks for no proof of work'}
            </FromEnvironment>
          ) : (
            <CheckboxField
              name="registrationChallenge"
              label="Ask each registration to solve a small proof of work first"
              description="Slows scripts that open accounts for the free credit. The browser does it in about a second; no outside service is involved."
              checked={challenge}
              disabled={save.isPending}
              onCheckedChange={setChallenge}
            />
          )}
          {errors.form ? (
            <p role="alert" className="text-sm font-medium text-destructive">
              {errors.form}
            </p>
          ) : null}
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? 'Saving…' : 'Save rules'}
            </Button>
            {anySaved ? (
              <Button
                type="button"
                variant="outline"
                disabled={save.isPending}
                onClick={() => send({}, 'Rules back to the defaults')}
              >
                Back to the defaults
              </Button>
            ) : null}
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
