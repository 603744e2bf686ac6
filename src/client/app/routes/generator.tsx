import type { QueryClient } from '@tanstack/react-query';
import { ShieldCheck } from 'lucide-react';
import { Link } from 'wouter';

import { toCredits } from '../../../shared/money/credits';
import { describeGenerationPayer, nextGenerationPayer } from '../../../shared/money/display';
import { AppShell } from '../../components/layouts/app-shell';
import { buttonVariants } from '../../components/ui/button';
import { CharacterPicker } from '../../features/characters/components/character-picker';
import { balanceQueryOptions } from '../../features/credits/api/get-balance';
import { useGenerationStatus } from '../../features/credits/api/get-generation-status';
import { useUserStatus } from '../../features/credits/api/get-user-status';
import { paymentsConfigQueryOptions, usePaymentsConfig } from '../../features/payments/api/get-payments-config';
import { generationsQueryOptions } from '../../features/generations/api/get-generations';
import { modelsQueryOptions, useModels } from '../../features/generations/api/get-models';
import { CompareModelPicker } from '../../features/generations/components/compare-model-picker';
import { GenerationForm } from '../../features/generations/components/generation-form';
import { LikenessConsent } from '../../features/generations/components/likeness-consent';
import { RecentHistoryCard } from '../../features/generations/components/recent-history-card';
import { RemixNotice } from '../../features/generations/remix/remix-notice';
import { MediaInputCard } from '../../features/uploads/components/media-input-card';
import { KeyframeInputs, unavailableInputs } from '../../features/uploads/components/keyframe-inputs';
import { AiEnhancePanel } from '../../features/prompts/components/ai-enhance-panel';
import { ImageAnalysisCard } from '../../features/prompts/components/image-analysis-card';
import { useFilesCleanup } from '../../features/uploads/hooks/use-files-cleanup';
import { InstallButton } from '../../features/install/components/install-button';
import { GeneratorTourAutoStart } from '../../features/onboarding/components/generator-tour';
import { useAuth } from '../../lib/auth';
import { quoteGeneration } from '../generator-quote';
import { useGenerate } from '../use-generate';
import { useGeneratorInputs } from '../use-generator-inputs';
import { GeneratorNotices, MoreCredits } from './generator-notices';

/**
 * What the first screen reads: the models, the balance, Recent History's list and whether payments
 * are on. The app's start fills the cache with it before the first render (route-modules.ts), from
 * the answers the entry asked for, so the page renders once instead of again as each one arrives.
 */
export async function prefetchGeneratorData(client: QueryClient): Promise<void> {
  await Promise.all([
    client.prefetchQuery(modelsQueryOptions()),
    client.prefetchQuery(balanceQueryOptions()),
    client.prefetchQuery(generationsQueryOptions()),
    client.prefetchQuery(paymentsConfigQueryOptions()),
  ]);
}

/** The Create Video screen: inputs, description, settings, cost and the Generate button. */
export function GeneratorPage() {
  const { user, isAuthenticated } = useAuth();
  useFilesCleanup();
  const inputs = useGeneratorInputs(user?.id);
  const { draft, form, media, enhancement, variations } = inputs;
  const status = useUserStatus({ enabled: isAuthenticated });
  // Daily and extra generations pay before credits; without this status, credits decide.
  const generationStatus = useGenerationStatus({ enabled: isAuthenticated });
  const paymentsConfig = usePaymentsConfig();
  const payer = nextGenerationPayer(status.data?.isUnlimited ?? false, generationStatus.data);
  // What Generate sends, with the AI results its text came from: shown in the cost, named in the request, charged alike.
  const toSend = enhancement.toSend();
  const models = useModels();
  const quote = quoteGeneration({
    models: models.data,
    state: form.state,
    media,
    keyframes: inputs.keyframes,
    toSend,
    enhancing: enhancement.enabled,
    beforeEnhanced: inputs.beforeEnhanced,
    compareId: inputs.compareId,
    variations,
    characterId: inputs.characterId,
  });
  const { model, fitted, inputFields, unfit, price, plain, economyFitted, economyTotal, candidates, compareModel } =
    quote;
  const generation = useGenerate({ state: form.state, quote, variations, onStarted: inputs.clear });
  const credits = status.data && !status.data.isUnlimited ? status.data.availableCredits : null;
  const balanceKnown = status.data !== undefined && !generationStatus.isPending;

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
          {/* A link in words after the buttons: no button's height on a phone's first screen. */}
          <p className="self-center text-sm">
            <Link
              href="/storyboards"
              className="font-medium text-violet-700 underline underline-offset-4 hover:text-violet-900 dark:text-violet-300 dark:hover:text-violet-200"
            >
              Plan several shots in a storyboard
            </Link>
          </p>
        </div>
      }
    >
      <GeneratorTourAutoStart />
      {/* Phones: notices and credits first, then the form, then recent videos; desktops: a side column. */}
      <div className="flex flex-col gap-6 pb-24 lg:grid lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start">
        <aside className="contents lg:sticky lg:top-20 lg:col-start-2 lg:row-start-1 lg:flex lg:flex-col lg:gap-6">
          <GeneratorNotices
            status={status.data}
            models={models.data}
            isAdmin={user?.isAdmin ?? false}
            price={price}
            itemised={model !== undefined}
            payer={payer}
            paymentsEnabled={paymentsConfig.data?.enabled}
          />
          <div className="order-3">
            <RecentHistoryCard />
          </div>
        </aside>
        <div className="order-2 grid gap-6 lg:col-start-1 lg:row-start-1">
          {draft ? <RemixNotice origin={draft.origin} gone={draft.gone} /> : null}
          <MediaInputCard
            value={media}
            onChange={inputs.changeMedia}
            names={draft?.origin === 'continue' ? { image: 'Last frame of your video' } : undefined}
            unavailable={unavailableInputs(model, inputFields.referenceImageFiles)}
          />
          <KeyframeInputs
            model={model}
            startImage={media.image}
            onStartImageChange={(image) => {
              const { image: _old, ...rest } = media;
              inputs.changeMedia(image ? { ...rest, image } : rest);
            }}
            value={inputs.keyframes}
            onChange={inputs.setKeyframes}
          />
          <ImageAnalysisCard state={inputs.imageAnalysis} onUseSuggestion={form.setDescription} />
          <GenerationForm
            form={form}
            cost={toCredits(quote.totalPrice)}
            variations={variations}
            onVariationsChange={inputs.chooseVariations}
            comparing={compareModel !== null}
            character={
              <CharacterPicker value={inputs.characterId} onChange={inputs.chooseCharacter} mode={model?.character} />
            }
            compare={
              <CompareModelPicker
                candidates={candidates}
                value={compareModel?.id ?? null}
                onChange={inputs.chooseCompare}
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
            consent={generation.consent ? <LikenessConsent {...generation.consent} /> : null}
            allowanceNote={describeGenerationPayer(payer)}
            pending={generation.pending}
            problem={unfit}
            fitted={fitted}
            draft={quote.draft}
            onDraftChange={inputs.chooseDraft}
            onGenerate={() => generation.generate(toSend)}
            withoutAddOns={
              plain && credits !== null && credits !== undefined && toCredits(quote.plainTotal) <= credits
                ? {
                    cost: toCredits(quote.plainTotal),
                    onGenerate: () => generation.generate(plain),
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
            descriptionAddon={<AiEnhancePanel enhancement={enhancement} onUseEnhanced={inputs.applyEnhanced} />}
          />
        </div>
      </div>
    </AppShell>
  );
}
