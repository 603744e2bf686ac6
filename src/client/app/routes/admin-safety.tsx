import { AdminAccessGate } from '../../features/admin/components/admin-access-gate';
import { AdminLayout } from '../../features/admin/components/admin-layout';
import { SafetyQueue } from '../../features/admin/components/safety-queue';

/** /admin/safety: reports, appeals and flagged videos to decide, for administrators (the server decides, as on /admin). */
export function AdminSafetyPage() {
  return (
    <AdminAccessGate>
      <AdminLayout page="safety">
        <SafetyQueue />
      </AdminLayout>
    </AdminAccessGate>
  );
}
