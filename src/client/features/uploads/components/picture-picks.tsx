import { ImagePlus, X } from 'lucide-react';

import { Button } from '../../../components/ui/button';
import { toast } from '../../../components/ui/use-toast';
import { getUploadParameters } from '../api/request-upload-target';
import { MEDIA_KINDS, UPLOAD_FAILED_TOAST } from '../media-kinds';
import { summarizeUpload } from '../upload-result';
import { uploadViewUrl } from '../upload-view';
import { useUploadDialog } from './upload-button';

const IMAGE_TYPES = MEDIA_KINDS.find((kind) => kind.kind === 'image')?.allowedFileTypes ?? ['image/*'];

interface PicturePicksProps {
  /** The chosen pictures' object paths, in order. */
  value: string[];
  onChange: (next: string[]) => void;
  max: number;
  /** Named in the buttons and the pictures' alternative text ('picture of Captain Mira'). */
  subject?: string;
}

/** Up to `max` uploaded pictures, each shown with a remove button, and one button to add another. */
export function PicturePicks({ value, onChange, max, subject }: PicturePicksProps) {
  const dialog = useUploadDialog({
    maxNumberOfFiles: 1,
    allowedFileTypes: IMAGE_TYPES,
    onGetUploadParameters: getUploadParameters,
    onComplete: (result) => {
      const { objectPath, failedMessages } = summarizeUpload(result);
      if (objectPath) onChange([...value, objectPath].slice(0, max));
      else toast({ ...UPLOAD_FAILED_TOAST, description: failedMessages[0] ?? UPLOAD_FAILED_TOAST.description });
    },
  });
  const of = subject ? ` of ${subject}` : '';
  return (
    <div className="flex flex-wrap items-center gap-3">
      {value.map((objectPath, index) => (
        <div key={objectPath} className="relative">
          <img
            src={uploadViewUrl(objectPath) ?? undefined}
            alt={`Picture ${index + 1}${of}`}
            className="size-20 rounded-lg border border-border object-cover"
          />
          <button
            type="button"
            aria-label={`Remove picture ${index + 1}`}
            onClick={() => onChange(value.filter((path) => path !== objectPath))}
            className="absolute -top-2 -right-2 grid size-7 place-items-center rounded-full border border-border bg-background text-foreground shadow-sm hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
          >
            <X aria-hidden="true" className="size-4" />
          </button>
        </div>
      ))}
      {value.length < max ? (
        <Button type="button" variant="outline" className="h-20" onClick={dialog.open} disabled={dialog.loading}>
          <ImagePlus aria-hidden="true" /> {value.length === 0 ? 'Choose a picture' : 'Add a picture'}
        </Button>
      ) : null}
    </div>
  );
}
