/**
 * The image's layout: its table and column names and how rids are spaced. A module of its
 * own, importing nothing, so the image writer's thread (src/compile/artifacts/image-thread.ts),
 * started by every compile, loads it alone: through image.ts it loaded the owner profile's
 * zod schema too, and a thread took 190 ms of CPU to start and write an empty image, 70 ms
 * now (scripts/import-cycles.ts keeps it so).
 */
/**
 * Main table of a collection: rid, cid, one `s:<field>` column per sort field, pos, search
 * and json. `pos` numbers the rows in the collection's default order, RID_GAP apart like
 * rids, and is the rowid of its full-text index: a search in the default order then walks
 * the index's matches in the order of the page and stops at the page's end.
 */
export const recordsTable = (collection: string) => `"${collection}"`;
/** Filter values, one row per (dimension, folded key, record). */
export const tagsTable = (collection: string) => `"${collection}:tags"`;
/** Trigram full-text index over the `search` column, for `q`; its rowid is the row's `pos`. */
export const searchTable = (collection: string) => `"${collection}:fts"`;
export const sortColumn = (field: string) => `"s:${field}"`;
/** Where each published content record came from (file and place in it); read only by the compiler. */
export const SOURCES_TABLE = '"source:files"';

/**
 * The distance between the rids a full build gives consecutive rows (rids follow the
 * rows' order: canonicalId in a collection, rank in the search table), and between the
 * positions of consecutive rows in a collection's default order. An incremental
 * rebuild inserts a row between two neighbours by taking a rid between theirs, so the
 * gap is room for several inserts at one spot before a few neighbours must move.
 */
export const RID_GAP = 16;
/**
 * The search table's first rid: new records usually rank first (they are the newest), and
 * rids stay above 0 (a page reads `rid > 0` when it has no cursor), so the table leaves
 * room for 2^28 inserts before its first row.
 */
export const SEARCH_RID_BASE = 2 ** 32;
