import { Ban, Check, ShieldX, TriangleAlert, UserCheck, X } from 'lucide-react';

import type { SafetyItem, SafetyOwner } from '../../../../shared/safety';
import type { ReportDecision } from '../api/act-on-safety-item';
import { SafetyActionDialog, type SafetyActionWords } from './safety-action-dialog';

/** What a takedown does, in the words of every confirmation that causes one. */
const TAKE_DOWN_EFFECT =
  'removes the video and everything made from it (extends, remixes), revokes its links and deletes its files; its frames are remembered so it cannot be uploaded again';

/** An item's name for the buttons' accessible names: 'report 1a2b3c4d'. */
const itemName = (item: SafetyItem) => `${item.kind} ${item.id.slice(0, 8)}`;
const ownerName = (item: SafetyItem) => item.owner?.email ?? 'its owner';

type DecisionWords = SafetyActionWords & { action: ReportDecision };

const REPORT_NOTE = 'Note to the reporter and the owner (optional)';
const OWNER_NOTE = 'Note to the owner (optional)';

/** A report: take the video down (reporter and owner hear of it) or dismiss it (the reporter does). */
function reportWords(item: SafetyItem): DecisionWords[] {
  return [
    {
      action: 'take-down',
      label: 'Take down',
      name: `Take down (${itemName(item)})`,
      title: 'Take this video down?',
      explain: `This ${TAKE_DOWN_EFFECT}. The reporter and ${ownerName(item)} are told, with your note.`,
      icon: ShieldX,
      destructive: true,
      note: REPORT_NOTE,
    },
    {
      action: 'dismiss',
      label: 'Dismiss',
      name: `Dismiss (${itemName(item)})`,
      title: 'Dismiss this report?',
      explain: 'The video stays up and the report is closed. The reporter is told, with your note.',
      icon: X,
      destructive: false,
      note: 'Note to the reporter (optional)',
    },
  ];
}

/**
 * An owner's appeal of a takedown: the video is gone already (the server refuses a second takedown),
 * so the decision is to grant it (the takedown's strike is taken back) or dismiss it (the takedown stands).
 */
function appealWords(item: SafetyItem): DecisionWords[] {
  return [
    {
      action: 'grant',
      label: 'Grant',
      name: `Grant (${itemName(item)})`,
      title: 'Grant this appeal?',
      explain: `The takedown's strike on ${ownerName(item)} is taken back, and their account is unsuspended if it was. The removed video and its files cannot come back. They are told, with your note.`,
      icon: Check,
      destructive: false,
      note: OWNER_NOTE,
    },
    {
      action: 'dismiss',
      label: 'Dismiss',
      name: `Dismiss (${itemName(item)})`,
      title: 'Dismiss this appeal?',
      explain: `The takedown stands and the appeal is closed. ${ownerName(item)} is told, with your note.`,
      icon: X,
      destructive: false,
      note: OWNER_NOTE,
    },
  ];
}

function flagWords(item: SafetyItem): { restore: SafetyActionWords; takeDown: SafetyActionWords } {
  const finished = item.stage === 'output';
  return {
    restore: {
      label: 'Restore',
      name: `Restore (${itemName(item)})`,
      title: 'Restore this video?',
      explain: finished
        ? `The finished video is shown to ${ownerName(item)}, as if screening had not held it.`
        : `The job of ${ownerName(item)} goes into the queue and is made as asked.`,
      icon: Check,
      destructive: false,
    },
    takeDown: {
      label: 'Take down',
      name: `Take down (${itemName(item)})`,
      title: 'Take this video down?',
      explain: `The job of ${ownerName(item)} fails as "Blocked by the content policy." and is never shown${finished ? '; its file is deleted' : ''}. Its charge comes back if this server gives blocked videos' charges back (REFUND_BLOCKED_GENERATIONS).`,
      icon: ShieldX,
      destructive: true,
    },
  };
}

/** The decisions on an item: Take down or Dismiss a report, Grant or Dismiss an appeal, Restore or Take down a held job. */
export function SafetyItemDecisions({ item }: { item: SafetyItem }) {
  if (item.kind === 'flag') {
    const words = flagWords(item);
    return (
      <>
        <SafetyActionDialog words={words.restore} request={() => ({ on: 'flag', id: item.id, action: 'approve' })} />
        <SafetyActionDialog words={words.takeDown} request={() => ({ on: 'flag', id: item.id, action: 'reject' })} />
      </>
    );
  }
  const decisions = item.kind === 'appeal' ? appealWords(item) : reportWords(item);
  return decisions.map(({ action, ...words }) => (
    <SafetyActionDialog key={action} words={words} request={(note) => ({ on: 'report', id: item.id, action, note })} />
  ));
}

/** What can be done to a video's owner: warn them, and suspend or unsuspend their account. */
export function SafetyOwnerActions({ owner }: { owner: SafetyOwner }) {
  const warn: SafetyActionWords = {
    label: 'Warn',
    name: `Warn ${owner.email}`,
    title: `Warn ${owner.email}?`,
    explain: `${owner.email} gets a strike (${owner.strikes + 1} in all) and an email saying a video of theirs broke the content policy. Enough strikes suspend the account (SAFETY_STRIKES_TO_SUSPEND).`,
    icon: TriangleAlert,
    destructive: false,
  };
  const suspend: SafetyActionWords = owner.suspended
    ? {
        label: 'Unsuspend',
        name: `Unsuspend ${owner.email}`,
        title: `Unsuspend ${owner.email}?`,
        explain: `${owner.email} can sign in and make videos again.`,
        icon: UserCheck,
        destructive: false,
      }
    : {
        label: 'Suspend',
        name: `Suspend ${owner.email}`,
        title: `Suspend ${owner.email}?`,
        explain: `${owner.email} is signed out everywhere, and cannot sign in or make videos until you unsuspend them.`,
        icon: Ban,
        destructive: true,
      };
  return (
    <>
      <SafetyActionDialog words={warn} request={() => ({ on: 'owner', id: owner.id, action: 'warn' })} />
      <SafetyActionDialog
        words={suspend}
        request={() => ({ on: 'owner', id: owner.id, action: owner.suspended ? 'unsuspend' : 'suspend' })}
      />
    </>
  );
}
