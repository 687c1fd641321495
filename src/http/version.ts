/**
 * The `API-Version` request header (SPEC §9): omitted, empty or `1.0.0`, surrounding
 * whitespace ignored; anything else is refused rather than silently served as 1.0.0.
 */
import { PublicError } from '../core/errors.ts';
import { API_VERSION } from './headers.ts';

/** Whether a request with this `API-Version` (null: none) is served. */
export function servedApiVersion(value: string | null): boolean {
  const version = value?.trim() ?? '';
  return version === '' || version === API_VERSION;
}

export function checkApiVersion(value: string | null): void {
  if (!servedApiVersion(value)) {
    throw new PublicError('unsupported-api-version', `This API serves version ${API_VERSION}; send API-Version: ${API_VERSION} or leave the header out.`);
  }
}
