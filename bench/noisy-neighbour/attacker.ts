/**
 * Entry of A's process (bench/noisy-neighbour/run.ts): attacks, then prints its tally as JSON.
 * ATTACK_MODE `records` (the connector's adversarial records and 80 MB batches, attack.ts) or
 * `config` (big configuration writes, attack-config.ts: ATTACK_COOKIES, A's console sessions).
 */
import { attack, tally } from './attack.ts';
import { attackConfig } from './attack-config.ts';

const base = process.env.ATTACK_BASE ?? '';
const token = process.env.ATTACK_TOKEN ?? '';
const seconds = Number(process.env.ATTACK_SECONDS ?? '60');
const t = tally();
const until = Date.now() + seconds * 1000;
if (process.env.ATTACK_MODE === 'config')
  await attackConfig(base, token, (process.env.ATTACK_COOKIES ?? '').split('\n'), until, t);
else await attack(base, token, until, t);
process.stdout.write(JSON.stringify({ ...t, byStatus: [...t.byStatus.entries()] }));
