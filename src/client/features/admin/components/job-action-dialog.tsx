import { Ban, Check, type LucideIcon, RotateCcw, ShieldX, Undo2 } from 'lucide-react';

import type { AdminJob, AdminJobActionName } from '../../../../shared/admin-jobs';
import { toast } from '../../../components/ui/use-toast';
import { useAdminJobAction } from '../api/act-on-admin-job';
import { ActionConfirmDialog } from './action-confirm-dialog';

const ACTIONS: Record<
  AdminJobActionName,
  { label: string; title: string; explain: (job: AdminJob) => string; icon: LucideIcon; destructive: boolean }
> = {
  cancel: {
    label: 'Cancel',
    title: 'Cancel this job?',
    explain: (job) =>
      `The job of ${job.userEmail} stops${job.status === 'processing' ? ' (its engine is stopped within seconds)' : ''} and fails with "This video was cancelled by an administrator." Nothing is refunded unless you refund it afterwards.`,
    icon: Ban,
    destructive: true,
  },
  rerun: {
    label: 'Re-run',
    title: 'Re-run this job for free?',
    explain: (job) =>
      `A new job with the same prompt, model and inputs is queued for ${job.userEmail}. It is paid by the operator: nothing is charged.`,
    icon: RotateCcw,
    destructive: false,
  },
  refund: {
    label: 'Refund',
    title: "Refund this job's charge?",
    explain: (job) =>
      `What paid for it (${job.paidWith === 'credits' ? `${job.creditsCharged} ${job.creditsCharged === 1 ? 'credit' : 'credits'}` : `a ${job.paidWith} generation`}) goes back to ${job.userEmail}, once, as a ledger row naming you.`,
    icon: Undo2,
    destructive: false,
  },
  approve: {
    label: 'Approve',
    title: 'Approve this description?',
    explain: (job) =>
      `Screening flagged the description of ${job.userEmail}'s job for review. Approved, it goes into the queue and is made as asked.`,
    icon: Check,
    destructive: false,
  },
  reject: {
    label: 'Reject',
    title: 'Reject this job?',
    explain: (job) =>
      `The job of ${job.userEmail} fails as "Blocked by the content policy." and is never made. Its charge comes back if this server gives blocked videos' charges back (REFUND_BLOCKED_GENERATIONS).`,
    icon: ShieldX,
    destructive: true,
  },
};

/** One action on a job behind a confirmation; the outcome is told in a toast. */
export function JobActionDialog({ job, action }: { job: AdminJob; action: AdminJobActionName }) {
  const mutation = useAdminJobAction();
  const { label, title, explain, icon, destructive } = ACTIONS[action];
  return (
    <ActionConfirmDialog
      label={label}
      name={`${label} job ${job.id.slice(0, 8)} of ${job.userEmail}`}
      icon={icon}
      destructive={destructive}
      title={title}
      explain={explain(job)}
      cancel="Keep it"
      pending={mutation.isPending}
      onConfirm={(close) =>
        mutation.mutate(
          { id: job.id, action },
          {
            onSuccess: (answer) => toast({ title: answer.message }),
            onError: (error) => toast({ title: `${label} failed`, description: error.message, variant: 'destructive' }),
            onSettled: close,
          },
        )
      }
    />
  );
}
