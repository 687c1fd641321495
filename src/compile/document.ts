/**
 * A document the build writes under the client directory and the runtime serves with
 * precomputed headers: the service's own documents (src/compile/documents.ts), the
 * exports and calendars (src/compile/exports.ts), the feeds (src/compile/feeds.ts).
 */
export interface Document {
  /** URL path. */
  path: string;
  /** File under the client directory. */
  file: string;
  contentType: string;
  body: string;
  /** When the data of a document made of records last changed (sent as Last-Modified); absent without a dated record. */
  lastModified?: string;
}
