import { type ReactNode, useId } from 'react';

import { FILM_CARD_SECONDS, FILM_TRANSITION_SECONDS } from '../../../../shared/films';
import { ASPECT_RATIOS, RESOLUTIONS } from '../../../../shared/models';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { ChoiceChips } from '../../../components/ui/choice-chips';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Switch } from '../../../components/ui/switch';
import type { BoardDraft } from '../board-draft';
import { SecondsField } from './fields';

interface FilmSettingsProps {
  draft: BoardDraft;
  onChange: (change: (draft: BoardDraft) => BoardDraft, options?: { now?: boolean }) => void;
  /** The audio bed's upload slot (the uploads feature's), or nothing. */
  bed: ReactNode;
}

/** The film's shape, its title card, the length of its transitions and the sound under it. */
export function FilmSettings({ draft, onChange, bed }: FilmSettingsProps) {
  const shapeId = useId();
  const resolutionId = useId();
  const cardId = useId();
  const card = draft.titleCard;
  const setCard = (patch: Partial<BoardDraft['titleCard']>, now = false) =>
    onChange((d) => ({ ...d, titleCard: { ...d.titleCard, ...patch } }), { now });
  return (
    <Card>
      <CardHeader className="pb-4">
        <CardTitle>Film</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="grid gap-2">
          <span id={shapeId} className="text-sm font-medium">
            Shape
          </span>
          <ChoiceChips
            labelledBy={shapeId}
            choices={ASPECT_RATIOS.map((ratio) => ({ value: ratio, label: ratio }))}
            value={draft.aspectRatio}
            onChange={(aspectRatio) => onChange((d) => ({ ...d, aspectRatio }), { now: true })}
          />
        </div>
        <div className="grid gap-2">
          <span id={resolutionId} className="text-sm font-medium">
            Resolution
          </span>
          <ChoiceChips
            labelledBy={resolutionId}
            choices={RESOLUTIONS.map((resolution) => ({ value: resolution, label: resolution }))}
            value={draft.resolution}
            onChange={(resolution) => onChange((d) => ({ ...d, resolution }), { now: true })}
          />
        </div>
        <SecondsField
          label="Transition length (s)"
          value={draft.transitionSeconds}
          min={FILM_TRANSITION_SECONDS.min}
          max={FILM_TRANSITION_SECONDS.max}
          hint="For crossfades and fades through black."
          onChange={(seconds) =>
            onChange((d) => ({ ...d, transitionSeconds: seconds ?? FILM_TRANSITION_SECONDS.default }))
          }
        />
        <div className="grid gap-3 rounded-lg border border-border p-3">
          <div className="flex items-center gap-3">
            <Switch id={cardId} checked={card.on} onCheckedChange={(on) => setCard({ on }, true)} />
            <label htmlFor={cardId} className="text-sm font-medium">
              Title card
            </label>
          </div>
          {card.on ? (
            <>
              <div className="grid gap-1.5">
                <Label htmlFor={`${cardId}-text`}>Title</Label>
                <Input
                  id={`${cardId}-text`}
                  value={card.text}
                  maxLength={200}
                  placeholder="The words on the card"
                  onChange={(event) => setCard({ text: event.target.value })}
                />
              </div>
              <div className="grid grid-cols-2 gap-3">
                <SecondsField
                  label="Seconds"
                  value={card.seconds}
                  min={FILM_CARD_SECONDS.min}
                  max={FILM_CARD_SECONDS.max}
                  onChange={(seconds) => setCard({ seconds: seconds ?? FILM_CARD_SECONDS.default })}
                />
                <div className="grid content-start gap-1.5">
                  <Label htmlFor={`${cardId}-colour`}>Colour</Label>
                  <Input
                    id={`${cardId}-colour`}
                    type="color"
                    value={card.background}
                    className="h-11 cursor-pointer p-1 sm:h-10"
                    onChange={(event) => setCard({ background: event.target.value })}
                  />
                </div>
              </div>
            </>
          ) : null}
        </div>
        {bed}
      </CardContent>
    </Card>
  );
}
