import { AdminAccessGate } from '../../features/admin/components/admin-access-gate';
import { AdminLayout } from '../../features/admin/components/admin-layout';
import { JobsConsole } from '../../features/admin/components/jobs-console';

/** /admin/jobs: the jobs console, for administrators (the server decides, as on /admin). */
export function AdminJobsPage() {
  return (
    <AdminAccessGate>
      <AdminLayout page="jobs">
        <JobsConsole />
      </AdminLayout>
    </AdminAccessGate>
  );
}
