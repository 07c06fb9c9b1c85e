import { LogOut } from 'lucide-react';
import { useLocation } from 'wouter';
import { Button } from '../../components/ui/button.tsx';
import { toast } from '../../components/ui/toast-store.ts';
import { useAuth } from '../../state/auth/auth-context.ts';
import { errorDetail } from '../../lib/api-client.ts';
import { useNavigationGuard } from '../../state/unsaved-changes/unsaved-changes-context.ts';

export function LogoutButton() {
  const { logout, isLoggingOut } = useAuth();
  const { requestNavigation, resumeGuard } = useNavigationGuard();
  const [, navigate] = useLocation();

  const onClick = () => {
    requestNavigation(() => {
      logout().then(
        () => navigate('/auth', { replace: true }),
        (error: unknown) => {
          // Still signed in, on the same screen: its unsaved changes are guarded again.
          resumeGuard();
          toast({
            title: 'Erreur de déconnexion',
            description: errorDetail(error, 'Erreur inconnue'),
            variant: 'destructive',
          });
        },
      );
    });
  };

  return (
    <Button variant="ghost" size="sm" onClick={onClick} busy={isLoggingOut}>
      {isLoggingOut ? null : <LogOut aria-hidden="true" />}
      <span className="max-sm:sr-only">Se déconnecter</span>
    </Button>
  );
}
