/**
 * Builds large ConfigConnecteur documents from the fixture: the Data lists (families, employees,
 * technicians, depots) and Terminaux are grown with renumbered copies of their first item until
 * the document reaches the wanted size. Same layout as the fixture (CRLF, indentation, encoding).
 */

interface TGrowth {
  /** Element whose first occurrence is copied. */
  item: string;
  /** End tag of the list the copies are appended to. */
  listEnd: string;
  /** Share of the added bytes. */
  share: number;
}

const GROWTH: readonly TGrowth[] = [
  { item: 'FAMILLEARTICLE', listEnd: '</CMB_FAMILLEARTICLE>', share: 0.25 },
  { item: 'FAMILLECLIENT', listEnd: '</CMB_FAMILLECLIENT>', share: 0.1 },
  { item: 'SALARIES', listEnd: '</CMB_SALARIES>', share: 0.1 },
  { item: 'TECHNICIENS', listEnd: '</CMB_TECHNICIENS>', share: 0.1 },
  { item: 'DEPOT', listEnd: '</CMB_STOCK_DEPOT>', share: 0.05 },
  { item: 'Terminal', listEnd: '</Terminaux>', share: 0.4 },
];

function firstItem(text: string, name: string): string {
  const start = text.indexOf(`<${name}>`);
  const end = text.indexOf(`</${name}>`, start);
  if (start === -1 || end === -1) throw new Error(`No <${name}> in the fixture`);
  const lineStart = text.lastIndexOf('\n', start) + 1;
  return `${text.slice(lineStart, end + name.length + 3)}\r\n`;
}

/** A copy of an item with its identifiers made unique. */
function renumber(item: string, n: number): string {
  return item
    .replace(
      /<(IDInterne|Code|IDFamille|ID_Tablette|ID_Smartphone)>([^<]*)</g,
      (_m, tag: string, value: string) => (value === '' ? `<${tag}><` : `<${tag}>G${n}-${value}<`),
    )
    .replace(/<Nom>[^<]*</, `<Nom>GÃ©nÃ©rÃ© ${n}<`);
}

function grow(fixture: string, targetBytes: number): string {
  const extra = Math.max(0, targetBytes - fixture.length);
  let text = fixture;
  for (const growth of GROWTH) {
    const item = firstItem(fixture, growth.item);
    const copies = Math.ceil((extra * growth.share) / item.length);
    const parts: string[] = [];
    for (let n = 1; n <= copies; n += 1) parts.push(renumber(item, n));
    const at = text.indexOf(growth.listEnd);
    const lineStart = text.lastIndexOf('\n', at) + 1;
    text = text.slice(0, lineStart) + parts.join('') + text.slice(lineStart);
  }
  return text;
}

/** A document of about targetBytes UTF-8 bytes (one correction pass on the estimate). */
export function generateDocument(fixture: string, targetBytes: number): string {
  const first = grow(fixture, targetBytes);
  const bytes = Buffer.byteLength(first, 'utf8');
  const corrected =
    fixture.length +
    ((targetBytes - fixture.length) * (targetBytes - fixture.length)) / (bytes - fixture.length);
  return grow(fixture, Math.floor(corrected));
}
