import { X } from 'lucide-react';

import type { ModelInfo } from '../../../../shared/models';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { ImageSlot, ReferenceSlot } from './keyframe-slots';

/** The end frame and the reference images as object paths (what the request sends as endImageFile and referenceImageFiles). */
export interface KeyframeValue {
  endImage?: string;
  referenceImages: string[];
}

/** What the card reads of the chosen model (GET /api/models). */
export type KeyframeModel = Pick<ModelInfo, 'name' | 'endFrame' | 'referenceImages' | 'referencesAlone'>;

interface KeyframeInputsProps {
  /** The chosen model; undefined until the catalogue arrives. */
  model: KeyframeModel | undefined;
  /** The start frame is the Media Input card's image (the request's imageFile): either slot sets it. */
  startImage: string | undefined;
  onStartImageChange: (objectPath: string | undefined) => void;
  value: KeyframeValue;
  onChange: (next: KeyframeValue) => void;
}

/** Why one side of an either-or model is unavailable, with the button that clears the other side. */
function EitherOrNote({ text, action, onAction }: { text: string; action: string; onAction: () => void }) {
  return (
    <div
      role="note"
      className="grid gap-2 rounded-lg border border-dashed border-border p-3 text-sm text-muted-foreground sm:col-span-2"
    >
      <p>{text}</p>
      <Button variant="outline" size="sm" className="justify-self-start" onClick={onAction}>
        <X aria-hidden="true" /> {action}
      </Button>
    </div>
  );
}

/**
 * Keyframes and reference images for a model that takes them (GET /api/models `endFrame` and
 * `referenceImages`): the Start frame and End frame slots once there is a start image, and up to N
 * reference images. Nothing for a model that takes neither: a model that takes only a start frame has
 * the Media Input card's Image. The Start frame is that same image (the card keeps its three uploads,
 * docs/product-rules.md, Screens). For a model that takes references or frames but not both
 * (`referencesAlone`), the side not in use says why it is unavailable and offers to clear the other.
 */
export function KeyframeInputs({ model, startImage, onStartImageChange, value, onChange }: KeyframeInputsProps) {
  if (!model || (!model.endFrame && model.referenceImages <= 0)) return null;
  const referenceLimit = model.referenceImages;
  const references = value.referenceImages.slice(0, referenceLimit);
  const framesBlocked = model.referencesAlone && references.length > 0;
  const referencesBlocked = model.referencesAlone && Boolean(startImage);
  // The end frame is offered once there is a start (the Media Input image): until then the card stays
  // small, keeping the description on a phone's first screen.
  const showFrames = model.endFrame && Boolean(startImage);
  // A model that takes an end frame but no reference images: nothing to offer before the start image.
  if (!showFrames && referenceLimit <= 0) return null;
  const removeFrames = () => {
    onChange({ referenceImages: value.referenceImages });
    onStartImageChange(undefined);
  };
  const description = [
    model.endFrame ? 'The video starts on the start frame (the image above) and ends on the end frame.' : null,
    referenceLimit > 0
      ? `Up to ${referenceLimit} reference ${referenceLimit === 1 ? 'image keeps' : 'images keep'} a subject or character the same.`
      : null,
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <Card>
      <CardHeader>
        <CardTitle>{showFrames || (model.endFrame && framesBlocked) ? 'Keyframes' : 'Reference images'}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3 sm:grid-cols-2 sm:gap-4">
        {framesBlocked && model.endFrame ? (
          <EitherOrNote
            text={`${model.name} takes reference images or a start and end frame, not both. Remove the reference images to use frames.`}
            action="Remove reference images"
            onAction={() => onChange({ ...value, referenceImages: [] })}
          />
        ) : null}
        {showFrames ? (
          <>
            <ImageSlot
              label="Start frame"
              objectPath={startImage}
              onUploaded={onStartImageChange}
              onRemove={() => onStartImageChange(undefined)}
            />
            <ImageSlot
              label="End frame"
              objectPath={value.endImage}
              onUploaded={(endImage) => onChange({ ...value, endImage })}
              onRemove={() => onChange({ referenceImages: value.referenceImages })}
            />
          </>
        ) : null}
        {referenceLimit > 0 ? (
          <ReferenceSlot
            limit={referenceLimit}
            value={value.referenceImages}
            onChange={(referenceImages) => onChange({ ...value, referenceImages })}
            blocked={
              referencesBlocked ? (
                <EitherOrNote
                  text={`${model.name} takes a start and end frame or reference images, not both. Remove the frames to add reference images.`}
                  action="Remove frames"
                  onAction={removeFrames}
                />
              ) : null
            }
          />
        ) : null}
      </CardContent>
    </Card>
  );
}

/**
 * The request's keyframe fields for the chosen model: only what it takes (GET /api/models), and the
 * end frame only with a start image (the End frame slot is shown only then).
 */
export function keyframeFields(
  model: { endFrame: boolean; referenceImages: number } | undefined,
  value: KeyframeValue,
  startImage: string | undefined,
): { endImageFile: string | null; referenceImageFiles: string[] } {
  return {
    endImageFile: model?.endFrame && startImage ? (value.endImage ?? null) : null,
    referenceImageFiles: model ? value.referenceImages.slice(0, model.referenceImages) : [],
  };
}

/**
 * The Media Input slots a model cannot take with the chosen reference images, each with its reason:
 * the image (the start frame) for a model that takes references or frames, not both.
 */
export function unavailableInputs(
  model: KeyframeModel | undefined,
  referenceImageFiles: readonly string[],
): Partial<Record<'image', string>> | undefined {
  if (!model?.referencesAlone || referenceImageFiles.length === 0) return undefined;
  return {
    image: `${model.name} takes an image or reference images, not both. Remove the reference images to add one.`,
  };
}
