import { Close, Content, Description, Overlay, Portal, Root, Title, Trigger } from '@radix-ui/react-dialog';
import { Ban, Check, RotateCcw, ShieldX, Undo2 } from 'lucide-react';
import { useState } from 'react';

import type { AdminJob, AdminJobActionName } from '../../../../shared/admin-jobs';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../components/ui/use-toast';
import { useAdminJobAction } from '../api/act-on-admin-job';

const ACTIONS: Record<
  AdminJobActionName,
  { label: string; title: string; explain: (job: AdminJob) => string; icon: typeof Ban; destructive: boolean }
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
  const [open, setOpen] = useState(false);
  const mutation = useAdminJobAction();
  const { label, title, explain, icon: Icon, destructive } = ACTIONS[action];
  const confirm = () =>
    mutation.mutate(
      { id: job.id, action },
      {
        onSuccess: (answer) => toast({ title: answer.message }),
        onError: (error) => toast({ title: `${label} failed`, description: error.message, variant: 'destructive' }),
        onSettled: () => setOpen(false),
      },
    );
  return (
    <Root open={open} onOpenChange={(next) => (mutation.isPending ? undefined : setOpen(next))}>
      <Trigger asChild>
        <Button variant="outline" size="sm" aria-label={`${label} job ${job.id.slice(0, 8)} of ${job.userEmail}`}>
          <Icon aria-hidden="true" /> {label}
        </Button>
      </Trigger>
      <Portal>
        <Overlay className="fixed inset-0 z-50 bg-black/50 backdrop-blur-[2px]" />
        <Content
          role="alertdialog"
          onPointerDownOutside={(event) => event.preventDefault()}
          className="fixed top-1/2 left-1/2 z-50 grid w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 gap-4 rounded-xl border border-border bg-card p-6 text-card-foreground shadow-xl outline-none"
        >
          <Title className="text-lg leading-tight font-semibold">{title}</Title>
          <Description className="text-sm break-words text-muted-foreground">{explain(job)}</Description>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Close asChild>
              <Button variant="outline" disabled={mutation.isPending}>
                Keep it
              </Button>
            </Close>
            <Button variant={destructive ? 'destructive' : 'default'} disabled={mutation.isPending} onClick={confirm}>
              {mutation.isPending ? 'Working...' : label}
            </Button>
          </div>
        </Content>
      </Portal>
    </Root>
  );
}
