import { useMutation } from '@tanstack/react-query';

import { type UploadComplete, uploadCompleteSchema } from '../../../../shared/uploads';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/video-generation/:id/last-frame: the video's last frame, stored as a new image upload of the user's. */
export async function createLastFrameUpload(id: string): Promise<UploadComplete> {
  const response = await apiRequest('POST', `/api/video-generation/${encodeURIComponent(id)}/last-frame`);
  return uploadCompleteSchema.parse(await response.json());
}

export function useLastFrameUpload() {
  return useMutation({ mutationFn: createLastFrameUpload });
}
