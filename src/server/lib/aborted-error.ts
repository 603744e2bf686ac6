/** A job was stopped on purpose (deleted, taken over, shutting down): not a failure to report or retry. */
export class AbortedError extends Error {
  constructor() {
    super('The render was stopped.');
    this.name = 'AbortedError';
  }
}
