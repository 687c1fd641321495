/**
 * fast-check with a fixed seed, so property tests explore the same cases on every run
 * (the suite must be deterministic). Set FC_SEED to explore other cases locally.
 */
import fc from 'fast-check';
import { config } from '../../src/config.ts';

fc.configureGlobal({ seed: config().FC_SEED });

export default fc;
