/**
 * @synchro/automate-sim: an automate service and its connector for one installation, as a real
 * HTTP peer of the console (README.md).
 */
export {
  startAutomateSim,
  DEFAULT_AUTOMATE_VERSION,
  DEFAULT_CONNECTOR_VERSION,
  DEFAULT_REPORT_INTERVAL_SECONDS,
  type AutomateSimOptions,
  type RunningAutomateSim,
} from './sim.ts';
export { parseArgs, OptionsError, USAGE, TOKEN_ENV } from './options.ts';
export {
  decodeOrder,
  encodeOrder,
  orderXml,
  orderPayloadOf,
  type SyncOrder,
  type SyncType,
  type DecodedOrder,
} from './order-codec.ts';
export { buildAnswer, type AnswerArtefacts, type OrderAnswer } from './answer-builder.ts';
export type { SyncReport } from './sync-player.ts';
export type * from './api-types.ts';
