import { describe, expect, it } from 'vitest';
import { asksForText } from './accept.ts';

describe('asksForText', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['*/*', false], // fetch's default: the earlier console's client
    ['application/json', false],
    ['application/json, text/plain, */*', false],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', false], // a browser tab
    ['text/plain', true], // our screens
    ['text/plain; charset=utf-8', true],
    ['TEXT/PLAIN', true],
    ['text/*', true],
    ['text/plain, */*;q=0.1', true],
    ['application/json;q=0.5, text/plain', true],
    ['text/plain;q=0.5, application/json', false],
    ['text/plain;q=0', false],
    ['text/*, application/json', false],
    ['text/plain;q=abc', false],
  ])('%j → text: %s', (accept, expected) => {
    expect(asksForText(accept)).toBe(expected);
  });
});
