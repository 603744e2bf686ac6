import { type Storyboard, type StoryboardRequest, storyboardSchema } from '../../../../shared/storyboards';
import { apiRequest } from '../../../lib/api-client';

/**
 * PUT /api/storyboards/:id: replaces the whole board. With `version`, an edit made on an older
 * copy is refused (409 storyboard_changed). The editor's autosave (hooks/use-board-editor.ts) calls it.
 */
export async function updateStoryboard(id: string, body: StoryboardRequest): Promise<Storyboard> {
  const response = await apiRequest('PUT', `/api/storyboards/${encodeURIComponent(id)}`, body);
  return storyboardSchema.parse(await response.json());
}
