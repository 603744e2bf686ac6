import type { ModelInfo } from '../../../../shared/models';
import type { UploadKind } from '../../../../shared/uploads';

const WORDS: Record<UploadKind, string> = { image: 'an image', video: 'a video', audio: 'an audio track' };

/** The server's own sentence for an input the chosen model cannot take, or null when it takes them all. */
export function unfitInputs(
  model: Pick<ModelInfo, 'name' | 'inputs'> | undefined,
  media: Partial<Record<UploadKind, string>>,
): string | null {
  if (!model) return null;
  const kind = (Object.keys(WORDS) as UploadKind[]).find((k) => media[k] && !model.inputs.includes(k));
  return kind ? `${model.name} cannot take ${WORDS[kind]}. Remove it, or choose a model that takes one.` : null;
}

const INPUT_NAMES: Record<string, string> = { text: 'text', image: 'an image', video: 'a video', audio: 'audio' };

/** "Takes text and an image · 4, 6 or 8 s · 16:9, 9:16 · with sound". */
export function describeModel(model: ModelInfo): string {
  const inputs = model.inputs.map((i) => INPUT_NAMES[i] ?? i);
  const takes =
    inputs.length > 1 ? `${inputs.slice(0, -1).join(', ')} and ${inputs.at(-1) ?? ''}` : (inputs[0] ?? 'text');
  const durations =
    model.durations.length > 4
      ? `${model.durations[0] ?? ''}-${model.durations.at(-1) ?? ''} s`
      : `${model.durations.slice(0, -1).join(', ')}${model.durations.length > 1 ? ' or ' : ''}${model.durations.at(-1) ?? ''} s`;
  return [`Takes ${takes}`, durations, model.aspectRatios.join(', '), model.sound ? 'with sound' : 'silent'].join(
    ' · ',
  );
}
