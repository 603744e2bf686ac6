import { operatorContactHref } from '../../../shared/money/payments';
import { cn } from '../../lib/utils';

/**
 * The operator's contact (OPERATOR_CONTACT, or the settings page's) as a link: mailto: for an email
 * address, a new tab for a web address.
 */
export function OperatorContactLink({ contact, className }: { contact: string; className?: string }) {
  return (
    <a
      href={operatorContactHref(contact)}
      className={cn('font-semibold break-all text-primary underline underline-offset-4', className)}
      {...(contact.startsWith('http') ? { target: '_blank', rel: 'noreferrer' } : {})}
    >
      {contact}
    </a>
  );
}
