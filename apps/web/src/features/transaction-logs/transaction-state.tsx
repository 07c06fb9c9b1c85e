import { CircleCheck, CircleX } from 'lucide-react';
import { Badge } from '../../components/ui/badge.tsx';

/** État of a transaction: OK or Erreur, in text and icon (not colour alone). */
export function TransactionState({ err }: { err: 0 | 1 }) {
  return err === 1 ? (
    <Badge variant="destructive">
      <CircleX aria-hidden="true" />
      Erreur
    </Badge>
  ) : (
    <Badge variant="success">
      <CircleCheck aria-hidden="true" />
      OK
    </Badge>
  );
}
