/**
 * The `VALUES` list of a multi-row INSERT, every value its own parameter (PostgreSQL reads them as
 * they are; arrays sent to `unnest` are escaped by the driver and parsed again by the database).
 *
 * `row` is one tuple's expressions: `?` stands for the row's next parameter, numbered after the
 * `shared` parameters that every row may name itself (`$1`, `$2`), and keeps what follows it
 * (`?::timestamptz`). Parameters are laid out row after row, in the order of the `?`.
 */
export function valuesList(rowCount: number, shared: number, row: readonly string[]): string {
  const perRow = row.filter((expression) => expression.startsWith('?')).length;
  const tuples: string[] = [];
  for (let r = 0; r < rowCount; r += 1) {
    let next = shared + 1 + r * perRow;
    tuples.push(`(${row.map((e) => (e.startsWith('?') ? `$${next++}${e.slice(1)}` : e)).join(', ')})`);
  }
  return tuples.join(', ');
}

/**
 * `statement` kept by its row count: a batch's statements have a few sizes, sent again and again,
 * and their text (tens of kilobytes for a hundred rows) is then built once instead of for each one.
 * `most`: the largest row count kept (larger ones are built each time).
 */
export function bySize(statement: (rowCount: number) => string, most: number): (rowCount: number) => string {
  const built = new Map<number, string>();
  return (rowCount) => {
    const known = built.get(rowCount);
    if (known !== undefined) return known;
    const text = statement(rowCount);
    if (rowCount <= most) built.set(rowCount, text);
    return text;
  };
}
