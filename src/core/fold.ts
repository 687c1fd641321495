/**
 * Text folding shared by the compiler and the query core: filter values, search text
 * and text sort keys are compared after folding, so `zurich` finds `Zürich` and `É`
 * finds `é`. Folding is Unicode-aware: compatibility decomposition, combining marks
 * removed, then lower-cased.
 */
const MARKS = /\p{M}/gu;

export function fold(value: string): string {
  return value.normalize('NFKD').replace(MARKS, '').toLowerCase().normalize('NFC');
}
