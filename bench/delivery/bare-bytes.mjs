// The floor of bench/delivery/compression.ts: a bare fastify that sends, for each path of a
// manifest, the bytes the console sent for it (already encoded) with the same headers. No
// compression, no session, no database: what sending those bytes costs.
//   node bench/delivery/bare-bytes.mjs <manifest.json> <port>
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const [manifestFile, port] = process.argv.slice(2);
/** @type {{ path: string, headers: Record<string, string>, file: string }[]} */
const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
const app = Fastify({ logger: false });
for (const entry of manifest) {
  const bytes = readFileSync(entry.file);
  app.get(entry.path, (_request, reply) => {
    void reply.headers(entry.headers);
    return reply.send(bytes);
  });
}
await app.listen({ port: Number(port), host: '127.0.0.1' });
process.stdout.write('ready\n');
