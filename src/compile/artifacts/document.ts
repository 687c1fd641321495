/**
 * A document the build writes under the client directory and the runtime serves with
 * precomputed headers: the service's own documents (src/compile/artifacts/documents.ts), the
 * exports and calendars (src/compile/artifacts/exports.ts), the feeds (src/compile/artifacts/feeds.ts).
 */
export interface Document {
  /** URL path. */
  path: string;
  /** File under the client directory. */
  file: string;
  contentType: string;
  /** Text, or bytes where the document is assembled from encoded fragments (the calendars). */
  body: string | Buffer;
  /** When the data of a document made of records last changed (sent as Last-Modified); absent without a dated record. */
  lastModified?: string;
}
