import { afterAll, beforeAll, expect } from 'vitest';
import { capture, writeCaptureReport } from './helpers/secret-capture.ts';

// Run before each test file (vitest.config.ts, setupFiles): the files of one process share the
// collector's module, so each file starts it empty and writes its own report at its end.
beforeAll(() => capture.reset());
afterAll(() => writeCaptureReport(expect.getState().testPath ?? 'unknown'));
