/**
 * The error every surface throws for a problem of the catalog (src/core/problems.ts):
 * its slug and detail are safe to show to any client, and each surface renders it in its
 * own protocol's error form (RFC 9457 problem details for REST).
 */
import { PROBLEMS, type ProblemSlug } from './problems.ts';

const BRAND = Symbol.for('collections.PublicError');

/** An error whose slug and detail are safe to show to any client. */
export class PublicError extends Error {
  readonly [BRAND] = true;
  readonly slug: ProblemSlug;
  readonly detail: string;
  /** The query parameter at fault, when there is one. */
  readonly parameter: string | undefined;

  constructor(slug: ProblemSlug, detail: string, parameter?: string) {
    super(detail);
    this.slug = slug;
    this.detail = detail;
    this.parameter = parameter;
  }

  get status(): number {
    return PROBLEMS[this.slug].status;
  }
}

/** Brand check rather than instanceof, so errors crossing bundle boundaries are still recognised. */
export function isPublicError(error: unknown): error is PublicError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[BRAND] === true;
}
