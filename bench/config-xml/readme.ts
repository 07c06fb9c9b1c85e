import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/** Replace (or append) the `heading` section of bench/README.md, leaving the others alone. */
export function writeSection(path: string, section: string, heading = '## config-xml'): void {
  const current = existsSync(path) ? readFileSync(path, 'utf8') : '# Benchmarks\n';
  const start = current.indexOf(`${heading}\n`);
  const body = `${section.trimEnd()}\n`;
  if (start === -1) {
    writeFileSync(path, `${current.trimEnd()}\n\n${body}`);
    return;
  }
  const next = current.indexOf('\n## ', start + heading.length);
  const after = next === -1 ? '' : `\n${current.slice(next + 1)}`;
  writeFileSync(path, `${current.slice(0, start)}${body}${after}`);
}
