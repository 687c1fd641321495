/** What a record's page shows, for its HTML page and its Markdown twin alike. */
import type { CollectionDeclaration } from '../collections/define.ts';
import { headline } from '../collections/headline.ts';
import { recordUrl } from '../urls.ts';
import { recordFields, type FieldView } from './format.ts';
import { jsonLdText, recordJsonLd } from './jsonld.ts';
import { recordMarkdown } from './markdown.ts';
import { pictureOf, type PictureView } from './media.ts';
import type { Image } from '../core/image.ts';

export interface RecordPageView {
  title: string;
  path: string;
  canonicalId: string;
  fields: FieldView[];
  /** The owner's Markdown body, when the record has one. */
  body: string | undefined;
  /** The record's image, when the site publishes its file. */
  picture: PictureView | undefined;
  /** The schema.org JSON-LD data block's text. */
  jsonLd: string;
}

/** `image`: the generation's image, for the site URL and the published image files. */
export function recordPage(c: CollectionDeclaration, r: Record<string, unknown>, image: Pick<Image, 'siteUrl' | 'media'>): RecordPageView {
  const siteUrl = image.siteUrl;
  const canonicalId = String(r.canonicalId);
  const body = typeof r[c.bodyField] === 'string' && c.bodyField !== 'title' ? String(r[c.bodyField]) : undefined;
  const path = recordUrl(c.name, canonicalId);
  const picture = pictureOf(c.name, r, (src) => image.media(src));
  return {
    title: headline(c.name, r),
    path,
    canonicalId,
    fields: recordFields(c, r),
    body,
    picture,
    jsonLd: jsonLdText(recordJsonLd(c.name, r, new URL(path, siteUrl).href)),
  };
}

export const recordPageMarkdown = (c: CollectionDeclaration, view: RecordPageView) =>
  recordMarkdown(c, view.title, view.fields, view.body, view.canonicalId, view.picture);
