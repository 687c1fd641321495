/**
 * Text folding shared by the compiler and the query core: filter values, search text
 * and text sort keys are compared after folding, so `zurich` finds `Zürich` and `É`
 * finds `é`. Folding is Unicode-aware: compatibility decomposition, combining marks
 * removed, then lower-cased.
 */
const MARKS = /\p{M}/gu;
/** ASCII has no decompositions and no marks, so it folds by lower-casing alone (most text, and many times faster). */
const ASCII = /^[\x00-\x7f]*$/;

export function fold(value: string): string {
  if (ASCII.test(value)) return value.toLowerCase();
  return value.normalize('NFKD').replace(MARKS, '').toLowerCase().normalize('NFC');
}
