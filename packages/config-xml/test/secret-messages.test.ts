import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigXmlError, diagnoseConfig, parseConfig, redactConfig, repairConfig } from '../src/index.ts';

/**
 * Issue 14: messages never quote stored text of a secret. A stored password written raw, with a
 * `<` in it, makes the document malformed; the scanner used to quote its second half as an
 * attribute name (« = » attendu après l’attribut « efGH12-SECRET16 »), and the server puts the
 * parser's message in its 422 answer.
 */
const config = readFileSync(new URL('./fixtures/connexion-ebp-gescom.xml', import.meta.url), 'utf8');
const SECRET = 'Ab<cd efGH12-SECRET16';

function messageOf(task: () => unknown): string {
  try {
    task();
  } catch (err) {
    if (err instanceof ConfigXmlError) return err.message;
    throw err;
  }
  return '';
}

describe('error messages never quote a secret', () => {
  const sourceMdp = /(<Source>[\s\S]*?<MDP>)[^<]*(<\/MDP>)/;
  const documents = {
    'a source password': config.replace(sourceMdp, `$1${SECRET}$2`),
    'an API key': config.replace(
      /<APIKey_Google>[^<]*<\/APIKey_Google>|<APIKey_Google\s*\/>/,
      `<APIKey_Google>${SECRET}</APIKey_Google>`,
    ),
  };

  for (const [label, text] of Object.entries(documents)) {
    it(`${label}: parse, redaction, diagnostic and repair`, () => {
      expect(text).toContain(SECRET);
      const parse = messageOf(() => parseConfig(text));
      expect(parse).toMatch(
        /^Contenu mal formé dans l’élément secret <\w+> \(sa valeur n’est pas citée\) \(ligne \d+/,
      );
      const messages = [
        parse,
        messageOf(() => redactConfig(text)),
        messageOf(() => repairConfig(text)),
        JSON.stringify(diagnoseConfig(text)),
      ];
      for (const m of messages) {
        expect(m).not.toContain('efGH12');
        expect(m).not.toContain('SECRET16');
      }
    });
  }

  it('a fault outside secrets keeps its precise message', () => {
    const text = config.replace('<Info>', '<Info a b>');
    expect(messageOf(() => parseConfig(text))).toMatch(/^« = » attendu après l’attribut « a »/);
  });
});
