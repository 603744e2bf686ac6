import { describe, expect, it } from 'vitest';
import type { GenerationStatus } from './plans';
import {
  creditPurchaseLine,
  creditsAddedSentence,
  describeGenerationPayer,
  formatPrice,
  mentionsLogIn,
  nextGenerationPayer,
  purchaseCreditsLabel,
  subscriptionBadgeText,
  videosAffordableSentence,
} from './display';

function status(overrides: Partial<GenerationStatus> = {}): GenerationStatus {
  return {
    dailyUsed: 0,
    dailyLimit: 15,
    extraRemaining: 0,
    subscriptionStatus: 'inactive',
    canGenerate: false,
    ...overrides,
  };
}

describe('payment wording', () => {
  it('words purchases as the spec quotes them', () => {
    expect(purchaseCreditsLabel(30)).toBe('Purchase 30 Credits for $30');
    expect(creditPurchaseLine(30)).toBe('30 Credits - $30.00 USD');
    expect(creditPurchaseLine(75, 7500)).toBe('75 Credits - $75.00 USD');
    expect(creditsAddedSentence(30)).toBe('30 credits have been added to your account');
    expect(creditsAddedSentence(1)).toBe('1 credit has been added to your account');
    expect(videosAffordableSentence(30)).toBe('You can now generate 30 AI videos');
    expect(formatPrice(1000)).toBe('$10');
    expect(formatPrice(1050)).toBe('$10.50');
  });

  it("shows premium_unlimited as 'Admin' and an unknown status as sent", () => {
    expect(subscriptionBadgeText('premium_unlimited')).toBe('Admin');
    expect(subscriptionBadgeText('active')).toBe('Active');
    expect(subscriptionBadgeText('past_due')).toBe('past_due');
  });

  it("finds 'log in' in a message whatever its case", () => {
    expect(mentionsLogIn('Please log in to purchase credits')).toBe(true);
    expect(mentionsLogIn('You must be logged in. Please Log In and try again.')).toBe(true);
    expect(mentionsLogIn('HTTP 500: Payment initialization failed')).toBe(false);
  });
});

describe('what pays for the next video', () => {
  it('is nothing for unlimited users', () => {
    expect(nextGenerationPayer(true, undefined)).toEqual({ kind: 'unlimited' });
    expect(nextGenerationPayer(false, status({ subscriptionStatus: 'premium_unlimited' }))).toEqual({
      kind: 'unlimited',
    });
  });

  it("is one of today's generations for a subscriber with some left, then an extra generation, then credits", () => {
    const daily = nextGenerationPayer(false, status({ subscriptionStatus: 'active', dailyUsed: 4, extraRemaining: 9 }));
    expect(daily).toEqual({ kind: 'daily', left: 11, limit: 15 });
    expect(describeGenerationPayer(daily)).toBe("Uses 1 of today's generations (11 of 15 left)");

    const extra = nextGenerationPayer(false, status({ subscriptionStatus: 'trial', dailyUsed: 15, extraRemaining: 9 }));
    expect(extra).toEqual({ kind: 'extra', left: 9 });
    expect(describeGenerationPayer(extra)).toBe('Uses 1 extra generation (9 left)');

    expect(nextGenerationPayer(false, status({ subscriptionStatus: 'active', dailyUsed: 15 }))).toEqual({
      kind: 'credits',
    });
  });

  it('ignores daily generations of a user who is not subscribed', () => {
    expect(nextGenerationPayer(false, status({ dailyUsed: 0 }))).toEqual({ kind: 'credits' });
    expect(nextGenerationPayer(false, undefined)).toEqual({ kind: 'credits' });
    expect(describeGenerationPayer({ kind: 'credits' })).toBeNull();
  });
});

describe('credit wording for one credit', () => {
  it("says '1 Credit', never '1 Credits'", () => {
    expect(purchaseCreditsLabel(1)).toBe('Purchase 1 Credit for $1');
    expect(creditPurchaseLine(1)).toBe('1 Credit - $1.00 USD');
    expect(purchaseCreditsLabel(30)).toBe('Purchase 30 Credits for $30');
  });
});
