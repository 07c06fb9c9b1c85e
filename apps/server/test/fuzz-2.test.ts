import { fuzzSuite } from './helpers/fuzz.ts';

// The seeded fuzzer over every route, part 2 of 4 (helpers/fuzz.ts: what it sends and checks;
// FUZZ_SEED replays a run, FUZZ_RUNS sets the total number of requests, 10 000 by default).
fuzzSuite(1, 4);
