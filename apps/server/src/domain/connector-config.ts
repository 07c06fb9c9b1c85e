import { SECRET_PLACEHOLDER, type TPlanningCounts } from '@synchro/contracts';

// INTERIM: replaced by @synchro/config-xml (redactConfig, parseConfig, countPlannings) as soon
// as that package exports them; the rest of the server only calls these two functions.

/** The configuration text with every secret replaced by the placeholder. */
export function redactedConfigText(text: string): string {
  return text
    .replace(/<MDP>[^<]*<\/MDP>/g, `<MDP>${SECRET_PLACEHOLDER}</MDP>`)
    .replace(/<Valeur>[^<]+<\/Valeur>/g, `<Valeur>${SECRET_PLACEHOLDER}</Valeur>`)
    .replace(/<EspaceClient>[\s\S]*?<\/EspaceClient>/g, (block) =>
      block.replace(/<Utilisateur>[^<]*<\/Utilisateur>/g, `<Utilisateur>${SECRET_PLACEHOLDER}</Utilisateur>`),
    );
}

/** Number of schedules per sync type. */
export function planningCountsOf(text: string): TPlanningCounts {
  const counts: TPlanningCounts = { C: 0, R: 0, I: 0 };
  for (const m of text.matchAll(/<Planning>[\s\S]*?<Ordre>([CRI])<\/Ordre>[\s\S]*?<\/Planning>/g)) {
    const key = m[1] as keyof TPlanningCounts;
    counts[key] += 1;
  }
  return counts;
}
