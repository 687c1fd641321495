import { recordUrl } from '../urls.ts';
/**
 * What the map formats (KML, GPX) read of a located record, and the small helpers they
 * share: the detail-page URL and a one-line address.
 */
export interface LocatedItem {
  canonicalId: string;
  name?: string;
  title?: string;
  category?: string;
  neighborhood?: string;
  address?: string;
  city?: string;
  country?: string;
  notes?: string;
  mapsUrl?: string;
  coordinatesSource?: string;
  coordinatesLicense?: string;
  coordinates: { latitude: number; longitude: number; altitude?: number };
  /** The collection a record belongs to, for its detail URL. */
  collection: string;
}

/** The records of a page that have coordinates, typed for the map writers. */
export function located(collection: string, items: readonly Record<string, unknown>[]): LocatedItem[] {
  return items.filter((i) => i.coordinates !== undefined).map((i) => ({ ...(i as Omit<LocatedItem, 'collection'>), collection }));
}

export const detailUrl = (siteUrl: string, item: { collection: string; canonicalId: string }) => `${siteUrl}${recordUrl(item.collection, item.canonicalId)}`;

/** A street address already names its city; without one, the neighbourhood and city do. */
export function placeLine(item: LocatedItem): string {
  const local = item.address ? [item.address] : [item.neighborhood, item.city];
  return [...local, item.country].filter(Boolean).join(', ');
}
