import { OperatorContactLink } from '../../../components/ui/operator-contact-link';
import { usePaymentsConfig } from '../api/get-payments-config';

/**
 * Where this server takes no payments: who to ask for credits (OPERATOR_CONTACT, from GET
 * /api/payments/config), as a link; without one, the person who runs the server.
 */
export function OperatorContact({ className }: { className?: string }) {
  const contact = usePaymentsConfig().data?.operatorContact ?? null;
  if (!contact) return <span className={className}>To get credits, ask the person who runs this server.</span>;
  return (
    <span className={className}>
      To get credits, contact the operator: <OperatorContactLink contact={contact} />.
    </span>
  );
}
