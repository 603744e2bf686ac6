import { Clock, Coins, ShieldCheck } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';

import { aiUseOf } from '../../../shared/ai-use';
import { composePrompt, DEFAULT_GENERATION_DURATION } from '../../../shared/generations';
import type { UserStatus } from '../../../shared/auth';
import { describeGenerationPayer, nextGenerationPayer } from '../../../shared/money/display';
import { AppShell } from '../../components/layouts/app-shell';
import { PhoneCollapsible } from '../../components/layouts/phone-collapsible';
import { buttonVariants } from '../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card';
import { toast } from '../../components/ui/use-toast';
import { useCostEstimate } from '../../features/credits/api/estimate-cost';
import { useGenerationStatus } from '../../features/credits/api/get-generation-status';
import { formatCredits, useUserStatus } from '../../features/credits/api/get-user-status';
import { CreditsCard } from '../../features/credits/components/credits-card';
import { usePaymentsConfig } from '../../features/payments/api/get-payments-config';
import { useCreateGeneration } from '../../features/generations/api/create-generation';
import { useModels } from '../../features/generations/api/get-models';
import { GenerationForm } from '../../features/generations/components/generation-form';
import { RecentHistoryCard } from '../../features/generations/components/recent-history-card';
import { useGeneratorForm } from '../../features/generations/hooks/use-generator-form';
import { clearGeneratorDraft, readGeneratorDraft } from '../../features/generations/remix/generator-draft';
import { RemixNotice } from '../../features/generations/remix/remix-notice';
import { unfitInputs } from '../../features/generations/remix/model-fit';
import { MediaInputCard, type MediaInputValue } from '../../features/uploads/components/media-input-card';
import { AiEnhancePanel } from '../../features/prompts/components/ai-enhance-panel';
import { ImageAnalysisCard } from '../../features/prompts/components/image-analysis-card';
import { useImageAnalysis } from '../../features/prompts/hooks/use-image-analysis';
import { usePromptEnhancement } from '../../features/prompts/hooks/use-prompt-enhancement';
import { useFilesCleanup } from '../../features/uploads/hooks/use-files-cleanup';
import { InstallButton } from '../../features/install/components/install-button';
import { GeneratorTourAutoStart, GeneratorTourButton } from '../../features/onboarding/components/generator-tour';
import { getServerMessage } from '../../lib/api-client';
import { useAuth } from '../../lib/auth';

/** Spec section 4: the media player opens 2 seconds after a generation starts. */
const REDIRECT_DELAY_MS = 2000;

function StorageWarningCard() {
  return (
    <Card className="border-amber-500/30 bg-warning text-warning-foreground">
      <CardHeader className="pb-2">
        <CardTitle className="flex items-center gap-2 text-base">
          <Clock aria-hidden="true" className="size-5" /> Important: 24-Hour Video Storage
        </CardTitle>
      </CardHeader>
      <CardContent className="text-sm">
        Your videos and uploads are deleted automatically 24 hours after they are made. Download the videos you want to
        keep.
      </CardContent>
    </Card>
  );
}

/** The storage notice and credits card as one line on phones while folded. */
function NoticesSummary({ status }: { status: UserStatus | undefined }) {
  return (
    <>
      <Clock aria-hidden="true" className="size-4 shrink-0 text-amber-600 dark:text-amber-400" />
      <span className="truncate">Kept 24 hours</span>
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

/** The Create Video screen: inputs, description, settings, cost and the Generate button. */
export function GeneratorPage() {
  const { user, isAuthenticated } = useAuth();
  const [, navigate] = useLocation();
  useFilesCleanup();
  // Remix and Continue open the generator with a video's fields filled in.
  const [draft] = useState(readGeneratorDraft);
  useEffect(() => clearGeneratorDraft(), []);
  const [media, setMedia] = useState<MediaInputValue>(draft?.inputs ?? {});
  const form = useGeneratorForm(draft ?? undefined);
  const enhancement = usePromptEnhancement(form.state.description, form.state.audioEnabled);
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
  // What the description uses of the AI helpers: shown in the cost, sent with the request, charged alike.
  const aiUse = aiUseOf(
    enhancement.promptToSend(form.state.description),
    enhancement.produced,
    imageAnalysis.analysis?.suggestedPrompt,
  );
  const models = useModels();
  const model = form.state.model ?? models.data?.find((m) => m.isDefault)?.id ?? 'local';
  const unfit = unfitInputs(
    models.data?.find((m) => m.id === model),
    media,
  );
  const cost = useCostEstimate(
    {
      userPlan: status.data?.plan,
      duration: DEFAULT_GENERATION_DURATION,
      model,
      hasAudio: form.state.audioEnabled,
      isEconomy: form.state.isEconomy,
      hasPromptEnhancement: aiUse.usedPromptEnhancement,
      hasImageAnalysis: aiUse.usedImageAnalysis,
      hasGeminiOptimization: false,
      batchSize: 1,
    },
    isAuthenticated && models.isFetched,
  );
  const create = useCreateGeneration();
  const redirect = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (redirect.current) clearTimeout(redirect.current);
    },
    [],
  );

  const credits = status.data && !status.data.isUnlimited ? status.data.availableCredits : null;
  const balanceKnown = status.data !== undefined && !generationStatus.isPending;
  const handleGenerate = () => {
    const { state } = form;
    create.mutate(
      {
        prompt: composePrompt(enhancement.promptToSend(state.description), {
          enabled: state.audioEnabled,
          description: state.audioDescription,
        }),
        jsonPrompt: state.advancedSettings,
        imageFile: media.image ?? null,
        videoFile: media.video ?? null,
        audioFile: media.audio ?? null,
        hasAudio: state.audioEnabled,
        isEconomy: state.isEconomy,
        ...aiUse,
        duration: DEFAULT_GENERATION_DURATION,
        ...(state.model ? { model: state.model } : {}),
      },
      {
        onSuccess: (record) => {
          toast({
            title: 'Video Generation Started',
            description: 'Redirecting to media player to monitor progress...',
            duration: 3000,
          });
          form.clear();
          enhancement.toggle(false);
          imageAnalysis.clear();
          setMedia({});
          // The media page opens on this video and follows it until it plays (decision 011).
          redirect.current = setTimeout(
            () => navigate(`/media?video=${encodeURIComponent(record.id)}`),
            REDIRECT_DELAY_MS,
          );
        },
        onError: (error) => {
          toast({
            title: 'Generation Failed',
            description: getServerMessage(error) ?? error.message,
            variant: 'destructive',
          });
        },
      },
    );
  };

  return (
    <AppShell
      title="Create Video"
      subtitle="Upload and describe"
      // The page's own Admin Dashboard button (spec) replaces the header's link here.
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
          <PhoneCollapsible className="order-1" summary={<NoticesSummary status={status.data} />}>
            <div className="grid gap-3 lg:gap-6">
              <StorageWarningCard />
              <CreditsCard
                status={status.data}
                cost={cost}
                payer={payer}
                tourButton={<GeneratorTourButton />}
                uses={{ hasAudio: form.state.audioEnabled, ...aiUse }}
                paymentsEnabled={paymentsConfig.data?.enabled}
              />
            </div>
          </PhoneCollapsible>
          <div className="order-3">
            <RecentHistoryCard />
          </div>
        </aside>
        <div className="order-2 grid gap-6 lg:col-start-1 lg:row-start-1">
          {draft ? <RemixNotice origin={draft.origin} /> : null}
          <MediaInputCard value={media} onChange={handleMediaChange} />
          <ImageAnalysisCard state={imageAnalysis} onUseSuggestion={form.setDescription} />
          <GenerationForm
            form={form}
            cost={cost.totalCost}
            credits={balanceKnown ? credits : undefined}
            allowanceNote={describeGenerationPayer(payer)}
            pending={create.isPending}
            problem={unfit}
            onGenerate={handleGenerate}
            descriptionAddon={<AiEnhancePanel enhancement={enhancement} onUseEnhanced={form.setDescription} />}
          />
        </div>
      </div>
    </AppShell>
  );
}
