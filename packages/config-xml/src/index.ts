/**
 * @synchro/config-xml: the ConfigConnecteur engine (read, redact, edit). Pure functions, no I/O.
 * See README.md for the design and the invariants.
 */
export { ConfigXmlError, lineColumnAt } from './errors.ts';
export { ConfigDocument, parseConfig, SECTION_ORDER, type SectionName } from './document.ts';
export {
  DEFAULT_MAX_BYTES,
  MAX_DEPTH,
  MAX_ATTRIBUTES,
  type DocumentLayout,
  type SectionRange,
  type ScanOptions,
} from './xml/scan.ts';
export { decodeConnectorText, encodeConnectorText, undoDoubleEscaping, displayValue } from './codec.ts';
export { escapeText, unescapeXml } from './xml/escape.ts';
export {
  readInfo,
  readLastSync,
  readSources,
  readExternalLinks,
  readExternalCalendars,
  readSyncData,
  referencesWithHistory,
  readExclusions,
  readComplement,
  readPlanifications,
  countPlannings,
} from './read/readers.ts';
export { readDataLists, readGlobalAuthorizations } from './read/data-lists.ts';
export { readTerminals } from './read/terminals.ts';
export { redactConfig } from './redact.ts';
export { redactPair } from './history/redact-pair.ts';
export { transferLayout, documentFromLayout, type TransferredLayout } from './transfer.ts';
export { sectionOf, editScope, EDIT_SECTION, type EditKind } from './scope.ts';
export {
  editSources,
  editExternalLinks,
  editExternalCalendars,
  editSyncData,
  editComplement,
  editPlanifications,
} from './edit/sections.ts';
export { editExclusions } from './edit/exclusions.ts';
export { editTerminal, expectedAutorisationLongue } from './edit/terminal.ts';
export { diagnoseConfig } from './diagnostic/diagnose.ts';
export { REQUIRED_SECTIONS } from './diagnostic/sections.ts';
export { repairConfig, type TRepairResult } from './repair/repair.ts';
export { editConnectorParts, CONNECTOR_OWNED, CONNECTOR_ORDER } from './connector/edit.ts';
export { checkDataElement } from './connector/data.ts';
export { checkRecord, parseRecord, RECORD_MAX_BYTES, type RecordDocument } from './record/check.ts';
export {
  decodeRecordText,
  encodeRecordText,
  isInConnectorForm,
  recordTextForStorage,
} from './record/codec.ts';
export { recordAttachments, type TRecordAttachment } from './record/attachments.ts';
export {
  automateOrderXml,
  encodeAutomateOrder,
  readOrderIdentity,
  ORDER_REQUESTER,
  type AutomateOrder,
} from './automate/order.ts';
export {
  readAutomateAnswer,
  cleanRetInfo,
  AUTOMATE_ANSWER_MAX_BYTES,
  RET_INFO_MAX_CHARS,
  type AutomateAnswer,
} from './automate/answer.ts';
export { hideSecretNamesIn } from './diagnostic/mask-secrets.ts';
export {
  SCOPE_KINDS,
  scopeGenerations,
  changedScopes,
  generationOf,
  terminalCount,
  type ScopeGenerations,
  type ScopeKind,
} from './history/scopes.ts';
export { restoreScopes } from './history/restore.ts';
export { sectionChanges, sectionsChanged, SECTION_OF_KIND, KIND_OF_SECTION } from './history/changes.ts';
