/**
 * Whether a request's `Accept` asks for `text/plain` rather than JSON, for the answers served
 * both ways (the import record's log: docs/server.md). Each of the two types takes the quality of
 * the most specific range that matches it (`text/plain`, then `text/*`, then the full wildcard);
 * text wins only with a higher quality, or an equal one from a more specific range. So the full
 * wildcard (fetch's default), `application/json` and no header at all get JSON; `text/plain` and
 * `text/*` get text. One pass over the header (its first 4 096 characters).
 */
export function asksForText(accept: string | undefined): boolean {
  if (!accept) return false;
  const text = { q: -1, specificity: -1 };
  const json = { q: -1, specificity: -1 };
  for (const range of accept.slice(0, 4096).split(',')) {
    const [mediaRange = '', ...params] = range.split(';');
    const [type = '', subtype = ''] = mediaRange.trim().toLowerCase().split('/');
    let q = 1;
    for (const param of params) {
      const [name, value] = param.split('=');
      if (name?.trim().toLowerCase() === 'q') q = Number(value?.trim());
    }
    if (!Number.isFinite(q) || q < 0 || q > 1) continue;
    const weigh = (target: typeof text, wantedType: string, wantedSubtype: string) => {
      const specificity =
        type === wantedType && subtype === wantedSubtype
          ? 2
          : type === wantedType && subtype === '*'
            ? 1
            : type === '*' && subtype === '*'
              ? 0
              : -1;
      if (specificity > target.specificity) Object.assign(target, { q, specificity });
    };
    weigh(text, 'text', 'plain');
    weigh(json, 'application', 'json');
  }
  if (text.q <= 0) return false;
  return text.q > json.q || (text.q === json.q && text.specificity > json.specificity);
}
