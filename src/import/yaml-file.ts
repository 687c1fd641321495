/**
 * The content files an importer writes are YAML lists, one record per `- ` item
 * (rendered by src/compile/content/render.ts, cut into items by
 * src/compile/content/record-text.ts). A file is edited as text, item by item: a record
 * the import adds is inserted at its sorted place and a record it updates has its own item
 * replaced, so every other byte (hand edits, comments) stays, and a re-import that changes
 * nothing rewrites nothing. What this module adds is how an item is compared: by the
 * owner lane's revision of its text.
 */
import { itemCore } from '../compile/content/record-text.ts';
import { blockRevision } from '../owner/edit.ts';

/** The owner lane's revision of a text (src/owner/edit.ts): the hash of its bytes. */
export const revisionOf = (text: string) => blockRevision(text, { start: 0, end: text.length, indent: 2 });

/**
 * An item as two hashes: of its whole text, and of its own lines (its revision, which the
 * ledger keeps). A rendered record is the same as the item when either equals the
 * record's `revisionOf`: the item is the record, or the record followed by blank and
 * comment lines.
 */
export const itemHashes = (item: string) => ({ whole: revisionOf(item), revision: revisionOf(itemCore(item)) });
