import { useState } from 'react';
import { useSearch } from 'wouter';

import { DECISION_HOURS, type ReportReceipt } from '../../../shared/safety';
import { AuthLayout } from '../../components/layouts/auth-layout';
import { ReportForm } from '../../features/safety/components/report-form';
import { ReportReceiptView } from '../../features/safety/components/report-receipt';

/** /report: anyone, signed in or not, reports a video (issue 44); `?video=` names it. */
export function ReportPage() {
  const initialVideo = new URLSearchParams(useSearch()).get('video') ?? '';
  const [receipt, setReceipt] = useState<ReportReceipt | null>(null);
  // A second report starts empty: it is about another video.
  const [another, setAnother] = useState(false);
  return (
    <AuthLayout
      title="Report a video"
      description={`Reports are read by the people who run this server, and decided within ${DECISION_HOURS} hours.`}
    >
      {receipt ? (
        <ReportReceiptView
          receipt={receipt}
          onReportAnother={() => {
            setReceipt(null);
            setAnother(true);
          }}
        />
      ) : (
        <ReportForm initialVideo={another ? '' : initialVideo} onReceived={setReceipt} />
      )}
    </AuthLayout>
  );
}
