/** Entry of A's process (bench/noisy-neighbour/run.ts): attacks, then prints its tally as JSON. */
import { attack, tally } from './attack.ts';

const base = process.env.ATTACK_BASE ?? '';
const token = process.env.ATTACK_TOKEN ?? '';
const seconds = Number(process.env.ATTACK_SECONDS ?? '60');
const t = tally();
await attack(base, token, Date.now() + seconds * 1000, t);
process.stdout.write(JSON.stringify({ ...t, byStatus: [...t.byStatus.entries()] }));
