/** RFC 8288 `Link` header values from a page's links. */
import type { PageLinks } from '../formats/json.ts';

export function linkHeader(links: PageLinks): string {
  return Object.entries(links)
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
    .map(([rel, href]) => `<${href}>; rel="${rel}"`)
    .join(', ');
}
