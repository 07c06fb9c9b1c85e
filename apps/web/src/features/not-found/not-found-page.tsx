import { SearchX } from 'lucide-react';
import { Link } from 'wouter';
import { Card, CardContent } from '../../components/ui/card.tsx';
import { buttonVariants } from '../../components/ui/button.tsx';
import { usePageTitle } from '../../lib/use-page-title.ts';

/** Any path outside the route table (docs/spec-notes.md, Web: Routes and menu). */
export default function NotFoundPage() {
  usePageTitle('Page introuvable');
  return (
    <Card className="mx-auto mt-6 w-full max-w-lg">
      <CardContent className="flex flex-col items-center gap-3 pt-10 pb-8 text-center">
        <div className="grid size-14 place-content-center rounded-full bg-destructive-soft text-destructive">
          <SearchX aria-hidden="true" className="size-7" />
        </div>
        <h1 className="text-2xl font-semibold tracking-tight">404 Page Not Found</h1>
        <p className="text-sm text-muted-foreground">
          Cette page n'existe pas. Développeur&nbsp;: avez-vous oublié d'ajouter la page au routeur&#8239;?
        </p>
        <Link href="/" className={buttonVariants({ variant: 'outline', className: 'mt-2' })}>
          Retour à l'accueil
        </Link>
      </CardContent>
    </Card>
  );
}
