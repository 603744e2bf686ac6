import { CheckCircle2, CreditCard, KeyRound, Mail, Server, Unplug } from 'lucide-react';
import { type FormEvent, type ReactNode, useState } from 'react';

import {
  type InstallationSettings,
  PROVIDER_FORMS,
  type ProviderForm,
  type ProviderKeys,
  type ProviderSetting,
} from '../../../../shared/installation-settings';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { ConfirmDeleteDialog } from '../../../components/ui/confirm-delete-dialog';
import { FormField } from '../../../components/ui/form-field';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/use-toast';
import { getServerMessage } from '../../../lib/api-client';
import {
  useInstallationSettings,
  useRemoveMailSettings,
  useRemoveProviderKeys,
  useRemoveStripeKeys,
  useSaveMailSettings,
  useSaveOperatorContact,
  useSaveProviderKeys,
  useSaveStripeKeys,
} from '../api/installation-settings';
import { RulesSettingsCard } from './rules-settings';

function savedOn(iso: string | null): string {
  if (!iso) return '';
  return new Date(iso).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
}

function modelsSentence(models: string[], form: ProviderForm): string {
  if (form.id === 'llm') return 'AI Enhance and image analysis use it.';
  if (models.length === 0) return 'No model of its catalogue is offered yet.';
  return `Now offered: ${models.join(', ')}.`;
}

function StatusBadge({ setting }: { setting: ProviderSetting }) {
  if (setting.source === 'environment') return <Badge tone="brand">Set in the environment</Badge>;
  if (setting.source === 'saved') return <Badge tone="success">Connected</Badge>;
  if (setting.unreadable) return <Badge tone="warning">Paste the key again</Badge>;
  return <Badge>Not connected</Badge>;
}

/** What the address and model fields look like, as examples (never read as text already typed). */
const FIELD_EXAMPLES: Record<string, string> = {
  'comfyui.url': 'For example: http://gpu-box:8188',
  'llm.url': 'For example: http://localhost:11434/v1',
  'llm.model': 'For example: llama3.2-vision',
};

/** A key form's end: the provider's refusal, and the button that tests and saves (with why it waits). */
function KeyFormFooter({
  error,
  pending,
  complete,
  label,
  pendingLabel,
  children,
}: {
  error: string | null;
  pending: boolean;
  complete: boolean;
  label: string;
  pendingLabel: string;
  /** Why the button waits while a key is missing. */
  children: ReactNode;
}) {
  return (
    <>
      {error ? (
        <p role="alert" className="text-sm font-medium text-destructive">
          {error}
        </p>
      ) : null}
      <div>
        <Button type="submit" disabled={pending || !complete}>
          {pending ? <Spinner /> : <KeyRound aria-hidden="true" />}
          {pending ? pendingLabel : label}
        </Button>
        {!complete && !pending ? <span className="ml-3 text-xs text-muted-foreground">{children}</span> : null}
      </div>
    </>
  );
}

/** The form for one provider's keys: tried by the server with the provider before anything is saved. */
function KeysForm({ form, replacing }: { form: ProviderForm; replacing: boolean }) {
  const save = useSaveProviderKeys();
  const [values, setValues] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    // An optional field left empty is not sent (a local model server needs no key).
    const filled = Object.fromEntries(Object.entries(values).filter(([, value]) => value.trim() !== ''));
    const keys = { provider: form.id, ...filled } as ProviderKeys;
    save.mutate(keys, {
      onSuccess: (settings) => {
        setValues({});
        const models = settings.providers.find((p) => p.id === form.id)?.models ?? [];
        toast({
          title: `${form.name} connected`,
          description: `${models.length} ${models.length === 1 ? 'model is' : 'models are'} now offered, from the next video on.`,
        });
      },
      onError: (failure) => setError(getServerMessage(failure) ?? `Could not save: ${failure.message}`),
    });
  };
  const complete = form.fields.every((field) => field.optional || (values[field.name] ?? '').trim().length > 0);
  return (
    <form className="grid gap-3" onSubmit={submit} aria-label={`${form.name} keys`}>
      {form.fields.map((field) => (
        <FormField
          key={field.name}
          label={replacing ? `New ${field.label.charAt(0).toLowerCase()}${field.label.slice(1)}` : field.label}
          name={field.name}
          type={field.secret ? 'password' : field.name === 'url' ? 'url' : 'text'}
          optional={field.optional}
          autoComplete="off"
          spellCheck={false}
          inputMode={field.name === 'url' ? 'url' : undefined}
          placeholder={FIELD_EXAMPLES[`${form.id}.${field.name}`]}
          value={values[field.name] ?? ''}
          onChange={(event) => setValues((current) => ({ ...current, [field.name]: event.target.value }))}
          disabled={save.isPending}
        />
      ))}
      <p className="text-xs text-muted-foreground">Where to find it: {form.where}.</p>
      <KeyFormFooter
        error={error}
        pending={save.isPending}
        complete={complete}
        pendingLabel={`Checking with ${form.name}…`}
        label={replacing ? 'Test and replace' : 'Test and connect'}
      >
        {form.id === 'llm'
          ? 'Give the address and a model to test them.'
          : form.fields.length > 1
            ? 'Fill in both keys to test them.'
            : 'Paste the key to test it.'}
      </KeyFormFooter>
    </form>
  );
}

function ProviderCard({ form, setting }: { form: ProviderForm; setting: ProviderSetting }) {
  const [replacing, setReplacing] = useState(false);
  const remove = useRemoveProviderKeys();
  const Icon = form.id === 'comfyui' ? Server : KeyRound;
  return (
    <Card data-provider={form.id}>
      <CardHeader>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle className="flex items-center gap-2 text-lg">
            <Icon aria-hidden="true" className="size-5 text-muted-foreground" /> {form.name}
          </CardTitle>
          <StatusBadge setting={setting} />
        </div>
        <CardDescription>{form.brings}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {setting.source === 'environment' ? (
          <p className="text-sm">
            Set by {form.fields.map((f) => f.env).join(' and ')} in this server&apos;s environment
            {setting.hint ? ` (${setting.hint})` : ''}, which wins over this page.{' '}
            {modelsSentence(setting.models, form)}
          </p>
        ) : null}
        {setting.source === 'saved' ? (
          <SavedSetting
            changeLabel="Replace key"
            replacing={replacing}
            onReplace={() => setReplacing(true)}
            remove={{
              isPending: remove.isPending,
              mutate: (_nothing, handlers) => remove.mutate(form.id, handlers),
            }}
            turnOff={{
              label: 'Disconnect',
              title: `Disconnect ${form.name}?`,
              description: 'Its saved key is deleted and its models stop being offered. Videos already made are kept.',
              done: `${form.name} disconnected`,
              confirmLabel: 'Disconnect',
              pendingLabel: 'Disconnecting...',
            }}
          >
            {form.id === 'llm' ? setting.hint : `Key ${setting.hint ?? ''}`} saved {savedOn(setting.savedAt)},
            encrypted. {modelsSentence(setting.models, form)}
          </SavedSetting>
        ) : null}
        {setting.unreadable ? (
          <p className="text-sm text-amber-800 dark:text-amber-300">
            A key was saved under a different installation secret (SESSION_SECRET changed), so this server cannot read
            it. Paste the key again.
          </p>
        ) : null}
        {setting.source === 'none' || replacing ? <KeysForm form={form} replacing={replacing} /> : null}
      </CardContent>
    </Card>
  );
}

/** The providers part of /admin/settings. */
export function ProviderSettings({ settings }: { settings: InstallationSettings }) {
  return (
    <section aria-labelledby="providers-heading" className="grid gap-4">
      <div>
        <h2 id="providers-heading" className="text-xl font-semibold">
          Video models and AI services
        </h2>
        <p className="text-sm text-muted-foreground">
          Each key is tried with a harmless call to its provider before it is saved (encrypted with this server&apos;s
          secret). Every process uses it from the next video on: no restart.
        </p>
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        {PROVIDER_FORMS.map((form) => {
          const setting = settings.providers.find((p) => p.id === form.id);
          return setting ? <ProviderCard key={form.id} form={form} setting={setting} /> : null;
        })}
      </div>
    </section>
  );
}

/** A saved setting: what is in use, a way to replace it, and a confirmed way to turn it off. */
function SavedSetting({
  children,
  changeLabel,
  replacing,
  onReplace,
  remove,
  turnOff,
}: {
  children: ReactNode;
  changeLabel: string;
  replacing: boolean;
  onReplace: () => void;
  remove: {
    isPending: boolean;
    mutate: (value: undefined, handlers: { onSuccess: () => void; onError: (failure: Error) => void }) => void;
  };
  /** The confirmation's button reads 'Turn off' ('Turning off...') unless it says otherwise. */
  turnOff: {
    label: string;
    title: string;
    description: string;
    done: string;
    confirmLabel?: string;
    pendingLabel?: string;
  };
}) {
  return (
    <div className="grid gap-3">
      <p className="flex items-start gap-2 text-sm">
        <CheckCircle2 aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-emerald-600" />
        <span className="break-words">{children}</span>
      </p>
      <div className="flex flex-wrap gap-2">
        {replacing ? null : (
          <Button variant="outline" onClick={onReplace}>
            <KeyRound aria-hidden="true" /> {changeLabel}
          </Button>
        )}
        <ConfirmDeleteDialog
          trigger={
            <Button variant="outline">
              <Unplug aria-hidden="true" /> {turnOff.label}
            </Button>
          }
          title={turnOff.title}
          description={turnOff.description}
          confirmLabel={turnOff.confirmLabel ?? 'Turn off'}
          pendingLabel={turnOff.pendingLabel ?? 'Turning off...'}
          pending={remove.isPending}
          onConfirm={(close) =>
            remove.mutate(undefined, {
              onSuccess: () => {
                close();
                toast({ title: turnOff.done });
              },
              onError: (failure) =>
                toast({
                  title: `Could not ${turnOff.label.charAt(0).toLowerCase()}${turnOff.label.slice(1)}`,
                  description: getServerMessage(failure) ?? failure.message,
                  variant: 'destructive',
                }),
            })
          }
        />
      </div>
    </div>
  );
}

/** Card payments: Stripe's keys, tried by the server with a balance read before they are kept. */
function PaymentsSettings({ payments }: { payments: InstallationSettings['payments'] }) {
  const save = useSaveStripeKeys();
  const remove = useRemoveStripeKeys();
  const [values, setValues] = useState({ secretKey: '', publishableKey: '', webhookSecret: '' });
  const [replacing, setReplacing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const field = (name: keyof typeof values) => ({
    name,
    value: values[name],
    autoComplete: 'off',
    spellCheck: false,
    disabled: save.isPending,
    onChange: (event: { target: { value: string } }) =>
      setValues((current) => ({ ...current, [name]: event.target.value })),
  });
  const complete = values.secretKey.trim() !== '' && values.publishableKey.trim() !== '';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const webhookSecret = values.webhookSecret.trim();
    save.mutate(
      {
        secretKey: values.secretKey.trim(),
        publishableKey: values.publishableKey.trim(),
        ...(webhookSecret ? { webhookSecret } : {}),
      },
      {
        onSuccess: () => {
          setValues({ secretKey: '', publishableKey: '', webhookSecret: '' });
          setReplacing(false);
          toast({ title: 'Payments are on', description: 'People can buy credits and subscribe from now on.' });
        },
        onError: (failure) => setError(getServerMessage(failure) ?? `Could not save: ${failure.message}`),
      },
    );
  };
  return (
    <Card data-setting="payments">
      <CardHeader>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle className="flex items-center gap-2 text-lg">
            <CreditCard aria-hidden="true" className="size-5 text-muted-foreground" /> Payments (Stripe)
          </CardTitle>
          {payments.source === 'environment' ? (
            <Badge tone="brand">Set in the environment</Badge>
          ) : payments.source === 'saved' ? (
            <Badge tone="success">On{payments.mode === 'test' ? ' (test mode)' : ''}</Badge>
          ) : (
            <Badge>Off</Badge>
          )}
        </div>
        <CardDescription>
          Card payments for credits, daily plans and extra packs. Without them, credits come only from sign-up and from
          you.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {payments.source === 'environment' ? (
          <p className="text-sm">
            Set by STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY in this server&apos;s environment ({payments.hint}),
            which wins over this page.
          </p>
        ) : null}
        {payments.source === 'saved' ? (
          <SavedSetting
            changeLabel="Replace keys"
            replacing={replacing}
            onReplace={() => setReplacing(true)}
            remove={remove}
            turnOff={{
              label: 'Turn payments off',
              title: 'Turn payments off?',
              description:
                'The saved Stripe keys are deleted; nobody can buy credits or subscribe until keys are saved again. Payments already made are kept.',
              done: 'Payments are off',
            }}
          >
            Secret key {payments.hint} saved {savedOn(payments.savedAt)}, encrypted.{' '}
            {payments.webhookSecret
              ? "Stripe's events are checked with the webhook signing secret."
              : 'No webhook signing secret: Stripe’s events (a finished payment, a renewal) are refused until one is saved.'}
          </SavedSetting>
        ) : null}
        {payments.source === 'none' || replacing ? (
          <form className="grid gap-3" onSubmit={submit} aria-label="Stripe keys">
            <FormField label="Secret key" type="password" {...field('secretKey')} />
            <FormField label="Publishable key" type="text" {...field('publishableKey')} />
            <FormField
              label="Webhook signing secret"
              type="password"
              optional
              hint={`In Stripe, add a webhook endpoint at ${payments.webhookUrl} and paste its signing secret (whsec_…).`}
              {...field('webhookSecret')}
            />
            <p className="text-xs text-muted-foreground">
              Where to find them: Stripe Dashboard → Developers → API keys (both from the same mode, test or live).
            </p>
            <KeyFormFooter
              error={error}
              pending={save.isPending}
              complete={complete}
              pendingLabel="Checking with Stripe…"
              label="Test and turn on"
            >
              Fill in both keys to test them.
            </KeyFormFooter>
          </form>
        ) : null}
      </CardContent>
    </Card>
  );
}

/** Mail: the SMTP server password resets, verification and notifications go through. */
function MailSettingsCard({ mail }: { mail: InstallationSettings['mail'] }) {
  const save = useSaveMailSettings();
  const remove = useRemoveMailSettings();
  const [smtpUrl, setSmtpUrl] = useState('');
  const [from, setFrom] = useState('');
  const [replacing, setReplacing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    save.mutate(
      { smtpUrl: smtpUrl.trim(), ...(from.trim() ? { from: from.trim() } : {}) },
      {
        onSuccess: () => {
          setSmtpUrl('');
          setFrom('');
          setReplacing(false);
          toast({ title: 'Mail is set up', description: 'Password resets and notifications are sent from now on.' });
        },
        onError: (failure) => setError(getServerMessage(failure) ?? `Could not save: ${failure.message}`),
      },
    );
  };
  return (
    <Card data-setting="mail">
      <CardHeader>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle className="flex items-center gap-2 text-lg">
            <Mail aria-hidden="true" className="size-5 text-muted-foreground" /> Mail
          </CardTitle>
          {mail.source === 'environment' ? (
            <Badge tone="brand">Set in the environment</Badge>
          ) : mail.source === 'saved' ? (
            <Badge tone="success">On</Badge>
          ) : (
            <Badge>Off</Badge>
          )}
        </div>
        <CardDescription>
          Password resets, email verification and notifications. Without mail, nobody can reset a forgotten password by
          themselves.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {mail.source === 'environment' ? (
          <p className="text-sm">
            Set by SMTP_URL in this server&apos;s environment ({mail.server}), which wins over this page.
          </p>
        ) : null}
        {mail.source === 'saved' ? (
          <SavedSetting
            changeLabel="Change"
            replacing={replacing}
            onReplace={() => setReplacing(true)}
            remove={remove}
            turnOff={{
              label: 'Turn mail off',
              title: 'Turn mail off?',
              description:
                'The saved mail server is deleted; password resets and notifications by mail stop until one is saved again.',
              done: 'Mail is off',
            }}
          >
            Through {mail.server}, from {mail.from}; saved {savedOn(mail.savedAt)}, encrypted.
          </SavedSetting>
        ) : null}
        {mail.source === 'none' || replacing ? (
          <form className="grid gap-3" onSubmit={submit} aria-label="Mail server">
            <FormField
              label="Mail server"
              name="smtpUrl"
              type="password"
              autoComplete="off"
              spellCheck={false}
              hint="smtps://user:password@mail.example.com:465 (or smtp://…:587). Your mail provider's SMTP settings say which."
              value={smtpUrl}
              onChange={(event) => setSmtpUrl(event.target.value)}
              disabled={save.isPending}
            />
            <FormField
              label="Sender"
              name="from"
              optional
              autoComplete="off"
              placeholder="For example: Reelsmith <no-reply@example.com>"
              value={from}
              onChange={(event) => setFrom(event.target.value)}
              disabled={save.isPending}
            />
            <KeyFormFooter
              error={error}
              pending={save.isPending}
              complete={smtpUrl.trim() !== ''}
              pendingLabel="Asking the mail server…"
              label="Test and turn on"
            >
              Paste the mail server&apos;s address to test it.
            </KeyFormFooter>
          </form>
        ) : null}
      </CardContent>
    </Card>
  );
}

/** Who runs this server: shown where people need someone to ask (credits without payments, sign-in without mail). */
function ContactSettings({ contact }: { contact: InstallationSettings['contact'] }) {
  const save = useSaveOperatorContact();
  const [value, setValue] = useState(contact.value ?? '');
  const [error, setError] = useState<string | null>(null);
  const send = (next: string | null) => {
    setError(null);
    save.mutate(next, {
      onSuccess: (settings) => {
        setValue(settings.contact.value ?? '');
        toast({ title: next === null ? 'Contact removed' : 'Contact saved', description: next ?? undefined });
      },
      onError: (failure) => setError(getServerMessage(failure) ?? `Could not save: ${failure.message}`),
    });
  };
  return (
    <Card>
      <CardHeader>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle className="text-lg">Who runs this server</CardTitle>
          {contact.source === 'environment' ? <Badge tone="brand">Set in the environment</Badge> : null}
        </div>
        <CardDescription>
          Shown where people need someone to ask: for credits when payments are off, and on sign-in when mail is off.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {contact.source === 'environment' ? (
          <p className="text-sm">
            {contact.value} (set by OPERATOR_CONTACT in this server&apos;s environment, which wins over this page).
          </p>
        ) : (
          <form
            className="grid gap-3"
            aria-label="Contact"
            onSubmit={(event) => {
              event.preventDefault();
              send(value.trim() === '' ? null : value.trim());
            }}
          >
            <FormField
              label="Email or web address"
              name="contact"
              type="text"
              inputMode="email"
              autoComplete="email"
              placeholder="For example: owner@example.com"
              value={value}
              onChange={(event) => setValue(event.target.value)}
              disabled={save.isPending}
              error={error}
            />
            <div className="flex flex-wrap gap-2">
              <Button type="submit" disabled={save.isPending || value.trim() === (contact.value ?? '')}>
                {save.isPending ? 'Saving…' : 'Save contact'}
              </Button>
              {contact.source === 'saved' ? (
                <Button type="button" variant="outline" disabled={save.isPending} onClick={() => send(null)}>
                  Remove
                </Button>
              ) : null}
            </div>
          </form>
        )}
      </CardContent>
    </Card>
  );
}

/** /admin/settings's content: loading, failure, or the forms. */
export function InstallationSettingsPanel() {
  const settings = useInstallationSettings();
  if (settings.isPending) return <Spinner />;
  if (settings.isError)
    return (
      <p role="alert" className="text-sm text-destructive">
        Could not load the settings: {getServerMessage(settings.error) ?? settings.error.message}
      </p>
    );
  return (
    <div className="grid gap-6">
      {settings.data.previewOnly ? (
        <p className="rounded-md border border-amber-500/40 bg-amber-500/10 p-4 text-sm">
          No AI video model is connected, so this server makes previews only. Connect one below: fal.ai reaches most of
          the catalogue with one key.
        </p>
      ) : null}
      <ProviderSettings settings={settings.data} />
      <div className="grid gap-4 lg:grid-cols-2">
        <PaymentsSettings payments={settings.data.payments} />
        <MailSettingsCard mail={settings.data.mail} />
        <ContactSettings contact={settings.data.contact} />
        <RulesSettingsCard rules={settings.data.rules} />
      </div>
    </div>
  );
}
