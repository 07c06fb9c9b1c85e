import { describe, expect, it } from 'vitest';
import { TERMINAL_SILENT_AFTER_HOURS, terminalState } from './activity.ts';

describe('terminalState', () => {
  const now = Date.parse('2025-03-31T10:00:00Z');
  it('is « Jamais vu » without exchange, « Actif » within the threshold, silent past it', () => {
    expect(terminalState(null, now)).toEqual({ kind: 'never' });
    const edge = new Date(now - TERMINAL_SILENT_AFTER_HOURS * 3_600_000).toISOString();
    expect(terminalState(edge, now)).toEqual({ kind: 'active' });
    const past = new Date(now - TERMINAL_SILENT_AFTER_HOURS * 3_600_000 - 1000).toISOString();
    expect(terminalState(past, now)).toEqual({ kind: 'silent', sinceMs: Date.parse(past) });
  });
});
