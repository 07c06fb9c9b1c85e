/**
 * `npm test` runs the server tests twice: on the embedded database, then again with
 * TEST_DATABASE_URL set (scripts/test.mjs). A test that never touches that database (a server
 * process on an embedded data folder, the lint rules, a private PostgreSQL cluster of its own) has
 * nothing new to prove in the second pass: it skips itself there and runs in the first.
 */
export const inPostgresPass = Boolean(process.env.TEST_DATABASE_URL);
