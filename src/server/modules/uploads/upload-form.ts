import Busboy from 'busboy';
import type { FastifyRequest } from 'fastify';
import { PassThrough, type Readable } from 'node:stream';
import { BINARY, type ErrorAnswer, type MediaDoc } from '../../http/openapi-words';
import { badRequest } from '../../lib/app-error';

// An upload sent as an HTML form (POST .../form): the body's one file part, streamed, and the words
// the API reference gives for it.

/** A form body that is not one (multipart/form-data with a file part). */
export const FORM_REFUSED: ErrorAnswer[] = [
  { status: 400, code: 'invalid_form', message: 'Send the file as multipart/form-data.' },
  { status: 400, code: 'missing_file', message: 'The form has no file.' },
];
export const FORM_BODY: Record<string, MediaDoc> = {
  'multipart/form-data': {
    schema: {
      type: 'object',
      properties: { file: { ...BINARY, description: 'The file (the form’s only file part).' } },
      required: ['file'],
    },
  },
};

/** The file part of a form POST, as a stream (fields before it are ignored; the server chose the key). */
export function fileFromForm(request: FastifyRequest): Promise<Readable> {
  return new Promise((resolve, reject) => {
    let busboy: Busboy.Busboy;
    try {
      busboy = Busboy({ headers: request.headers, limits: { files: 1, fields: 20, fieldSize: 8192 } });
    } catch {
      reject(badRequest('Send the file as multipart/form-data.', 'invalid_form'));
      return;
    }
    // A malformed form is the client's fault: a 400, also when it breaks after the file began.
    const refused = (error: unknown) =>
      badRequest(
        `The form could not be read: ${error instanceof Error ? error.message : String(error)}.`,
        'invalid_form',
      );
    // Once handed out, the file stream carries the failure (its reader listens); before that, the promise does.
    let file: PassThrough | null = null;
    busboy.on('file', (_name, stream: Readable) => {
      const out = new PassThrough();
      // The reader attaches after an await (the upload row is claimed first): until then the
      // stream keeps its error (out.errored) for the reader to find, instead of throwing it.
      out.on('error', () => undefined);
      stream.on('error', (error) => out.destroy(refused(error)));
      stream.pipe(out);
      file = out;
      resolve(out);
    });
    busboy.on('error', (error: unknown) => {
      if (file) file.destroy(refused(error));
      else reject(refused(error));
    });
    busboy.on('finish', () => reject(badRequest('The form has no file.', 'missing_file')));
    request.raw.pipe(busboy);
  });
}
