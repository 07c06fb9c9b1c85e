import { Send } from 'lucide-react';
import { emailListProblem } from '@synchro/contracts';
import { Button } from '../../components/ui/button.tsx';
import { toast } from '../../components/ui/toast-store.ts';
import { errorDetail } from '../../lib/api-client.ts';
import { useTestReport } from './mail-api.ts';

/**
 * « Test rapport »: the report of the last sync (or a sample) sent now to the address of the field,
 * saved or not; the toast says what happened (docs/mail.md, Test rapport).
 */
export function TestReportButton({ address, onInvalid }: { address: string; onInvalid: () => void }) {
  const test = useTestReport();
  const onClick = () => {
    if (address.trim() === '' || emailListProblem(address) !== null) return onInvalid();
    test.mutate(address, {
      onSuccess: (answer) =>
        toast({
          title: 'Test rapport',
          description: answer.message,
          variant: answer.outcome === 'sent' ? 'default' : 'destructive',
        }),
      onError: (error) =>
        toast({
          title: 'Test rapport',
          description: errorDetail(error, 'Le rapport de test n’a pas pu être envoyé.'),
          variant: 'destructive',
        }),
    });
  };
  return (
    <Button variant="outline" busy={test.isPending} onClick={onClick}>
      <Send aria-hidden="true" />
      Test rapport
    </Button>
  );
}
