/**
 * Every answer the client is tested against, checked against the connector API's OpenAPI
 * document (packages/contracts, served by the console at /api/connector/v1/openapi.json): the
 * fake console cannot drift from the real one without a test failing. The same check runs on the
 * console's real answers (apps/server/test/operations.test.ts).
 */
export { offContract } from '@synchro/contracts/connector-openapi-check';
