import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  documentFromLayout,
  editComplement,
  parseConfig,
  readComplement,
  readExclusions,
  readSources,
  readTerminals,
  transferLayout,
  type TransferredLayout,
} from '../src/index.ts';

const fixture = readFileSync(new URL('./fixtures/connexion-ebp-gescom.xml', import.meta.url), 'utf8');

describe('a parsed configuration sent between threads', () => {
  it('reads and edits the same after a structured clone that moves its index', () => {
    const here = parseConfig(fixture);
    const { value, transfer } = transferLayout(here);
    const moved = structuredClone(value, { transfer }) as TransferredLayout;
    // Moved, not copied: the sender's buffers are emptied.
    expect(value.arrays.start.byteLength).toBe(0);
    const there = documentFromLayout(fixture, moved);
    expect(readTerminals(there)).toEqual(readTerminals(here));
    expect(readSources(there)).toEqual(readSources(here));
    expect(readExclusions(there)).toEqual(readExclusions(here));
    expect(readComplement(there)).toEqual(readComplement(here));
    expect(there.sectionText('Terminaux')).toBe(here.sectionText('Terminaux'));
    const current = readComplement(here);
    const payload = {
      ...current,
      mailRapport: { ...current.mailRapport, mailDestinataire: 'transfert@exemple.fr' },
    };
    const edited = editComplement(there, payload as never);
    expect(edited).toContain('transfert@exemple.fr');
    expect(edited).toBe(editComplement(parseConfig(fixture), payload as never));
  });
});
