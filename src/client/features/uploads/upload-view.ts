const OBJECT_PATH = /^\/objects\/uploads\/[0-9a-f-]{36}\/[0-9a-f-]{36}$/;

/**
 * Where the signed-in owner can view an upload: `GET /api/objects/uploads/:userId/:id` streams it
 * (private to its owner, 404 to anyone else). Null for a reference that is not an upload's object path.
 */
export function uploadViewUrl(objectPath: string | undefined): string | null {
  if (!objectPath || !OBJECT_PATH.test(objectPath)) return null;
  return `/api${objectPath}`;
}

/** A media length as m:ss (h:mm:ss from an hour); null for a length the browser could not read. */
export function formatMediaLength(seconds: number): string | null {
  if (!Number.isFinite(seconds) || seconds < 0) return null;
  const total = Math.round(seconds);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}
