import type { ErrorReport } from '../../../shared/errors';
import type { ServiceContext } from '../../context';
import { insertErrorReport } from './error-reports.repository';

/** Keeps a report from the browser's error screen, with who sent it and from where. */
export async function recordErrorReport(
  ctx: ServiceContext,
  report: ErrorReport,
  sender: { userId: string | null; ip: string },
): Promise<void> {
  await insertErrorReport(ctx.db, {
    errorId: report.errorId,
    userId: sender.userId,
    message: report.message,
    stack: report.stack ?? null,
    componentStack: report.componentStack ?? null,
    url: report.url,
    userAgent: report.userAgent,
    clientTimestamp: new Date(report.timestamp),
    ip: sender.ip,
  });
}
