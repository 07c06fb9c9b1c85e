// `npm start`: builds what is missing or outdated, then runs the server (migrations and the
// demo installation happen at its start). Ctrl-C stops the server cleanly.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServerIfNeeded, buildSimulatorIfNeeded, buildWebIfNeeded } from './build-if-needed.mjs';

process.chdir(join(dirname(fileURLToPath(import.meta.url)), '..'));

if (!buildWebIfNeeded()) {
  console.error("La construction de l'interface web a échoué : le serveur démarre avec l'API seule.");
}
if (!buildServerIfNeeded()) {
  console.error('La construction du serveur a échoué.');
  process.exit(1);
}
if (!buildSimulatorIfNeeded()) {
  console.error("La construction du simulateur d'automate a échoué : la démonstration démarre sans lui.");
}

const server = spawn(process.execPath, ['apps/server/dist/main.js'], { stdio: 'inherit' });
// Ctrl-C reaches the server too (same process group); this process only waits for its end.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (server.exitCode === null) server.kill(signal);
  });
}
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
