import { describe, expect, it } from 'vitest';
import { formatElapsed, frenchSpacing } from './french-text.ts';

describe('formatElapsed', () => {
  it('says how long ago in French, the number and its unit kept together', () => {
    expect(formatElapsed(0)).toBe('il y a moins d’une minute');
    expect(formatElapsed(59)).toBe('il y a moins d’une minute');
    expect(formatElapsed(180)).toBe('il y a 3\u00a0min');
    expect(formatElapsed(3599)).toBe('il y a 59\u00a0min');
    expect(formatElapsed(3600)).toBe('il y a 1\u00a0h');
    expect(formatElapsed(86_399)).toBe('il y a 23\u00a0h');
    expect(formatElapsed(86_400)).toBe('il y a 1\u00a0jour');
    expect(formatElapsed(3 * 86_400 + 5)).toBe('il y a 3\u00a0jours');
    expect(formatElapsed(-5)).toBe('il y a moins d’une minute');
  });
});

describe('frenchSpacing', () => {
  it('puts non-breaking spaces before : and inside « », narrow ones before ; ! ?', () => {
    expect(frenchSpacing('Erreur : « a » ; vraiment ? oui !')).toBe(
      'Erreur\u00a0: «\u00a0a\u00a0»\u202f; vraiment\u202f? oui\u202f!',
    );
    expect(frenchSpacing('http://x:80 a:b')).toBe('http://x:80 a:b');
  });
});
