import { ConfigDocument } from './document.ts';
import { ElementIndex } from './xml/index.ts';
import type { DocumentLayout } from './xml/scan.ts';

/**
 * A parsed configuration sent between threads: a worker scans a big document (parseConfig) and
 * the request thread rebuilds the same ConfigDocument from the text it already holds and the
 * element index's arrays (moved, not copied: `transferList`), without scanning it again.
 */
export interface TransferredLayout {
  layout: Omit<DocumentLayout, 'index'>;
  count: number;
  names: string[];
  arrays: Record<IndexArray, Int32Array>;
}

const ARRAYS = ['start', 'openEnd', 'end', 'parent', 'nextSibling', 'nameId'] as const;
type IndexArray = (typeof ARRAYS)[number];

/** The layout of a parsed document as plain data, and the buffers to transfer. */
export function transferLayout(doc: ConfigDocument): { value: TransferredLayout; transfer: ArrayBuffer[] } {
  const { index, ...layout } = doc.layout;
  const arrays = {} as Record<IndexArray, Int32Array>;
  for (const name of ARRAYS) arrays[name] = index[name].slice(0, index.count);
  return {
    value: { layout, count: index.count, names: [...index.names], arrays },
    transfer: ARRAYS.map((name) => arrays[name].buffer as ArrayBuffer),
  };
}

/** The document of `text` whose layout a worker computed (transferLayout). */
export function documentFromLayout(text: string, transferred: TransferredLayout): ConfigDocument {
  const index = ElementIndex.fromParts(text, transferred.count, transferred.names, transferred.arrays);
  return new ConfigDocument(text, { ...transferred.layout, index });
}
