import type { UpscaleResolution } from '../../../../shared/finishing';
import { ChoiceChips } from '../../../components/ui/choice-chips';
import type { FinishForm, Keep, OfferedAction } from '../finish-choices';

interface UpscaleChoicesProps {
  offer: OfferedAction;
  form: FinishForm;
  onResolution: (resolution: UpscaleResolution | Keep) => void;
  onFps: (fps: number | Keep) => void;
}

/** The resolution and the frame rate, each 'Keep' (the video's own) or one the tool makes. */
export function UpscaleChoices({ offer, form, onResolution, onFps }: UpscaleChoicesProps) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {offer.resolutions.length > 0 ? (
        <fieldset className="grid gap-2">
          <legend className="mb-2 text-sm leading-none font-medium">Resolution</legend>
          <ChoiceChips<UpscaleResolution | Keep>
            choices={[
              { value: 'keep', label: 'Keep', ariaLabel: 'Keep the resolution' },
              ...offer.resolutions.map((r) => ({ value: r, label: r })),
            ]}
            value={form.resolution}
            onChange={onResolution}
            label="Resolution"
          />
        </fieldset>
      ) : null}
      {offer.fps.length > 0 ? (
        <fieldset className="grid gap-2">
          <legend className="mb-2 text-sm leading-none font-medium">Frames a second</legend>
          <ChoiceChips<number | Keep>
            choices={[
              { value: 'keep', label: 'Keep', ariaLabel: 'Keep the frame rate' },
              ...offer.fps.map((f) => ({ value: f, label: String(f), ariaLabel: `${f} frames a second` })),
            ]}
            value={form.fps}
            onChange={onFps}
            label="Frames a second"
          />
        </fieldset>
      ) : null}
    </div>
  );
}
