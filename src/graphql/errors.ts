/**
 * How GraphQL errors leave the server. Errors about the request itself (syntax,
 * validation, variable coercion, limits) already speak of the client's document and go out
 * as they are. An error a resolver threw is shown only if it is a `PublicError` — then with
 * its safe detail, a machine-readable code and the problem type REST uses for the same
 * condition; anything else becomes a generic message with no internals.
 */
import { GraphQLError } from 'graphql';
import { isPublicError } from '../core/errors.ts';
import { problemUrl } from '../urls.ts';

/** `invalid-cursor` → `INVALID_CURSOR`. */
const codeOf = (slug: string) => slug.replace(/-/g, '_').toUpperCase();

export function publicError(error: Readonly<GraphQLError | Error>): GraphQLError | Error {
  if (!(error instanceof GraphQLError)) return error;
  const original = error.originalError;
  if (!original || original instanceof GraphQLError) return error;
  const where = { nodes: error.nodes, path: error.path };
  if (isPublicError(original)) {
    const extensions = { code: codeOf(original.slug), type: problemUrl(original.slug), ...(original.parameter ? { argument: original.parameter } : {}) };
    return new GraphQLError(original.detail, { ...where, extensions });
  }
  return new GraphQLError('The server failed to resolve this field; retry the same request with bounded exponential backoff.', {
    ...where,
    extensions: { code: 'INTERNAL_SERVER_ERROR' },
  });
}
