import type { z } from 'zod';
import {
  type InstallationSettings,
  keyHint,
  type OperatorContactBody,
  operatorContactBodySchema,
  PROVIDER_IDS,
  type MailSettings,
  mailSettingsSchema,
  type StripeKeys,
  stripeKeysSchema,
  PROVIDER_KEY_REFUSED_CODE,
  RULE_VARIABLES,
  type RuleName,
  type RulesSettings,
  rulesSettingsSchema,
  PROVIDER_UNREACHABLE_CODE,
  type ProviderId,
  type ProviderKeys,
  providerFormOf,
  providerKeysSchema,
  SET_BY_ENVIRONMENT_CODE,
} from '../../../shared/installation-settings';
import { isPreviewOnly } from '../../../shared/installation';
import type { ModelInfo } from '../../../shared/models';
import { providersSetByEnvironment, type SavedProviders, withSavedProviders } from '../../config-providers';
import type { ServiceContext } from '../../context';
import type { StopListening } from '../../db/listen-notify';
import { checkProviderKeys } from '../../engines/key-checks';
import { AppError, conflict, notFound } from '../../lib/app-error';
import { verifyMailServer } from '../../lib/mailer';
import { openText, sealText } from '../../lib/sealed-text';
import { checkStripeKeys } from '../../stripe/key-check';
import * as repo from './settings.repository';

/** The sealed texts' purpose: a key sealed for settings opens nowhere else. */
const SEAL_PURPOSE = 'installation-settings';
/** The operator's contact's row and Stripe's (beside one row per provider). */
const CONTACT = 'operator_contact';
const STRIPE = 'stripe';
const MAIL = 'mail';
const RULES = 'rules';

export interface SettingsLog {
  warn(details: object, message: string): void;
}

/** A provider's reason as a clause of our sentence: without its own closing full stop. */
const clause = (reason: string) => reason.replace(/[.\s]+$/, '');

/** Who changes a setting (an administrator's session). */
export interface SettingsActor {
  label: string;
  userId: string;
}

/** The engine kind of the catalogue each provider's key brings. */
const ENGINE_OF: Record<ProviderId, ModelInfo['engine'] | null> = {
  fal: 'fal',
  replicate: 'replicate',
  gemini: 'veo',
  kling: 'kling',
  comfyui: 'comfyui',
  llm: null,
};

interface SavedRead {
  saved: SavedProviders;
  rows: Awaited<ReturnType<typeof repo.listSettings>>;
  /** Rows this installation's secret cannot open (sealed under another SESSION_SECRET). */
  unreadable: Set<string>;
}

/** An address as shown to administrators: never a user or password written into it. */
function withoutCredentials(address: string): string {
  try {
    const url = new URL(address);
    url.username = '';
    url.password = '';
    return url.toString().replace(/\/$/, '');
  } catch {
    return address;
  }
}

/** A mail server's address as shown: host and port, never its user or password. */
function mailServerOf(smtpUrl: string): string {
  try {
    const url = new URL(smtpUrl);
    return `${url.protocol}//${url.host}`;
  } catch {
    return 'smtp';
  }
}

/** A saved setting's opened text as its schema's value, or null when it is not one. */
function readJson<T extends z.ZodType>(schema: T, plain: string | null): z.infer<T> | null {
  if (plain === null) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(plain));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

async function readSaved(ctx: ServiceContext): Promise<SavedRead> {
  const rows = await repo.listSettings(ctx.db);
  const saved: SavedProviders = {};
  const unreadable = new Set<string>();
  for (const row of rows) {
    const plain = openText(ctx.secret, SEAL_PURPOSE, row.sealed);
    if (row.name === MAIL) {
      const mail = readJson(mailSettingsSchema, plain);
      if (mail) saved.mail = mail;
      else unreadable.add(row.name);
      continue;
    }
    if (row.name === RULES) {
      const rules = readJson(rulesSettingsSchema, plain);
      if (rules) saved.rules = rules;
      else unreadable.add(row.name);
      continue;
    }
    if (row.name === STRIPE) {
      const keys = readJson(stripeKeysSchema, plain);
      if (keys) saved.stripe = keys;
      else unreadable.add(row.name);
      continue;
    }
    if (row.name === CONTACT) {
      const contact = readJson(operatorContactBodySchema, plain)?.contact;
      if (contact) saved.operatorContact = contact;
      else unreadable.add(row.name);
      continue;
    }
    const keys = readJson(providerKeysSchema, plain);
    if (!keys || keys.provider !== row.name) {
      unreadable.add(row.name);
      continue;
    }
    Object.assign(saved, { [keys.provider]: keys });
  }
  return { saved, rows, unreadable };
}

/** Reads the saved settings and puts them in effect in this process. */
export async function applySavedSettings(ctx: ServiceContext, log?: SettingsLog): Promise<void> {
  const { saved, unreadable } = await readSaved(ctx);
  if (unreadable.size > 0)
    log?.warn(
      { providers: [...unreadable] },
      'Saved provider keys cannot be opened with this installation secret (SESSION_SECRET changed?): save them again on the settings page',
    );
  const next = withSavedProviders(ctx.baseConfig, saved);
  // Nothing saved, and only the environment in effect: the engines built at start stand (no second
  // build of the catalogue at every start, or at every job whose model cannot run).
  if (next !== ctx.config) ctx.reconfigure(next);
}

/**
 * Puts the saved settings in effect now and whenever any process changes them (NOTIFY), and after
 * the listening connection comes back (a change may have been missed). Resolves once listening.
 */
export async function followInstallationSettings(ctx: ServiceContext, log: SettingsLog): Promise<StopListening> {
  // One reload at a time, and one more after it when nudged meanwhile.
  let running: Promise<void> | null = null;
  let again = false;
  const reload = () => {
    if (running) {
      again = true;
      return;
    }
    running = applySavedSettings(ctx, log)
      .catch((error: unknown) => log.warn({ err: error }, 'Could not read the saved settings'))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          reload();
        }
      });
  };
  await applySavedSettings(ctx, log);
  return ctx.database.listen(repo.SETTINGS_CHANNEL, {
    onPayload: reload,
    onReconnect: reload,
    onError: (error) => log.warn({ err: error }, 'The settings listener lost its connection'),
  });
}

/** The settings page's view: each provider, where its settings come from, and the models it brings now. */
export async function installationSettings(ctx: ServiceContext): Promise<InstallationSettings> {
  const { rows, unreadable, saved } = await readSaved(ctx);
  const fromEnvironment = providersSetByEnvironment(ctx.baseConfig);
  const models = ctx.engines.list();
  const base = ctx.baseConfig;
  const environmentHint = (id: ProviderId): string | null => {
    if (id === 'fal') return base.fal ? keyHint(base.fal.apiKey) : null;
    if (id === 'replicate') return base.replicate ? keyHint(base.replicate.apiToken) : null;
    if (id === 'gemini') return base.gemini ? keyHint(base.gemini.apiKey) : null;
    if (id === 'kling') return base.kling ? keyHint(base.kling.accessKey) : null;
    if (id === 'llm') return base.llm ? `${base.llm.model} at ${withoutCredentials(base.llm.baseUrl)}` : null;
    return base.comfyui ? base.comfyui.url : null;
  };
  const savedContact = rows.some((r) => r.name === CONTACT) && !unreadable.has(CONTACT);
  const stripeRow = unreadable.has(STRIPE) ? undefined : rows.find((r) => r.name === STRIPE);
  const stripe = ctx.config.stripe;
  const mailRow = unreadable.has(MAIL) ? undefined : rows.find((r) => r.name === MAIL);
  const mail = ctx.config.accounts.mail;
  const savedRules = saved.rules ?? {};
  const ruleSource = (rule: RuleName) =>
    base.rulesFromEnvironment.has(rule) ? 'environment' : savedRules[rule] !== undefined ? 'saved' : 'none';
  const config = ctx.config;
  return {
    rules: {
      videoHours: { value: config.retention.videoHours, source: ruleSource('videoHours') },
      keepFor: { value: config.retention.keepFor, source: ruleSource('keepFor') },
      signupCreditsHundredths: {
        value: config.accounts.signupCreditsHundredths,
        source: ruleSource('signupCreditsHundredths'),
      },
      registrationOpen: { value: config.accounts.registrationOpen, source: ruleSource('registrationOpen') },
      registrationChallenge: {
        value: config.registrationChallenge !== undefined,
        source: ruleSource('registrationChallenge'),
      },
    },
    mail: {
      source: base.accounts.mail ? 'environment' : mailRow ? 'saved' : 'none',
      server: mail ? mailServerOf(mail.smtpUrl) : null,
      from: mail?.from ?? null,
      savedAt: !base.accounts.mail && mailRow ? mailRow.updatedAt.toISOString() : null,
    },
    payments: {
      source: base.stripe ? 'environment' : stripeRow ? 'saved' : 'none',
      hint: stripe ? keyHint(stripe.secretKey) : null,
      savedAt: !base.stripe && stripeRow ? stripeRow.updatedAt.toISOString() : null,
      mode: stripe ? (stripe.secretKey.includes('_live_') ? 'live' : 'test') : null,
      webhookSecret: Boolean(stripe?.webhookSecret),
      webhookUrl: `${ctx.config.publicUrl}/api/stripe/webhook`,
    },
    contact: {
      source: base.operatorContact ? 'environment' : savedContact ? 'saved' : 'none',
      value: ctx.config.operatorContact ?? null,
    },
    providers: PROVIDER_IDS.map((id) => {
      const row = rows.find((r) => r.name === id);
      const source = fromEnvironment.has(id) ? 'environment' : row && !unreadable.has(id) ? 'saved' : 'none';
      return {
        id,
        source,
        hint: source === 'environment' ? environmentHint(id) : source === 'saved' ? (row?.hint ?? null) : null,
        savedAt: source === 'saved' && row ? row.updatedAt.toISOString() : null,
        unreadable: source !== 'environment' && unreadable.has(id),
        models: models.filter((m) => m.available && m.engine === ENGINE_OF[id]).map((m) => m.name),
      };
    }),
    previewOnly: isPreviewOnly(models),
    setup: {
      payments: Boolean(ctx.config.stripe),
      mail: Boolean(ctx.config.accounts.mail),
      operatorContact: Boolean(ctx.config.operatorContact),
    },
  };
}

function setByEnvironment(id: ProviderId): AppError {
  const names = providerFormOf(id).fields.map((f) => f.env);
  return conflict(
    `${providerFormOf(id).name} is set in this server's environment (${names.join(', ')}), which wins over this page. Change it there.`,
    SET_BY_ENVIRONMENT_CODE,
  );
}

/**
 * Tries the keys with the provider's harmless call, then saves them sealed and puts them in effect
 * in every process. A refused key, or a provider that cannot be reached, saves nothing.
 */
export async function saveProviderKeys(
  ctx: ServiceContext,
  actor: SettingsActor,
  keys: ProviderKeys,
): Promise<InstallationSettings> {
  const form = providerFormOf(keys.provider);
  if (providersSetByEnvironment(ctx.baseConfig).has(keys.provider)) throw setByEnvironment(keys.provider);
  const check = await checkProviderKeys(ctx.baseConfig.providerDefaults, keys);
  if (!check.ok) {
    throw check.refused
      ? new AppError(
          422,
          PROVIDER_KEY_REFUSED_CODE,
          `${form.name} refused this: ${clause(check.reason)}. Nothing was saved.`,
        )
      : new AppError(
          502,
          PROVIDER_UNREACHABLE_CODE,
          `Could not check this with ${form.name} (${clause(check.reason)}). Nothing was saved: try again in a moment.`,
        );
  }
  const hint =
    keys.provider === 'comfyui'
      ? keys.url
      : keys.provider === 'llm'
        ? `${keys.model} at ${withoutCredentials(keys.url)}`
        : keyHint(
            keys.provider === 'replicate' ? keys.apiToken : keys.provider === 'kling' ? keys.accessKey : keys.apiKey,
          );
  return saveSealed(ctx, actor, { name: keys.provider, value: keys, hint, action: 'settings.provider.save' });
}

/** Forgets a provider's saved keys, in every process; its models stop being offered. */
export async function removeProviderKeys(
  ctx: ServiceContext,
  actor: SettingsActor,
  id: ProviderId,
): Promise<InstallationSettings> {
  if (providersSetByEnvironment(ctx.baseConfig).has(id)) throw setByEnvironment(id);
  return removeSaved(ctx, actor, {
    name: id,
    action: 'settings.provider.remove',
    missing: `No ${providerFormOf(id).name} keys are saved.`,
  });
}

/**
 * Saves who runs this server (null forgets it), shown wherever people need someone to ask. Not a
 * secret, but kept like the keys (one table, one way to every process).
 */
export async function saveOperatorContact(
  ctx: ServiceContext,
  actor: SettingsActor,
  { contact }: OperatorContactBody,
): Promise<InstallationSettings> {
  if (ctx.baseConfig.operatorContact)
    throw conflict(
      "The contact is set in this server's environment (OPERATOR_CONTACT), which wins over this page. Change it there.",
      SET_BY_ENVIRONMENT_CODE,
    );
  const change = { actor: actor.label, actorUserId: actor.userId };
  await ctx.db.transaction(async (tx) => {
    if (contact === null) await repo.removeSetting(tx, CONTACT, { ...change, action: 'settings.contact.remove' });
    else
      await repo.saveSetting(
        tx,
        {
          name: CONTACT,
          sealed: sealText(ctx.secret, SEAL_PURPOSE, JSON.stringify({ contact })),
          hint: contact,
          updatedBy: actor.userId,
        },
        { ...change, action: 'settings.contact.save' },
      );
  });
  await applySavedSettings(ctx);
  return installationSettings(ctx);
}

/** Seals one setting's value and saves it with its audit row and the nudge; then this process uses it. */
async function saveSealed(
  ctx: ServiceContext,
  actor: SettingsActor,
  setting: { name: string; value: unknown; hint: string; action: string },
): Promise<InstallationSettings> {
  await ctx.db.transaction((tx) =>
    repo.saveSetting(
      tx,
      {
        name: setting.name,
        sealed: sealText(ctx.secret, SEAL_PURPOSE, JSON.stringify(setting.value)),
        hint: setting.hint,
        updatedBy: actor.userId,
      },
      { actor: actor.label, actorUserId: actor.userId, action: setting.action },
    ),
  );
  await applySavedSettings(ctx);
  return installationSettings(ctx);
}

/** Forgets one saved setting (404 with `missing` when none was saved), everywhere. */
async function removeSaved(
  ctx: ServiceContext,
  actor: SettingsActor,
  setting: { name: string; action: string; missing: string },
): Promise<InstallationSettings> {
  const removed = await ctx.db.transaction((tx) =>
    repo.removeSetting(tx, setting.name, { actor: actor.label, actorUserId: actor.userId, action: setting.action }),
  );
  if (!removed) throw notFound(setting.missing, 'setting_not_found');
  await applySavedSettings(ctx);
  return installationSettings(ctx);
}

const STRIPE_ENVIRONMENT =
  "Stripe is set in this server's environment (STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY), which wins over this page. Change it there.";

/** Tries Stripe's keys with a balance read, then saves them sealed: payments are on in every process. */
export async function saveStripeKeys(
  ctx: ServiceContext,
  actor: SettingsActor,
  keys: StripeKeys,
): Promise<InstallationSettings> {
  if (ctx.baseConfig.stripe) throw conflict(STRIPE_ENVIRONMENT, SET_BY_ENVIRONMENT_CODE);
  const check = await checkStripeKeys(keys, ctx.baseConfig.providerDefaults.stripeApiUrl);
  if (!check.ok) {
    throw check.refused
      ? new AppError(422, PROVIDER_KEY_REFUSED_CODE, `Stripe refused this: ${clause(check.reason)}. Nothing was saved.`)
      : new AppError(
          502,
          PROVIDER_UNREACHABLE_CODE,
          `Could not check this with Stripe (${clause(check.reason)}). Nothing was saved: try again in a moment.`,
        );
  }
  return saveSealed(ctx, actor, {
    name: STRIPE,
    value: keys,
    hint: keyHint(keys.secretKey),
    action: 'settings.payments.save',
  });
}

/** Forgets Stripe's saved keys: payments are off again (purchases say so, with the operator's contact). */
export async function removeStripeKeys(ctx: ServiceContext, actor: SettingsActor): Promise<InstallationSettings> {
  if (ctx.baseConfig.stripe) throw conflict(STRIPE_ENVIRONMENT, SET_BY_ENVIRONMENT_CODE);
  return removeSaved(ctx, actor, {
    name: STRIPE,
    action: 'settings.payments.remove',
    missing: 'No Stripe keys are saved.',
  });
}

const MAIL_ENVIRONMENT =
  "Mail is set in this server's environment (SMTP_URL), which wins over this page. Change it there.";

/** Asks the mail server whether it takes our login (nothing is sent), then saves it sealed: mail goes out at once. */
export async function saveMailSettings(
  ctx: ServiceContext,
  actor: SettingsActor,
  mail: MailSettings,
): Promise<InstallationSettings> {
  if (ctx.baseConfig.accounts.mail) throw conflict(MAIL_ENVIRONMENT, SET_BY_ENVIRONMENT_CODE);
  const check = await verifyMailServer(mail.smtpUrl);
  if (!check.ok) {
    throw check.refused
      ? new AppError(
          422,
          PROVIDER_KEY_REFUSED_CODE,
          `The mail server refused this: ${clause(check.reason)}. Nothing was saved.`,
        )
      : new AppError(
          502,
          PROVIDER_UNREACHABLE_CODE,
          `Could not reach the mail server (${clause(check.reason)}). Nothing was saved: check the address and try again.`,
        );
  }
  return saveSealed(ctx, actor, {
    name: MAIL,
    value: mail,
    hint: mailServerOf(mail.smtpUrl),
    action: 'settings.mail.save',
  });
}

/** Forgets the saved mail server: password resets by mail stop, as on a server without SMTP_URL. */
export async function removeMailSettings(ctx: ServiceContext, actor: SettingsActor): Promise<InstallationSettings> {
  if (ctx.baseConfig.accounts.mail) throw conflict(MAIL_ENVIRONMENT, SET_BY_ENVIRONMENT_CODE);
  return removeSaved(ctx, actor, { name: MAIL, action: 'settings.mail.remove', missing: 'No mail server is saved.' });
}

/**
 * Saves the installation's rules (each rule left out goes back to the environment's value, or the
 * product's default) and puts them in effect in every process. A rule the environment sets is refused.
 */
export async function saveRules(
  ctx: ServiceContext,
  actor: SettingsActor,
  rules: RulesSettings,
): Promise<InstallationSettings> {
  const fixed = (Object.keys(rules) as RuleName[]).filter((rule) => ctx.baseConfig.rulesFromEnvironment.has(rule));
  if (fixed.length > 0) {
    const names = fixed.map((rule) => RULE_VARIABLES[rule]).join(', ');
    throw conflict(
      `This server's environment sets ${names}, which wins over this page. Change it there, or leave it out.`,
      SET_BY_ENVIRONMENT_CODE,
    );
  }
  return saveSealed(ctx, actor, { name: RULES, value: rules, hint: '', action: 'settings.rules.save' });
}
