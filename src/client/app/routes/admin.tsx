import { AdminAccessGate } from '../../features/admin/components/admin-access-gate';
import { AdminLayout } from '../../features/admin/components/admin-layout';
import { AdminStatsTiles } from '../../features/admin/components/admin-stats-tiles';
import { SetupChecklist } from '../../features/admin/components/setup-checklist';
import { UserManagementTable } from '../../features/admin/components/user-management-table';

/** /admin: the server decides access with the users call; administrators then manage every user. */
export function AdminPage() {
  return (
    <AdminAccessGate>
      <AdminLayout>
        <SetupChecklist />
        <AdminStatsTiles />
        <UserManagementTable />
      </AdminLayout>
    </AdminAccessGate>
  );
}
