/**
 * The automate's answer to an order: XML with `RetSync` (1 accepted, 0 refused) and `RetInfo`, a
 * French message for the user. The real service sometimes leaves artefacts in `RetInfo` that the
 * console must clean before showing it (docs/spec-notes.md, Automate); each can be asked for:
 * - `doubleEscapedApos`: apostrophes written `&amp;apos;`, so the parsed text holds `&apos;`;
 * - `lineMarkers`: lines joined by a literal `/n` instead of a line break;
 * - `connectorText`: the text in the connector's convention (UTF-8 read as Latin-1, then sent as
 *   UTF-8 again: `Complète` arrives as `ComplÃ¨te`).
 */
import { encodeConnectorText, escapeText } from '@synchro/config-xml';

export interface AnswerArtefacts {
  doubleEscapedApos?: boolean;
  lineMarkers?: boolean;
  connectorText?: boolean;
}

export interface OrderAnswer {
  retSync: 0 | 1;
  /** The lines of RetInfo (joined by a line break, or by `/n` with that artefact). */
  lines: readonly string[];
  /** IDInterne_Demande of the order answered, when it could be read. */
  requestId?: string;
}

export function buildAnswer(answer: OrderAnswer, artefacts: AnswerArtefacts = {}): string {
  let info = answer.lines.join(artefacts.lineMarkers ? '/n' : '\n');
  if (artefacts.connectorText) info = encodeConnectorText(info);
  let infoXml = escapeText(info, '\n');
  if (artefacts.doubleEscapedApos) infoXml = infoXml.replaceAll("'", '&amp;apos;');
  const id =
    answer.requestId === undefined
      ? ''
      : `<IDInterne_Demande>${escapeText(answer.requestId, '\n')}</IDInterne_Demande>`;
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<Automate>${id}<RetSync>${answer.retSync}</RetSync><RetInfo>${infoXml}</RetInfo></Automate>`
  );
}
