import type { ModelInfo } from '../../../../shared/models';

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
