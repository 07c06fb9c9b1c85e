import { describe, expect, it } from 'vitest';
import { DEFAULT_SOFTWARE_NAME, softwareNameFromTablettes } from './software-name.ts';

describe('softwareNameFromTablettes', () => {
  it('takes the second field of the first entry', () => {
    expect(
      softwareNameFromTablettes('1;EBP GesCom Open Line;EBPGesComOL|2;EBP Gestion Open Line;GesCom'),
    ).toBe('EBP GesCom Open Line');
    expect(softwareNameFromTablettes('1;Sage 100;S100')).toBe('Sage 100');
  });
  it('falls back to a generic ERP name', () => {
    expect(softwareNameFromTablettes('')).toBe(DEFAULT_SOFTWARE_NAME);
    expect(softwareNameFromTablettes('1')).toBe(DEFAULT_SOFTWARE_NAME);
    expect(softwareNameFromTablettes('1; ;X|2;Autre;Y')).toBe(DEFAULT_SOFTWARE_NAME);
    expect(softwareNameFromTablettes(undefined)).toBe(DEFAULT_SOFTWARE_NAME);
  });
});
