import { Trash2 } from 'lucide-react';

import { Button } from '../../../components/ui/button';
import { toast } from '../../../components/ui/use-toast';
import { getServerMessage } from '../../../lib/api-client';
import { useDeleteGeneration } from '../api/delete-generation';

/**
 * Removes an expired video's record from the lists (its file is already gone, so nothing is lost
 * and no confirmation is asked).
 */
export function RemoveExpiredButton({ id, className }: { id: string; className?: string }) {
  const remove = useDeleteGeneration();
  return (
    <Button
      variant="outline"
      size="sm"
      className={className}
      disabled={remove.isPending}
      onClick={() =>
        remove.mutate(id, {
          onError: (error) =>
            toast({
              title: 'Remove Failed',
              description: getServerMessage(error) ?? error.message,
              variant: 'destructive',
            }),
        })
      }
    >
      <Trash2 aria-hidden="true" /> {remove.isPending ? 'Removing...' : 'Remove from list'}
    </Button>
  );
}
