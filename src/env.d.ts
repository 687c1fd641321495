/** What pages rendered on request read of the runtime (`Astro.locals`), set by src/runtime/dispatch.ts. */
declare namespace App {
  interface Locals {
    core: import('./core/query.ts').QueryCore;
    /** Computed by the runtime before it renders a collection or search page with a query string (functions/pages.ts). */
    collectionView?: import('./site/view.ts').CollectionView;
    searchView?: import('./site/search-view.ts').SearchView;
    /** The published JSON of the record a record page shows, already looked up by its route (functions/pages.ts). */
    record?: string;
  }
}
