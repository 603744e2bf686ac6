import { describe, expect, it } from 'vitest';

import { formatMediaLength, uploadViewUrl } from './upload-view';

const PATH = '/objects/uploads/11111111-1111-4111-8111-111111111111/22222222-2222-4222-8222-222222222222';

describe('uploadViewUrl', () => {
  it("views an upload's object path through the owner's GET, and nothing else", () => {
    expect(uploadViewUrl(PATH)).toBe(`/api${PATH}`);
    expect(uploadViewUrl(undefined)).toBeNull();
    expect(uploadViewUrl('https://elsewhere.example/cat.png')).toBeNull();
    expect(uploadViewUrl('/objects/uploads/../../api/admin')).toBeNull();
  });
});

describe('formatMediaLength', () => {
  it('says a length as m:ss, h:mm:ss from an hour, and nothing for a length the browser could not read', () => {
    expect(formatMediaLength(7)).toBe('0:07');
    expect(formatMediaLength(65.4)).toBe('1:05');
    expect(formatMediaLength(599.6)).toBe('10:00');
    expect(formatMediaLength(3725)).toBe('1:02:05');
    expect(formatMediaLength(Number.NaN)).toBeNull();
    expect(formatMediaLength(Number.POSITIVE_INFINITY)).toBeNull();
  });
});
