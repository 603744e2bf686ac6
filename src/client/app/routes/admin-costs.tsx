import { AdminAccessGate } from '../../features/admin/components/admin-access-gate';
import { AdminLayout } from '../../features/admin/components/admin-layout';
import { CostsReport } from '../../features/admin/components/costs-report';

/** /admin/costs: the cost view, for administrators (the server decides, as on /admin). */
export function AdminCostsPage() {
  return (
    <AdminAccessGate>
      <AdminLayout page="costs">
        <CostsReport />
      </AdminLayout>
    </AdminAccessGate>
  );
}
