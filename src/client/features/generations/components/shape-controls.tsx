import { ChevronDown } from 'lucide-react';

import {
  ASPECT_RATIO_LABELS,
  CAMERA_MOVE_LABELS,
  type CameraMove,
  type ModelInfo,
  RESOLUTIONS,
} from '../../../../shared/models';
import { ChoiceChips } from '../../../components/ui/choice-chips';
import { Label } from '../../../components/ui/label';
import type { FittedControls, VideoControls } from '../controls/video-controls';

interface ShapeControlsProps {
  /** The chosen model: only what it renders is offered. */
  model: Pick<ModelInfo, 'name' | 'aspectRatios' | 'durations' | 'resolutions' | 'cameraMoves'>;
  /** What the video will be rendered at (the picks fitted to the model). */
  value: FittedControls;
  onChange: (patch: VideoControls) => void;
  /** Draft chooses the resolution: shown, not changeable. */
  resolutionLocked?: boolean;
}

/** One row of choices under its legend. */
function ChipGroup<T extends string | number>({
  legend,
  options,
  value,
  label,
  onChange,
  disabled,
}: {
  legend: string;
  options: readonly T[];
  value: T;
  label: (option: T) => string;
  onChange: (option: T) => void;
  disabled?: boolean;
}) {
  return (
    <fieldset className="grid gap-2" disabled={disabled}>
      <legend className="mb-2 text-sm font-medium">{legend}</legend>
      <ChoiceChips
        layout="wrap"
        choices={options.map((option) => ({ value: option, label: label(option) }))}
        value={value}
        onChange={onChange}
        disabled={disabled}
      />
    </fieldset>
  );
}

const NO_MOVE = 'none';

/** Aspect ratio, duration, resolution and camera move: only what the chosen model takes (GET /api/models). */
export function ShapeControls({ model, value, onChange, resolutionLocked = false }: ShapeControlsProps) {
  const resolutions = RESOLUTIONS.filter((r) => model.resolutions.includes(r));
  return (
    <div className="grid gap-4" data-testid="shape-controls">
      <ChipGroup
        legend="Aspect ratio"
        options={model.aspectRatios}
        value={value.aspectRatio}
        label={(r) => ASPECT_RATIO_LABELS[r]}
        onChange={(aspectRatio) => onChange({ aspectRatio })}
      />
      <ChipGroup
        legend="Duration"
        options={model.durations}
        value={value.duration}
        label={(d) => `${d} s`}
        onChange={(duration) => onChange({ duration })}
      />
      <ChipGroup
        legend="Resolution"
        options={resolutions}
        value={value.resolution}
        label={(r) => r}
        onChange={(resolution) => onChange({ resolution })}
        disabled={resolutionLocked}
      />
      {model.cameraMoves.length > 0 ? (
        <div className="grid gap-2">
          <Label htmlFor="camera-move">Camera move</Label>
          <div className="relative">
            <select
              id="camera-move"
              value={value.cameraMove ?? NO_MOVE}
              onChange={(event) =>
                onChange({
                  cameraMove: event.target.value === NO_MOVE ? undefined : (event.target.value as CameraMove),
                })
              }
              className="h-10 w-full appearance-none rounded-lg border border-input bg-background pr-9 pl-3 text-sm text-foreground shadow-sm outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/30"
            >
              <option value={NO_MOVE}>No camera move (the model decides)</option>
              {model.cameraMoves.map((move) => (
                <option key={move} value={move}>
                  {CAMERA_MOVE_LABELS[move]}
                </option>
              ))}
            </select>
            <ChevronDown
              aria-hidden="true"
              className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-muted-foreground"
            />
          </div>
        </div>
      ) : (
        <p className="text-xs text-muted-foreground">{model.name} takes no camera moves.</p>
      )}
    </div>
  );
}
