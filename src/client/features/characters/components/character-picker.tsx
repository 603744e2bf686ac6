import { UsersRound } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'wouter';

import type { CharacterMode } from '../../../../shared/models';
import { Label } from '../../../components/ui/label';
import { NativeSelect } from '../../../components/ui/native-select';
import { useCharacters } from '../api/characters';

interface CharacterPickerProps {
  value: string | null;
  onChange: (id: string | null) => void;
  /** How the chosen model keeps a character (GET /api/models `character`); undefined until it is known. */
  mode: CharacterMode | undefined;
  /** The field's label ('Character'). */
  label?: string;
}

const MODE_NOTES: Record<CharacterMode, string> = {
  references: 'This model keeps them by their pictures, as reference images.',
  description: 'This model takes no reference pictures: their name and description go into the description.',
};

/** A character of the user's library for a video or a shot, with how the chosen model keeps it. */
export function CharacterPicker({ value, onChange, mode, label = 'Character' }: CharacterPickerProps) {
  const id = useId();
  const noteId = `${id}-note`;
  const characters = useCharacters();
  const list = characters.data ?? [];
  const chosen = list.find((character) => character.id === value);
  // An optional choice: when the library cannot be read, the form goes on without it.
  if (characters.isError) return null;
  if (characters.isSuccess && list.length === 0)
    return (
      <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-muted-foreground">
        <UsersRound aria-hidden="true" className="size-4 shrink-0" />
        Keep a person or a thing the same from video to video:
        <Link
          href="/characters"
          className="inline-flex min-h-11 items-center font-medium text-primary underline-offset-4 hover:underline md:min-h-6"
        >
          add a character
        </Link>
      </p>
    );
  return (
    <div className="grid gap-2">
      <div className="flex items-baseline justify-between gap-3">
        <Label htmlFor={id}>
          {label} <span className="font-normal text-muted-foreground">(optional)</span>
        </Label>
        <Link
          href="/characters"
          className="inline-flex min-h-11 items-center font-medium text-primary underline-offset-4 hover:underline md:min-h-6 text-xs"
        >
          Manage characters
        </Link>
      </div>
      <NativeSelect
        id={id}
        value={value ?? ''}
        aria-describedby={chosen && mode ? noteId : undefined}
        onChange={(event) => onChange(event.target.value || null)}
        disabled={!characters.isSuccess}
      >
        <option value="">No character</option>
        {list.map((character) => (
          <option key={character.id} value={character.id}>
            {character.name}
          </option>
        ))}
      </NativeSelect>
      {chosen ? (
        <div className="flex items-center gap-3">
          <div className="flex -space-x-2">
            {chosen.images.map((image, index) => (
              <img
                key={image.url}
                src={image.url}
                alt={index === 0 ? chosen.name : ''}
                className="size-9 rounded-full border-2 border-background object-cover"
              />
            ))}
          </div>
          {mode ? (
            <p id={noteId} className="text-xs text-muted-foreground">
              {MODE_NOTES[mode]}
            </p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
