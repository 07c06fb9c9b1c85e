/** The steps of bench/delivery/layers.ts (what each adds: layers-server.ts). */
export const STEPS = [
  'bare',
  'logger',
  'request-log',
  'metrics',
  'guards',
  'plugins',
  'session',
  'route',
  'app',
] as const;
export type Step = (typeof STEPS)[number];

export interface Ready {
  ports: Record<Step, number>;
  cookie: string;
}

/** A route measured and the Accept-Encoding it is asked with ('' : none). */
export interface Case {
  route: string;
  encoding: string;
}
