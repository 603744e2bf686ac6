import { Fragment, useState } from 'react';

import { type AdminCosts, COST_DAYS_DEFAULT, type CostFigures, type CostRow } from '../../../../shared/admin-costs';
import { formatCreditCount } from '../../../../shared/money/credits';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { Label } from '../../../components/ui/label';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/utils';
import { useAdminCosts } from '../api/get-admin-costs';
import { formatNumber } from '../format';

const DAY_CHOICES = [7, 14, 30, 90] as const;

/** '$1.53', '-$0.40'; `digits` more for the small per-video values. */
export function formatUsdFigure(usd: number, digits = 2): string {
  const text = `$${Math.abs(usd).toFixed(digits)}`;
  return usd < 0 && Number(Math.abs(usd).toFixed(digits)) !== 0 ? `-${text}` : text;
}

/** 'Nov 25, 2026' for a UTC day, without moving it into the browser's zone. */
function formatDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime())
    ? day
    : date.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
}

const selectClass =
  'h-10 rounded-md border border-input bg-background px-3 text-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none';

/** The cost view: per UTC day and model, what was made, charged, billed by providers, and the margin. */
export function CostsReport() {
  const [days, setDays] = useState<number>(COST_DAYS_DEFAULT);
  const costs = useAdminCosts(days);
  const data = costs.data;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end gap-3">
        <div className="grid gap-1.5">
          <Label htmlFor="costs-days">Period</Label>
          <select
            id="costs-days"
            className={selectClass}
            value={days}
            onChange={(event) => setDays(Number(event.target.value))}
          >
            {DAY_CHOICES.map((choice) => (
              <option key={choice} value={choice}>
                Last {choice} days
              </option>
            ))}
          </select>
        </div>
        {data ? (
          <p className="pb-2 text-sm text-muted-foreground">
            {formatDay(data.from)} to {formatDay(data.to)} (UTC days)
          </p>
        ) : null}
      </div>
      {costs.isError ? (
        <p role="alert" className="text-sm text-destructive">
          Could not load the costs: {costs.error.message}
        </p>
      ) : null}
      {data ? <TotalTiles totals={data.totals} /> : null}
      <Card>
        <CardHeader>
          <CardTitle>By day and model</CardTitle>
        </CardHeader>
        <CardContent>{data ? <CostsTable data={data} /> : <Spinner label="Loading costs" />}</CardContent>
      </Card>
      {data ? <HowItIsCounted data={data} /> : null}
    </div>
  );
}

function TotalTiles({ totals }: { totals: CostFigures }) {
  const tiles = [
    { label: 'Videos', value: formatNumber(totals.videos), note: `${formatNumber(totals.completed)} completed` },
    { label: 'Credits charged', value: formatNumber(totals.creditsCharged), note: 'less refunds' },
    { label: 'Revenue', value: formatUsdFigure(totals.revenueUsd), note: 'valued as below' },
    {
      label: 'Provider cost',
      value: formatUsdFigure(totals.providerCostUsd),
      note:
        totals.completedWithoutCost > 0
          ? `${formatNumber(totals.completedWithoutCost)} ${totals.completedWithoutCost === 1 ? 'video' : 'videos'} without a cost`
          : '',
    },
    { label: 'Margin', value: formatUsdFigure(totals.marginUsd), note: '' },
  ];
  return (
    <dl className="grid grid-cols-2 gap-3 lg:grid-cols-5">
      {tiles.map((tile) => (
        <div key={tile.label} className="rounded-xl border border-border bg-card p-4">
          <dt className="text-xs text-muted-foreground">{tile.label}</dt>
          <dd className="mt-1 text-2xl font-semibold tabular-nums">{tile.value}</dd>
          {tile.note ? <dd className="mt-0.5 text-xs text-muted-foreground">{tile.note}</dd> : null}
        </div>
      ))}
    </dl>
  );
}

const HEADERS = [
  'Day',
  'Model',
  'Videos',
  'Completed',
  'Credits / daily / pack / free',
  'Credits charged',
  'Revenue',
  'Provider cost',
  'Margin',
];

function FigureCells({ figures }: { figures: CostFigures }) {
  const cell = 'px-3 py-2 text-right tabular-nums whitespace-nowrap';
  return (
    <>
      <td className={cell}>{formatNumber(figures.videos)}</td>
      <td className={cell}>{formatNumber(figures.completed)}</td>
      <td className={cell}>
        {[figures.paidWithCredits, figures.paidWithDaily, figures.paidWithPack, figures.free]
          .map(formatNumber)
          .join(' / ')}
      </td>
      <td className={cell}>{formatNumber(figures.creditsCharged)}</td>
      <td className={cell}>{formatUsdFigure(figures.revenueUsd)}</td>
      <td className={cell}>
        {formatUsdFigure(figures.providerCostUsd)}
        {figures.completedWithoutCost > 0 ? (
          <span className="block text-xs text-muted-foreground">
            + {formatNumber(figures.completedWithoutCost)} without a cost
          </span>
        ) : null}
      </td>
      <td className={cn(cell, figures.marginUsd < 0 ? 'text-destructive' : '')}>
        {formatUsdFigure(figures.marginUsd)}
      </td>
    </>
  );
}

function CostsTable({ data }: { data: AdminCosts }) {
  if (data.rows.length === 0)
    return <p className="py-8 text-center text-sm text-muted-foreground">No videos were made in this period.</p>;
  const byDay = new Map<string, CostRow[]>();
  for (const row of data.rows) byDay.set(row.day, [...(byDay.get(row.day) ?? []), row]);
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm">
        <caption className="sr-only">Videos, credits charged, provider cost and margin per UTC day and model</caption>
        <thead className="border-b border-border bg-muted/40 text-xs text-muted-foreground">
          <tr>
            {HEADERS.map((header, i) => (
              <th
                key={header}
                scope="col"
                className={cn('px-3 py-2 font-medium whitespace-nowrap', i < 2 ? 'text-left' : 'text-right')}
              >
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {data.dayTotals.map((total) => (
            <Fragment key={total.day}>
              {(byDay.get(total.day) ?? []).map((row) => (
                <tr key={`${row.day} ${row.model}`} className="border-b border-border">
                  <td className="px-3 py-2 whitespace-nowrap text-muted-foreground">{formatDay(row.day)}</td>
                  <td className="px-3 py-2">
                    <span className="block max-w-56 truncate" title={row.model}>
                      {row.modelName}
                    </span>
                  </td>
                  <FigureCells figures={row} />
                </tr>
              ))}
              <tr className="border-b-2 border-border bg-muted/30 font-medium">
                <th scope="row" colSpan={2} className="px-3 py-2 text-left whitespace-nowrap">
                  {formatDay(total.day)} total
                </th>
                <FigureCells figures={total} />
              </tr>
            </Fragment>
          ))}
        </tbody>
        <tfoot className="font-semibold">
          <tr>
            <th scope="row" colSpan={2} className="px-3 py-2 text-left">
              All {data.days} days
            </th>
            <FigureCells figures={data.totals} />
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

/** How revenue, cost and the cap are counted, in the page's own words (docs/product-rules.md, Administration). */
function HowItIsCounted({ data }: { data: AdminCosts }) {
  const { valuation } = data;
  return (
    <div className="space-y-2 text-sm text-muted-foreground">
      <p>
        Revenue values a bought credit at {formatUsdFigure(valuation.creditUsd)}, the price credits are sold at; credits
        that were given (the sign-up credit, grants and additions on this page) are spent first and bring nothing
        {data.totals.creditsGiven > 0 ? ` (${formatCreditCount(data.totals.creditsGiven)} of the period's)` : ''}, and
        refunded charges bring nothing. A video paid with a daily-subscription generation counts{' '}
        {formatUsdFigure(valuation.dailyGenerationUsd, 4)} (a full-price day over its daily generations) and one paid
        with an extra-pack generation {formatUsdFigure(valuation.packGenerationUsd, 4)} (the cheapest pack&apos;s price
        per generation): the least such a video brings in, so their margin is a floor. Videos of unlimited accounts and
        administrators&apos; re-runs bring nothing.
      </p>
      <p>
        Provider cost counts completed videos at the price MODELS_CONFIG gave their model (providerCost) when each was
        made; a model without one adds nothing and its videos are counted as without a cost. Deleted videos leave this
        view.
      </p>
      <p>
        {data.defaultDailySpendCap === null
          ? 'No daily spend cap applies by default (DAILY_SPEND_CAP_CREDITS is unset).'
          : `Everyone without their own cap may spend ${formatNumber(data.defaultDailySpendCap)} credits a UTC day (DAILY_SPEND_CAP_CREDITS).`}{' '}
        A user&apos;s own cap is set on the Users page.
      </p>
    </div>
  );
}
