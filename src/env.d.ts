/** What pages rendered on request read of the runtime (`Astro.locals`), set by src/runtime/dispatch.ts. */
declare namespace App {
  interface Locals {
    core: import('./core/query.ts').QueryCore;
  }
}
