import type { ReactNode } from 'react';

/** The numbered blocks of a settings screen ("Connexion n", "Logiciel maître n"): two columns on wide screens. */
export function BlockGrid({ children }: { children: ReactNode }) {
  return <div className="grid gap-6 2xl:grid-cols-2">{children}</div>;
}
