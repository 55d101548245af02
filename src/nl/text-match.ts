/** A word of a request after normalisation, with its position. */
export interface Word {
  readonly stem: string;
  readonly text: string;
  readonly index: number;
}

/** Words that carry no meaning for goal matching (and common fact-key prefixes such as `is_`, `has_`). */
const STOPWORDS = new Set(
  (
    "a an and are as at be been but by can could do does for from get go got had has have i i'm im in into is it its just " +
    "let like m make me my need needs no not now of on or our please s should so some than that the then there this to " +
    "too up us very want wants was we were will with would you your"
  ).split(" "),
);

/**
 * @internal
 * A small suffix stripper (plural, -ing, -ed, -ies) so "logs" meets "log" and
 * "cooking" meets "cook". Deliberately conservative: short words are kept.
 */
export function stem(word: string): string {
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.length > 5 && word.endsWith("ing")) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith("ed")) return word.slice(0, -2);
  if (word.length > 4 && /(?:ches|shes|sses|xes|zes)$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss")) return word.slice(0, -1);
  return word;
}

/** @internal Lowercases, splits on anything that is not a letter or digit (so `is_hungry` gives `hungry`), drops stopwords, stems. */
export function words(text: string): Word[] {
  const out: Word[] = [];
  const raw = text
    .toLowerCase()
    .replace(/[’']/g, "'")
    .split(/[^a-z0-9'.]+|(?<![0-9])\.|\.(?![0-9])/);
  let index = 0;
  for (const token of raw) {
    const clean = token.replace(/^'+|'+$/g, "").replace(/'s$/, "");
    if (clean === "" || STOPWORDS.has(clean)) continue;
    out.push({ stem: /^[0-9.]+$/.test(clean) ? clean : stem(clean), text: clean, index: index++ });
  }
  return out;
}

/** @internal The stems of a text, as a set. */
export function stems(text: string): Set<string> {
  return new Set(words(text).map((w) => w.stem));
}

/** @internal Request words whose stem is in `vocabulary`. */
export function matching(request: readonly Word[], vocabulary: ReadonlySet<string>): Word[] {
  return request.filter((w) => vocabulary.has(w.stem));
}
