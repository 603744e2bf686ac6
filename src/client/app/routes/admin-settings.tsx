import { AdminAccessGate } from '../../features/admin/components/admin-access-gate';
import { AdminLayout } from '../../features/admin/components/admin-layout';
import { InstallationSettingsPanel } from '../../features/admin/components/provider-settings';

/** /admin/settings: the installation's settings, for administrators (the server decides, as on /admin). */
export function AdminSettingsPage() {
  return (
    <AdminAccessGate>
      <AdminLayout page="settings">
        <InstallationSettingsPanel />
      </AdminLayout>
    </AdminAccessGate>
  );
}
