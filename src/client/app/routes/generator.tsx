import { CalendarClock, Clock, Coins, Info, ShieldCheck } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';

import { type AiResultIds, DEFAULT_GENERATION_DURATION, parseAdvancedSettings } from '../../../shared/generations';
import { CONSENT_REQUIRED_CODE, CONTENT_POLICY_CODE } from '../../../shared/moderation';
import type { UserStatus } from '../../../shared/auth';
import { isPreviewOnly } from '../../../shared/installation';
import { toCredits } from '../../../shared/money/credits';
import { describeGenerationPayer, nextGenerationPayer } from '../../../shared/money/display';
import { AppShell } from '../../components/layouts/app-shell';
import { PhoneCollapsible } from '../../components/layouts/phone-collapsible';
import { buttonVariants } from '../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card';
import { toast } from '../../components/ui/use-toast';
import { useGenerationStatus } from '../../features/credits/api/get-generation-status';
import { formatCredits, useUserStatus } from '../../features/credits/api/get-user-status';
import { CreditsCard } from '../../features/credits/components/credits-card';
import { usePaymentsConfig } from '../../features/payments/api/get-payments-config';
import { OperatorContact } from '../../features/payments/components/operator-contact';
import { useCreateGeneration } from '../../features/generations/api/create-generation';
import { useModels } from '../../features/generations/api/get-models';
import { CompareModelPicker } from '../../features/generations/components/compare-model-picker';
import { GenerationForm } from '../../features/generations/components/generation-form';
import { LikenessConsent } from '../../features/generations/components/likeness-consent';
import { PreviewOnlyNotice } from '../../features/generations/components/preview-only-notice';
import { RecentHistoryCard } from '../../features/generations/components/recent-history-card';
import {
  rememberControls,
  rememberedControls,
  splitControls,
} from '../../features/generations/controls/video-controls';
import { useGeneratorForm } from '../../features/generations/hooks/use-generator-form';
import { clearGeneratorDraft, readGeneratorDraft } from '../../features/generations/remix/generator-draft';
import { RemixNotice } from '../../features/generations/remix/remix-notice';
import { MediaInputCard, type MediaInputValue } from '../../features/uploads/components/media-input-card';
import {
  KeyframeInputs,
  type KeyframeValue,
  unavailableInputs,
} from '../../features/uploads/components/keyframe-inputs';
import { AiEnhancePanel } from '../../features/prompts/components/ai-enhance-panel';
import { ImageAnalysisCard } from '../../features/prompts/components/image-analysis-card';
import { useImageAnalysis } from '../../features/prompts/hooks/use-image-analysis';
import { usePromptEnhancement } from '../../features/prompts/hooks/use-prompt-enhancement';
import { useFilesCleanup } from '../../features/uploads/hooks/use-files-cleanup';
import { InstallButton } from '../../features/install/components/install-button';
import { GeneratorTourAutoStart, GeneratorTourButton } from '../../features/onboarding/components/generator-tour';
import { ApiError, getServerMessage } from '../../lib/api-client';
import { useAuth } from '../../lib/auth';
import { quoteGeneration } from '../generator-quote';
import { retentionTitle, retentionWords } from '../../lib/retention';

/** Screens (docs/product-rules.md): the media player opens 2 seconds after a generation starts. */
const REDIRECT_DELAY_MS = 2000;

function StorageWarningCard() {
  return (
    <Card className="border-amber-500/30 bg-warning text-warning-foreground">
      <CardHeader className="pb-2">
        <CardTitle className="flex items-center gap-2 text-base">
          <Clock aria-hidden="true" className="size-5" /> Important: {retentionTitle()} Video Storage
        </CardTitle>
      </CardHeader>
      <CardContent className="text-sm">
        Your videos and uploads are deleted automatically {retentionWords()} after they are made. Download the videos
        you want to keep.
      </CardContent>
    </Card>
  );
}

/** The storage notice and credits card as one line on phones while folded. */
function NoticesSummary({ status, previewOnly }: { status: UserStatus | undefined; previewOnly: boolean }) {
  // One line at 390 px: on a server with previews only, that says it in place of the retention (inside, in full).
  return (
    <>
      {previewOnly ? (
        <>
          <Info aria-hidden="true" className="size-4 shrink-0 text-amber-700 dark:text-amber-300" />
          <span className="shrink-0">Previews only</span>
        </>
      ) : (
        <>
          <Clock aria-hidden="true" className="size-4 shrink-0 text-amber-600 dark:text-amber-400" />
          <span className="truncate">Kept {retentionWords()}</span>
        </>
      )}
      <span aria-hidden="true" className="text-muted-foreground">
        ·
      </span>
      <Coins aria-hidden="true" className="size-4 shrink-0 text-violet-700 dark:text-violet-300" />
      <span className="truncate">
        {status ? (status.isUnlimited ? 'Unlimited' : formatCredits(status)) : 'Credits'}
      </span>
    </>
  );
}

/** Where a price exceeds the balance: the way to get more, right there (or who to ask, where payments are not set up). */
function MoreCredits({ paymentsEnabled }: { paymentsEnabled: boolean | undefined }) {
  if (paymentsEnabled === undefined) return null;
  if (!paymentsEnabled) return <OperatorContact className="block text-sm font-normal text-foreground" />;
  return (
    <span className="flex flex-wrap gap-2">
      <Link href="/credits" className={buttonVariants({ variant: 'outline', size: 'sm' })}>
        <Coins aria-hidden="true" /> Buy Credits
      </Link>
      <Link href="/subscribe" className={buttonVariants({ variant: 'outline', size: 'sm' })}>
        <CalendarClock aria-hidden="true" /> Subscribe
      </Link>
    </span>
  );
}

/** The Create Video screen: inputs, description, settings, cost and the Generate button. */
export function GeneratorPage() {
  const { user, isAuthenticated } = useAuth();
  const [, navigate] = useLocation();
  useFilesCleanup();
  // Remix and Continue open the generator with a video's fields filled in.
  const [draft] = useState(readGeneratorDraft);
  useEffect(() => clearGeneratorDraft(), []);
  const [media, setMedia] = useState<MediaInputValue>(draft?.inputs ?? {});
  // Keyframes and reference images, offered when the chosen model takes them.
  const [keyframes, setKeyframes] = useState<KeyframeValue>(draft?.keyframes ?? { referenceImages: [] });
  // A Remix brings its video's shape and camera; otherwise this user's last picks (this browser).
  const [initial] = useState(() => {
    const split = splitControls(draft?.advancedSettings ?? '');
    const controls = draft ? split.controls : rememberedControls(user?.id);
    return { ...(draft ?? {}), advancedSettings: split.advancedSettings, controls };
  });
  const form = useGeneratorForm(initial);
  useEffect(() => rememberControls(user?.id, form.state.controls), [user?.id, form.state.controls]);
  const enhancement = usePromptEnhancement(form.state.description, form.state.audioEnabled, form.state.aiResultIds);
  const imageAnalysis = useImageAnalysis();
  const handleMediaChange = (next: MediaInputValue) => {
    if (next.image !== media.image) {
      if (next.image) imageAnalysis.start(next.image);
      else imageAnalysis.clear();
    }
    setMedia(next);
  };
  const status = useUserStatus({ enabled: isAuthenticated });
  // Daily and extra generations pay before credits; without this status, credits decide.
  const generationStatus = useGenerationStatus({ enabled: isAuthenticated });
  const paymentsConfig = usePaymentsConfig();
  const payer = nextGenerationPayer(status.data?.isUnlimited ?? false, generationStatus.data);
  // What Generate sends, with the AI results its text came from: shown in the cost, named in the request, charged alike.
  const toSend = enhancement.toSend();
  const models = useModels();
  // 'Use Enhanced' puts the AI's text in the description: the user's own words before it are kept
  // while the description is still that text, so a price over the balance has a way out there too.
  const [ownWords, setOwnWords] = useState<{ aiText: string; own: string } | null>(null);
  const applyEnhanced = (text: string, aiResultIds: AiResultIds) => {
    const own = form.state.description;
    // Only the user's own words: a description that is itself an AI result (Use This) has no add-on-free version.
    setOwnWords(Object.keys(form.state.aiResultIds).length === 0 && own.trim() ? { aiText: text, own } : null);
    form.setDescription(text, aiResultIds);
  };
  // Variations: Generate makes this many videos with different seeds, priced as that many.
  const [variations, setVariations] = useState(1);
  // Compare: the same request on a second model too.
  const [compareId, setCompareId] = useState<string | null>(null);
  const quote = quoteGeneration({
    models: models.data,
    state: form.state,
    media,
    keyframes,
    toSend,
    enhancing: enhancement.enabled,
    beforeEnhanced: ownWords && ownWords.aiText === form.state.description ? ownWords.own : null,
    compareId,
    variations,
  });
  const { model, fitted, inputFields, unfit, price, plain, economyFitted, economyTotal, candidates, compareModel } =
    quote;
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

  const credits = status.data && !status.data.isUnlimited ? status.data.availableCredits : null;
  const balanceKnown = status.data !== undefined && !generationStatus.isPending;
  const handleGenerate = (withoutAddOns = false) => {
    const { state } = form;
    const sent = withoutAddOns && plain ? plain : toSend;
    // The same check and sentence as under the Advanced Settings box, before anything is sent.
    const settings = parseAdvancedSettings(state.advancedSettings);
    if (!settings.ok) {
      toast({ title: 'Generation Failed', description: settings.message, variant: 'destructive' });
      return;
    }
    // The shape and camera go as the request's own fields; the settings keep the rest (seed, negative prompt).
    const { aspectRatio, resolution, cameraMove, ...rest } = settings.settings;
    const controls = fitted
      ? {
          aspectRatio: fitted.aspectRatio,
          resolution: fitted.resolution,
          duration: fitted.duration,
          ...(fitted.cameraMove ? { cameraMove: fitted.cameraMove } : {}),
        }
      : { aspectRatio, resolution, cameraMove, duration: DEFAULT_GENERATION_DURATION };
    create.mutate(
      {
        description: sent.text,
        ...(state.audioEnabled ? { audioDescription: state.audioDescription } : {}),
        settings: rest,
        aiResultIds: sent.aiResultIds,
        ...inputFields,
        hasAudio: state.audioEnabled,
        isEconomy: state.isEconomy,
        ...controls,
        ...(state.model ? { model: state.model } : {}),
        variations: compareModel ? 1 : variations,
        ...(compareModel ? { compareModel: compareModel.id } : {}),
        ...(consentAsked && consentGiven ? { consentToLikeness: true } : {}),
      },
      {
        onSuccess: (record) => {
          toast({
            title: 'Video Generation Started',
            description: 'Redirecting to media player to monitor progress...',
            duration: 3000,
          });
          form.clear();
          setOwnWords(null);
          setVariations(1);
          setCompareId(null);
          setConsentAsked(false);
          setConsentGiven(false);
          enhancement.toggle(false);
          imageAnalysis.clear();
          setMedia({});
          setKeyframes({ referenceImages: [] });
          // The media page opens on this video and follows it until it plays (decision 011).
          redirect.current = setTimeout(
            () => navigate(`/media?video=${encodeURIComponent(record.id)}`),
            REDIRECT_DELAY_MS,
          );
        },
        onError: (error) => {
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
        },
      },
    );
  };

  return (
    <AppShell
      title="Create Video"
      subtitle="Upload and describe"
      // The page's own Admin Dashboard button (docs/product-rules.md, Screens) replaces the header's link here.
      showAdminLink={false}
      actions={
        <div className="flex flex-wrap gap-2">
          <InstallButton />
          {user?.isAdmin ? (
            <Link href="/admin" className={buttonVariants({ variant: 'outline' })}>
              <ShieldCheck aria-hidden="true" /> Admin Dashboard
            </Link>
          ) : null}
        </div>
      }
    >
      <GeneratorTourAutoStart />
      {/* Phones: notices and credits first, then the form, then recent videos; desktops: a side column. */}
      <div className="flex flex-col gap-6 pb-24 lg:grid lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start">
        <aside className="contents lg:sticky lg:top-20 lg:col-start-2 lg:row-start-1 lg:flex lg:flex-col lg:gap-6">
          {/* On phones both fold into one line, so the description box is on the first screen. */}
          <PhoneCollapsible
            className="order-1"
            summary={
              <NoticesSummary status={status.data} previewOnly={models.data ? isPreviewOnly(models.data) : false} />
            }
          >
            <div className="grid gap-3 lg:gap-6">
              <PreviewOnlyNotice models={models.data} isAdmin={user?.isAdmin ?? false} />
              <StorageWarningCard />
              <CreditsCard
                status={status.data}
                price={price}
                itemised={model !== undefined}
                payer={payer}
                tourButton={<GeneratorTourButton />}
                paymentsEnabled={paymentsConfig.data?.enabled}
                whoToAsk={<OperatorContact />}
              />
            </div>
          </PhoneCollapsible>
          <div className="order-3">
            <RecentHistoryCard />
          </div>
        </aside>
        <div className="order-2 grid gap-6 lg:col-start-1 lg:row-start-1">
          {draft ? <RemixNotice origin={draft.origin} gone={draft.gone} /> : null}
          <MediaInputCard
            value={media}
            onChange={handleMediaChange}
            names={draft?.origin === 'continue' ? { image: 'Last frame of your video' } : undefined}
            unavailable={unavailableInputs(model, inputFields.referenceImageFiles)}
          />
          <KeyframeInputs
            model={model}
            startImage={media.image}
            onStartImageChange={(image) => {
              const { image: _old, ...rest } = media;
              handleMediaChange(image ? { ...rest, image } : rest);
            }}
            value={keyframes}
            onChange={setKeyframes}
          />
          <ImageAnalysisCard state={imageAnalysis} onUseSuggestion={form.setDescription} />
          <GenerationForm
            form={form}
            cost={toCredits(quote.totalPrice)}
            variations={variations}
            onVariationsChange={(count) => {
              setVariations(count);
              // Variations and Compare are either-or (the server refuses both at once).
              if (count > 1) setCompareId(null);
            }}
            comparing={compareModel !== null}
            compare={
              <CompareModelPicker
                candidates={candidates}
                value={compareModel?.id ?? null}
                onChange={(id) => {
                  setCompareId(id);
                  if (id) setVariations(1);
                }}
                prices={
                  compareModel && model && credits !== null && !describeGenerationPayer(payer)
                    ? [
                        { name: model.name, cost: toCredits(price.total) },
                        { name: compareModel.name, cost: toCredits(quote.comparedPrice) },
                      ]
                    : null
                }
              />
            }
            credits={balanceKnown ? credits : undefined}
            consent={
              consentAsked ? (
                <LikenessConsent checked={consentGiven} onChange={setConsentGiven} inputRef={consentBox} />
              ) : null
            }
            allowanceNote={describeGenerationPayer(payer)}
            pending={create.isPending}
            problem={unfit}
            fitted={fitted}
            onGenerate={() => handleGenerate()}
            withoutAddOns={
              plain && credits !== null && credits !== undefined && toCredits(quote.plainTotal) <= credits
                ? {
                    cost: toCredits(quote.plainTotal),
                    onGenerate: () => handleGenerate(true),
                    ...(plain.text !== form.state.description ? { ownWords: plain.text } : {}),
                  }
                : null
            }
            economyPath={
              economyFitted &&
              economyTotal !== null &&
              !compareModel &&
              credits !== null &&
              credits !== undefined &&
              toCredits(economyTotal * variations) <= credits
                ? {
                    cost: toCredits(economyTotal * variations),
                    resolution: economyFitted.resolution,
                    onSwitch: () => form.setEconomy(true),
                  }
                : null
            }
            shortfallHelp={<MoreCredits paymentsEnabled={paymentsConfig.data?.enabled} />}
            descriptionAddon={<AiEnhancePanel enhancement={enhancement} onUseEnhanced={applyEnhanced} />}
          />
        </div>
      </div>
    </AppShell>
  );
}
