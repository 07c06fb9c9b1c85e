import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/index.ts';
import { parseChildren, serialize, type XElement } from '../src/xml/tree.ts';
import { FIXTURE, spacedSelfClose, toLf, withBom } from './helpers.ts';

/** Rebuilds the whole root element node by node (every element re-emitted from its parts). */
function rebuild(text: string): string {
  const doc = parseConfig(text);
  const { rootStart, rootEnd } = doc.layout;
  const [root] = parseChildren(doc.src, rootStart, rootEnd, null, Infinity) as [XElement];
  return text.slice(0, rootStart) + serialize(root, doc.src, true) + text.slice(rootEnd);
}

const variants: [string, string][] = [
  ['the fixture (CRLF, <Tag/>)', FIXTURE],
  ['with a BOM', withBom(FIXTURE)],
  ['with LF line ends', toLf(FIXTURE)],
  ['with <Tag /> style', spacedSelfClose(FIXTURE)],
  [
    'with comments, CDATA, PIs, attributes and unknown nodes',
    FIXTURE.replace('<Sources>', '<Sources><!-- sources -->')
      .replace(
        '<Info>',
        '<Info kind="x" other=\'a>b\'>\r\n    <?pi some data?>\r\n    <Inconnu><![CDATA[ <b>&amp; ]]></Inconnu>',
      )
      .replace('</Connexion>', '<!-- fin --></Connexion>\r\n<!-- après -->'),
  ],
];

describe('lossless round trip', () => {
  it.each(variants)('parse + serialise gives identical bytes: %s', (_label, text) => {
    expect(rebuild(text)).toBe(text);
    // and each section alone
    const doc = parseConfig(text);
    for (const r of doc.layout.sections) {
      const el = doc.section(r.name, { fresh: true }) as XElement;
      expect(serialize(el, doc.src, true)).toBe(text.slice(r.start, r.end));
    }
  });

  it('lazy parsing gives the same tree as eager parsing', () => {
    const doc = parseConfig(FIXTURE);
    const lazy = doc.section('Terminaux', { depth: 0, fresh: true }) as XElement;
    const eager = doc.section('Terminaux') as XElement;
    expect(serialize(lazy, doc.src, true)).toBe(serialize(eager, doc.src, true));
    const names = (el: XElement): unknown =>
      el.children.filter((k) => k.kind === 1).map((k) => [(k as XElement).name, names(k as XElement)]);
    expect(names(lazy)).toEqual(names(eager));
  });
});
