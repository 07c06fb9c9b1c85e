import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Globe } from 'lucide-react';
import { ZServerIp } from '@synchro/contracts';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '../../components/ui/alert-dialog.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { api, errorDetail } from '../../lib/api-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { API_PATHS } from '@synchro/contracts/constants';

export const SERVER_IP_ERROR = "Impossible de récupérer l'adresse IP du serveur";

/** Header button: shows the console server's public address, to open the automate's port to it. */
export function ServerIpButton() {
  const [open, setOpen] = useState(false);
  const query = useQuery({
    queryKey: queryKeys.serverIp,
    queryFn: ({ signal }) => api.get(API_PATHS.serverIp, { signal, schema: ZServerIp }),
    enabled: open,
    gcTime: 0,
  });

  return (
    <AlertDialog open={open} onOpenChange={setOpen}>
      <Button variant="outline" size="sm" onClick={() => setOpen(true)} aria-haspopup="dialog">
        <Globe aria-hidden="true" />
        <span className="max-sm:sr-only">IP du serveur</span>
      </Button>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Adresse IP du serveur</AlertDialogTitle>
          <AlertDialogDescription asChild>
            <div>
              {query.isFetching ? (
                <span className="flex items-center gap-2">
                  <Spinner /> Récupération de l'adresse…
                </span>
              ) : query.isError ? (
                <span className="grid gap-1">
                  <span className="font-medium text-destructive">{SERVER_IP_ERROR}</span>
                  <span>{errorDetail(query.error, '')}</span>
                </span>
              ) : query.data ? (
                <span className="grid gap-3">
                  <span>
                    {query.data.source === 'interface'
                      ? 'Adresse IP du serveur de la console'
                      : 'Adresse IP publique du serveur de la console'}
                    &nbsp;: <strong className="font-mono text-base text-foreground">{query.data.ip}</strong>
                  </span>
                  <span>
                    N'ouvrez le port du service automate qu'à cette adresse sur le pare-feu de votre serveur.
                  </span>
                  {query.data.source === 'interface' ? (
                    <span>
                      C'est l'adresse de sa carte réseau. Derrière un routeur (NAT), son adresse publique peut
                      être différente&nbsp;: l'administrateur du serveur peut l'indiquer dans la variable
                      PUBLIC_IP.
                    </span>
                  ) : null}
                </span>
              ) : null}
            </div>
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Fermer</AlertDialogCancel>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
