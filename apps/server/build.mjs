// Bundles the server and the admin command into dist/ (scripts/node-bundle.mjs).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleForNode } from '../../scripts/node-bundle.mjs';

const root = dirname(fileURLToPath(import.meta.url));

await bundleForNode(
  {
    main: join(root, 'src/main.ts'),
    cli: join(root, 'src/admin/cli.ts'),
    'offload-worker': join(root, 'src/offload-worker.ts'),
    'db-worker': join(root, 'src/db-worker.ts'),
  },
  join(root, 'dist'),
);
console.log('server built in apps/server/dist');
