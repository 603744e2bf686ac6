import { Pencil, Trash2, UsersRound } from 'lucide-react';
import { type FormEvent, type ReactNode, useId, useState } from 'react';

import {
  type Character,
  MAX_CHARACTER_DESCRIPTION_LENGTH,
  MAX_CHARACTER_IMAGES,
  MAX_CHARACTER_NAME_LENGTH,
} from '../../../../shared/characters';
import { CONSENT_REQUIRED_CODE } from '../../../../shared/moderation';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { ConfirmDeleteDialog } from '../../../components/ui/confirm-delete-dialog';
import { FormField } from '../../../components/ui/form-field';
import { Label } from '../../../components/ui/label';
import { Textarea } from '../../../components/ui/textarea';
import { toast } from '../../../components/ui/use-toast';
import { ApiError, getServerMessage } from '../../../lib/api-client';
import { useCharacters, useCreateCharacter, useDeleteCharacter, useUpdateCharacter } from '../api/characters';

interface NewCharacterProps {
  /** The chosen pictures' object paths (the page's picture picker fills them). */
  pictures: string[];
  /** The picture picker, given the name for its words. */
  picker: (name: string) => ReactNode;
  /** The likeness consent, once the server found a person in a picture; null before. */
  consent: (checked: boolean, onChange: (checked: boolean) => void) => ReactNode;
  /** Called once the character is in the library (to empty the picker). */
  onCreated: () => void;
}

/** A new character: a name, a short description and 1 to 3 pictures; consent when a picture shows a person. */
export function NewCharacterCard({ pictures, picker, consent, onCreated }: NewCharacterProps) {
  const create = useCreateCharacter();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [consentAsked, setConsentAsked] = useState(false);
  const [consentGiven, setConsentGiven] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const descriptionId = useId();
  const problemId = useId();
  const ready = name.trim().length > 0 && pictures.length > 0 && (!consentAsked || consentGiven);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready || create.isPending) return;
    setProblem(null);
    create.mutate(
      { name, description, imageFiles: pictures, consentToLikeness: consentAsked && consentGiven },
      {
        onSuccess: (made) => {
          toast({ title: 'Character added', description: `${made.name} is in your library.` });
          setName('');
          setDescription('');
          setConsentAsked(false);
          setConsentGiven(false);
          onCreated();
        },
        onError: (error) => {
          if (error instanceof ApiError && error.code === CONSENT_REQUIRED_CODE) {
            setConsentAsked(true);
            return;
          }
          setProblem(getServerMessage(error) ?? 'The character could not be saved. Try again.');
        },
      },
    );
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>New character</CardTitle>
        <CardDescription>
          A person, an animal or an object you want to look the same in every video: up to {MAX_CHARACTER_IMAGES}{' '}
          pictures and a few words.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form className="grid gap-4" onSubmit={submit} noValidate aria-describedby={problem ? problemId : undefined}>
          <FormField
            label="Name"
            name="character-name"
            value={name}
            maxLength={MAX_CHARACTER_NAME_LENGTH}
            placeholder="Captain Mira"
            onChange={(event) => setName(event.target.value)}
          />
          <div className="grid gap-2">
            <Label htmlFor={descriptionId}>
              Description <span className="font-normal text-muted-foreground">(optional)</span>
            </Label>
            <Textarea
              id={descriptionId}
              value={description}
              maxLength={MAX_CHARACTER_DESCRIPTION_LENGTH}
              rows={3}
              placeholder="A tall lighthouse keeper in a yellow raincoat, grey braid, round glasses"
              onChange={(event) => setDescription(event.target.value)}
            />
          </div>
          <div className="grid gap-2">
            <span className="text-sm font-medium">Pictures</span>
            {picker(name.trim() || 'the character')}
          </div>
          {consentAsked ? consent(consentGiven, setConsentGiven) : null}
          {problem ? (
            <p id={problemId} role="alert" className="text-sm text-destructive">
              {problem}
            </p>
          ) : null}
          <div>
            <Button type="submit" disabled={!ready || create.isPending}>
              {create.isPending ? 'Saving…' : 'Add character'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

/** The user's characters, each with its pictures, renamed in place or deleted. */
export function CharacterList() {
  const characters = useCharacters();
  if (characters.isPending) return <p className="text-sm text-muted-foreground">Loading your characters…</p>;
  if (characters.isError)
    return (
      <p role="alert" className="text-sm text-destructive">
        Your characters could not be loaded. Reload the page to try again.
      </p>
    );
  if (characters.data.length === 0)
    return (
      <div className="grid place-items-center gap-2 rounded-xl border border-dashed border-border p-8 text-center">
        <UsersRound aria-hidden="true" className="size-8 text-muted-foreground" />
        <p className="font-medium">No characters yet</p>
        <p className="max-w-sm text-sm text-muted-foreground">
          Add one, then choose it in the generator or in a storyboard’s shot.
        </p>
      </div>
    );
  return (
    <ul className="grid gap-4 sm:grid-cols-2" aria-label="Your characters">
      {characters.data.map((character) => (
        <li key={character.id}>
          <CharacterCard character={character} />
        </li>
      ))}
    </ul>
  );
}

function CharacterCard({ character }: { character: Character }) {
  const update = useUpdateCharacter();
  const remove = useDeleteCharacter();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(character.name);
  const [description, setDescription] = useState(character.description);
  const descriptionId = useId();

  const save = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim() || update.isPending) return;
    update.mutate(
      { id: character.id, name, description },
      {
        onSuccess: () => setEditing(false),
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: 'Not saved',
            description: getServerMessage(error) ?? 'Try again.',
          }),
      },
    );
  };

  return (
    <Card className="h-full">
      <CardContent className="grid gap-3 pt-6">
        <div className="flex gap-2">
          {character.images.map((image, index) => (
            <img
              key={image.url}
              src={image.url}
              alt={`Picture ${index + 1} of ${character.name}`}
              className="size-20 rounded-lg border border-border object-cover"
            />
          ))}
        </div>
        {editing ? (
          <form className="grid gap-3" onSubmit={save} noValidate>
            <FormField
              label="Name"
              name={`name-${character.id}`}
              value={name}
              maxLength={MAX_CHARACTER_NAME_LENGTH}
              onChange={(event) => setName(event.target.value)}
            />
            <div className="grid gap-2">
              <Label htmlFor={descriptionId}>Description</Label>
              <Textarea
                id={descriptionId}
                value={description}
                rows={3}
                maxLength={MAX_CHARACTER_DESCRIPTION_LENGTH}
                onChange={(event) => setDescription(event.target.value)}
              />
            </div>
            <div className="flex gap-2">
              <Button type="submit" disabled={!name.trim() || update.isPending}>
                {update.isPending ? 'Saving…' : 'Save'}
              </Button>
              <Button
                type="button"
                variant="outline"
                onClick={() => {
                  setName(character.name);
                  setDescription(character.description);
                  setEditing(false);
                }}
              >
                Cancel
              </Button>
            </div>
          </form>
        ) : (
          <>
            <div>
              <h3 className="font-semibold">{character.name}</h3>
              {character.description ? (
                <p className="text-sm whitespace-pre-line text-muted-foreground">{character.description}</p>
              ) : null}
              {character.showsPeople ? (
                <p className="mt-1 text-xs text-muted-foreground">A real person, with their consent.</p>
              ) : null}
            </div>
            <div className="flex flex-wrap gap-2">
              <Button type="button" variant="outline" size="sm" onClick={() => setEditing(true)}>
                <Pencil aria-hidden="true" /> Edit<span className="sr-only"> {character.name}</span>
              </Button>
              <ConfirmDeleteDialog
                trigger={
                  <Button type="button" variant="outline" size="sm">
                    <Trash2 aria-hidden="true" /> Delete<span className="sr-only"> {character.name}</span>
                  </Button>
                }
                title={`Delete ${character.name}?`}
                description="The character and its pictures leave your library. Videos already made with it stay."
                pending={remove.isPending}
                onConfirm={(close) =>
                  remove.mutate(character.id, {
                    onSettled: close,
                    onError: (error) =>
                      toast({
                        variant: 'destructive',
                        title: 'Not deleted',
                        description: getServerMessage(error) ?? 'Try again.',
                      }),
                  })
                }
              />
            </div>
          </>
        )}
      </CardContent>
    </Card>
  );
}
