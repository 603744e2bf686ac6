import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';

import type { AdminCosts, CostFigures } from '../../../shared/admin-costs';
import { callsTo, createAuthUser, json, renderApp, resetAfterTest, stubApi } from '../testing/render-app';

const figures = (overrides: Partial<CostFigures>): CostFigures => ({
  videos: 0,
  completed: 0,
  paidWithCredits: 0,
  paidWithDaily: 0,
  paidWithPack: 0,
  free: 0,
  creditsCharged: 0,
  creditsGiven: 0,
  revenueUsd: 0,
  providerCostUsd: 0,
  completedWithoutCost: 0,
  marginUsd: 0,
  ...overrides,
});

const veo = figures({
  videos: 2,
  completed: 1,
  paidWithCredits: 2,
  creditsCharged: 4,
  revenueUsd: 4,
  providerCostUsd: 3.2,
  marginUsd: 0.8,
});
const local = figures({
  videos: 3,
  completed: 3,
  paidWithCredits: 1,
  paidWithDaily: 1,
  free: 1,
  creditsCharged: 2,
  revenueUsd: 2.133333,
  providerCostUsd: 6.6,
  marginUsd: -4.466667,
});
const day = figures({
  videos: 5,
  completed: 4,
  paidWithCredits: 3,
  paidWithDaily: 1,
  free: 1,
  creditsCharged: 6,
  revenueUsd: 6.133333,
  providerCostUsd: 9.8,
  marginUsd: -3.666667,
});

const COSTS: AdminCosts = {
  days: 14,
  from: '2026-11-12',
  to: '2026-11-25',
  rows: [
    { day: '2026-11-25', model: 'local', modelName: 'Local preview engine', ...local },
    { day: '2026-11-25', model: 'fal-veo3', modelName: 'Veo 3 (fal.ai)', ...veo },
  ],
  dayTotals: [{ day: '2026-11-25', ...day }],
  totals: day,
  valuation: { creditUsd: 1, dailyGenerationUsd: 0.133333, packGenerationUsd: 0.285714 },
  defaultDailySpendCap: 25,
};

afterEach(resetAfterTest);

describe('/admin/costs', () => {
  it('shows per day and model the videos, credits charged, provider cost and margin, with totals and how they are counted', async () => {
    const fetchMock = stubApi({
      'GET /api/auth/user': () => json(200, createAuthUser({ isAdmin: true })),
      'GET /api/admin/users': () => json(200, []),
      'GET /api/admin/costs': () => json(200, COSTS),
    });
    renderApp('/admin/costs');
    expect(await screen.findByRole('heading', { name: 'Costs' })).toBeDefined();
    const table = await screen.findByRole('table', { name: /per UTC day and model/ });
    const veoRow = within(table).getByText('Veo 3 (fal.ai)').closest('tr');
    if (!veoRow) throw new Error('no Veo row');
    expect(within(veoRow).getByText('$3.20')).toBeDefined();
    expect(within(veoRow).getByText('$0.80')).toBeDefined();
    expect(within(veoRow).getByText('2 / 0 / 0 / 0')).toBeDefined();
    const localRow = within(table).getByText('Local preview engine').closest('tr');
    if (!localRow) throw new Error('no local row');
    expect(within(localRow).getByText('-$4.47')).toBeDefined();
    expect(within(table).getByRole('rowheader', { name: 'Nov 25, 2026 total' })).toBeDefined();
    expect(within(table).getByRole('rowheader', { name: 'All 14 days' })).toBeDefined();
    expect(screen.getByText(/values a bought credit at \$1\.00, the price credits are sold at/)).toBeDefined();
    expect(screen.getByText(/daily-subscription generation counts \$0\.1333/)).toBeDefined();
    expect(screen.getByText(/may spend 25 credits a UTC day/)).toBeDefined();

    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText('Period'), '30');
    await screen.findByRole('table', { name: /per UTC day and model/ });
    const asked = callsTo(fetchMock, '/api/admin/costs').map(
      ([input]) =>
        new URL(
          typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
          window.location.origin,
        ).search,
    );
    expect(asked).toContain('?days=30');
  });
});
