import type { GenerationRecord } from '../../../../shared/generations';
import { isExpiredVideo } from '../../../../shared/video-display';
import { isUnfinished } from '../format';
import { GenerationRow } from './generation-row';

/** Every generation, newest first as the server orders them, with a one-line count by status. */
export function HistoryList({ records }: { records: GenerationRecord[] }) {
  return (
    <div className="grid gap-3">
      <p className="text-sm text-muted-foreground">{summarize(records)}</p>
      <ul aria-label="Generation jobs" className="grid gap-3">
        {records.map((record) => (
          <GenerationRow key={record.id} record={record} />
        ))}
      </ul>
    </div>
  );
}

/** '5 videos · 3 completed · 1 processing · 1 failed' */
function summarize(records: GenerationRecord[]): string {
  const count = (match: (record: GenerationRecord) => boolean) => records.filter(match).length;
  const parts = [
    `${records.length} ${records.length === 1 ? 'video' : 'videos'}`,
    `${count((record) => record.status === 'completed' && !isExpiredVideo(record))} completed`,
  ];
  const expired = count((record) => isExpiredVideo(record));
  if (expired > 0) parts.push(`${expired} expired`);
  const unfinished = count((record) => isUnfinished(record.status));
  const failed = count((record) => record.status === 'failed');
  if (unfinished > 0) parts.push(`${unfinished} processing`);
  if (failed > 0) parts.push(`${failed} failed`);
  return parts.join(' · ');
}
