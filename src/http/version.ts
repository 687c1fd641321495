/**
 * The `API-Version` request header (SPEC §9): omitted, empty or `1.0.0`, surrounding
 * whitespace ignored; anything else is refused rather than silently served as 1.0.0.
 */
import { PublicError } from '../core/errors.ts';
import { API_VERSION } from './headers.ts';

export function checkApiVersion(value: string | null): void {
  const version = value?.trim() ?? '';
  if (version !== '' && version !== API_VERSION) {
    throw new PublicError('unsupported-api-version', `This API serves version ${API_VERSION}; send API-Version: ${API_VERSION} or leave the header out.`);
  }
}
