/**
 * fast-check with a fixed seed, so property tests explore the same cases on every run
 * (the suite must be deterministic). Set FC_SEED to explore other cases locally.
 */
import fc from 'fast-check';

fc.configureGlobal({ seed: Number(process.env.FC_SEED ?? 20261122) });

export default fc;
