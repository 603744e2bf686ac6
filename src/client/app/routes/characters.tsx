import { useState } from 'react';

import { MAX_CHARACTER_IMAGES } from '../../../shared/characters';
import { AppShell } from '../../components/layouts/app-shell';
import { CharacterList, NewCharacterCard } from '../../features/characters/components/character-library';
import { LikenessConsent } from '../../features/generations/components/likeness-consent';
import { PicturePicks } from '../../features/uploads/components/picture-picks';

/** Characters (issue 47): the user's library of people and things that stay the same from video to video. */
export function CharactersPage() {
  const [pictures, setPictures] = useState<string[]>([]);
  return (
    <AppShell title="Characters" subtitle="People and things that look the same in every video">
      <div className="grid gap-6 pb-24 lg:grid-cols-[24rem_minmax(0,1fr)] lg:items-start">
        <NewCharacterCard
          pictures={pictures}
          picker={(name) => (
            <PicturePicks value={pictures} onChange={setPictures} max={MAX_CHARACTER_IMAGES} subject={name} />
          )}
          consent={(checked, onChange) => <LikenessConsent checked={checked} onChange={onChange} />}
          onCreated={() => setPictures([])}
        />
        <section aria-labelledby="library-title" className="grid gap-3">
          <h2 id="library-title" className="text-lg font-semibold">
            Your characters
          </h2>
          <CharacterList />
        </section>
      </div>
    </AppShell>
  );
}
