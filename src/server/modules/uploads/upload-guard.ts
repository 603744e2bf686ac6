import { Transform, type TransformCallback } from 'node:stream';
import { MAX_UPLOAD_BYTES, type UploadKind } from '../../../shared/uploads';
import { AppError } from '../../lib/app-error';

/** file-type reads at most this many bytes to recognise a format. */
const SNIFF_BYTES = 4100;

export const tooLarge = () => new AppError(413, 'file_too_large', 'This file is larger than the 50 MB limit.');
export const unsupportedType = () =>
  new AppError(415, 'unsupported_file_type', 'Only images, videos and audio files can be uploaded.');

export interface SniffedType {
  kind: UploadKind;
  mime: string;
}

/** The kind of media a detected MIME type is, or null for anything else. */
export function kindOf(mime: string): UploadKind | null {
  const family = mime.split('/')[0];
  return family === 'image' || family === 'video' || family === 'audio' ? family : null;
}

export async function sniff(head: Buffer): Promise<SniffedType | null> {
  const { fileTypeFromBuffer } = await import('file-type');
  const detected = await fileTypeFromBuffer(head);
  const kind = detected ? kindOf(detected.mime) : null;
  return detected && kind ? { kind, mime: detected.mime } : null;
}

/**
 * Passes bytes through while counting them (413 past the limit) and holding back the first few
 * kilobytes until their content says image, video or audio (415 otherwise, whatever the name or
 * the declared Content-Type said). Only those first kilobytes are ever held in memory.
 */
export class UploadGuard extends Transform {
  private seen = 0;
  private head: Buffer[] = [];
  private headBytes = 0;
  detected: SniffedType | null = null;

  constructor(private readonly maxBytes = MAX_UPLOAD_BYTES) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.maxBytes) return callback(tooLarge());
    if (this.detected) return callback(null, chunk);
    this.head.push(chunk);
    this.headBytes += chunk.length;
    if (this.headBytes < SNIFF_BYTES) return callback();
    this.release(callback);
  }

  override _flush(callback: TransformCallback): void {
    if (this.detected) return callback();
    if (this.headBytes === 0) return callback(new AppError(400, 'empty_file', 'The file is empty.'));
    this.release(callback);
  }

  private release(callback: TransformCallback): void {
    const head = Buffer.concat(this.head);
    this.head = [];
    sniff(head)
      .then((type) => {
        if (!type) return callback(unsupportedType());
        this.detected = type;
        callback(null, head);
      })
      .catch((error: unknown) => callback(error as Error));
  }
}
