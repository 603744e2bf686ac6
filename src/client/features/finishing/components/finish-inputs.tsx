import type { ReactNode } from 'react';

import { MAX_FINISH_PROMPT_LENGTH } from '../../../../shared/finishing';
import { Label } from '../../../components/ui/label';
import { Textarea } from '../../../components/ui/textarea';
import type { OfferedAction } from '../finish-choices';

interface FinishInputsProps {
  offer: OfferedAction;
  prompt: string;
  onPrompt: (prompt: string) => void;
  recordingControl: ReactNode;
  pictureControl: ReactNode;
}

/** The words for each action's recording and description. */
const WORDS = {
  'add-sound': {
    recording: 'Recording',
    recordingHint: 'Music or a voice, laid under the whole video.',
    prompt: 'What it should sound like',
    promptHint: "Left empty, the sound follows the video's own description.",
    placeholder: 'Rain on a tin roof, thunder far away',
  },
  'lip-sync': {
    recording: 'Voice recording',
    recordingHint: "The mouth in the video follows this voice, which replaces the video's own sound.",
    prompt: '',
    promptHint: '',
    placeholder: '',
  },
  restyle: {
    recording: '',
    recordingHint: '',
    prompt: 'The new look',
    promptHint: 'The motion stays; the look changes to this.',
    placeholder: 'A hand-drawn watercolour in soft evening light',
  },
} as const;

/**
 * What a tool that is not an upscaler takes, as it says: the recording (add sound's track,
 * lip-sync's voice), the description (a sound's, optional; restyle's new look, needed), restyle's
 * picture, and lip-sync's need of a face.
 */
export function FinishInputs({ offer, prompt, onPrompt, recordingControl, pictureControl }: FinishInputsProps) {
  if (offer.action === 'upscale') return null;
  const words = WORDS[offer.action];
  const { tool } = offer;
  const promptId = `finish-prompt-${offer.action}`;
  return (
    <div className="grid gap-4">
      {tool.audio === 'none' ? null : (
        <div className="grid gap-2">
          <span className="text-sm leading-none font-medium">
            {words.recording}
            {tool.audio === 'required' ? null : ' (optional)'}
          </span>
          {recordingControl}
          <p className="text-xs text-muted-foreground">{words.recordingHint}</p>
        </div>
      )}
      {tool.prompt === 'none' ? null : (
        <div className="grid gap-2">
          <Label htmlFor={promptId}>
            {words.prompt}
            {tool.prompt === 'required' ? null : ' (optional)'}
          </Label>
          <Textarea
            id={promptId}
            rows={3}
            value={prompt}
            maxLength={MAX_FINISH_PROMPT_LENGTH}
            placeholder={words.placeholder}
            aria-describedby={`${promptId}-hint`}
            onChange={(event) => onPrompt(event.target.value)}
          />
          <p id={`${promptId}-hint`} className="flex justify-between gap-3 text-xs text-muted-foreground">
            <span>{words.promptHint}</span>
            <span className="tabular-nums">
              {prompt.length}/{MAX_FINISH_PROMPT_LENGTH}
            </span>
          </p>
        </div>
      )}
      {offer.action === 'restyle' ? (
        <div className="grid gap-2">
          <span className="text-sm leading-none font-medium">Picture of the look (optional)</span>
          {pictureControl}
          <p className="text-xs text-muted-foreground">A still whose colours and style the video takes on.</p>
        </div>
      ) : null}
      {tool.needsFace ? (
        <p className="text-xs text-muted-foreground">
          A face must be seen clearly in the video. A video with none is refused before anything is charged.
        </p>
      ) : null}
    </div>
  );
}
