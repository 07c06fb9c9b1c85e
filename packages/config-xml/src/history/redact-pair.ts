import { SECRET_CHANGED_MASKS, SECRET_PLACEHOLDER } from '@synchro/contracts';
import { asDocument, type ConfigDocument } from '../document.ts';
import { redactConfig } from '../redact.ts';

/**
 * Two versions of a text with every secret hidden, for a line-by-line comparison (the raw view
 * of a version's changes). A hidden piece stored alike at the same place on both sides (the same
 * element position and piece rank, as the field view compares a row's password with the same
 * row's) is SECRET_PLACEHOLDER on both; one that differs, or that the other side lacks, is masked
 * by its side (SECRET_CHANGED_MASKS), so that the changed line shows as changed. Nothing derived
 * from a secret is in either text: the masks say only « changed », as the field view does.
 */
export function redactPair(
  beforeInput: string | ConfigDocument,
  afterInput: string | ConfigDocument,
): { before: string; after: string } {
  const before = asDocument(beforeInput);
  const after = asDocument(afterInput);
  const storedBefore = storedPieces(before);
  const storedAfter = storedPieces(after);
  const masked = (doc: ConfigDocument, other: Map<string, string>, changed: string) =>
    redactConfig(doc, (place, raw) => (other.get(place) === raw ? SECRET_PLACEHOLDER : changed));
  return {
    before: masked(before, storedAfter, SECRET_CHANGED_MASKS.before),
    after: masked(after, storedBefore, SECRET_CHANGED_MASKS.after),
  };
}

/** Each hidden piece's stored text by its place (kept in memory for the comparison only). */
function storedPieces(doc: ConfigDocument): Map<string, string> {
  const pieces = new Map<string, string>();
  redactConfig(doc, (place, raw) => {
    pieces.set(place, raw);
    return SECRET_PLACEHOLDER;
  });
  return pieces;
}
