import { useId } from 'react';

import {
  CAMERA_MOVE_LABELS,
  type CameraMove,
  defaultAspectRatio,
  defaultResolution,
  type ModelInfo,
  nearestOf,
} from '../../../../shared/models';
import type { Shot } from '../../../../shared/storyboards';
import { Switch } from '../../../components/ui/switch';
import { fittedToModel } from '../board-draft';
import { SelectField } from './fields';

interface ShotControlsProps {
  shot: Shot;
  /** The model the shot renders on (its own, else the default). */
  model: ModelInfo | undefined;
  /** The models this server runs. */
  models: readonly ModelInfo[];
  onChange: (next: Shot) => void;
}

const NO_MOVE = 'none';

/** The generator's controls for one shot: model, shape, length, camera move and sound, as the model offers them. */
export function ShotControls({ shot, model, models, onChange }: ShotControlsProps) {
  const soundId = useId();
  if (!model) return <p className="text-sm text-muted-foreground">Loading models…</p>;
  return (
    <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
      <SelectField
        label="Model"
        className="col-span-2 sm:col-span-3"
        value={model.id}
        options={models.map((m) => ({ value: m.id, label: m.name }))}
        onChange={(id) => {
          const next = models.find((m) => m.id === id);
          if (next) onChange(fittedToModel(shot, next));
        }}
      />
      <SelectField
        label="Aspect ratio"
        value={shot.aspectRatio ?? defaultAspectRatio(model)}
        options={model.aspectRatios.map((ratio) => ({ value: ratio, label: ratio }))}
        onChange={(aspectRatio) => onChange({ ...shot, aspectRatio })}
      />
      <SelectField
        label="Resolution"
        value={shot.resolution ?? defaultResolution(model, false)}
        options={model.resolutions.map((resolution) => ({ value: resolution, label: resolution }))}
        onChange={(resolution) => onChange({ ...shot, resolution })}
      />
      <SelectField
        label="Duration"
        value={nearestOf(model.durations, shot.duration)}
        options={model.durations.map((seconds) => ({ value: seconds, label: `${seconds} s` }))}
        onChange={(duration) => onChange({ ...shot, duration })}
      />
      {model.cameraMoves.length > 0 ? (
        <SelectField<CameraMove | typeof NO_MOVE>
          label="Camera move"
          value={shot.cameraMove ?? NO_MOVE}
          options={[
            { value: NO_MOVE, label: 'None' },
            ...model.cameraMoves.map((move) => ({ value: move, label: CAMERA_MOVE_LABELS[move] })),
          ]}
          onChange={(move) => onChange({ ...shot, cameraMove: move === NO_MOVE ? null : move })}
        />
      ) : null}
      {model.sound ? (
        <div className="flex items-center gap-3 self-end sm:h-10">
          <Switch
            id={soundId}
            checked={shot.hasAudio}
            onCheckedChange={(hasAudio) => onChange({ ...shot, hasAudio })}
          />
          <label htmlFor={soundId} className="text-sm font-medium">
            Sound
          </label>
        </div>
      ) : null}
    </div>
  );
}
