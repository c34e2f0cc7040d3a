/**
 * Pseudo-localised texts (issue 48), made at test time from the Polish ones: every letter accented
 * and the text about a third longer, in brackets, so that a browser journey sees what a longer
 * language (German runs some 30 % over Polish) would do to the screens — a button, a column's
 * heading or a tab that cuts its text. Only the words change: placeholders ({{count}}, {name}),
 * nested texts ($t(app:ok)) and markup (<strong>) stay as they are, so every text still fills in.
 * Nothing of this is in the portal: the journey puts it into the bundle's answer on its way to the
 * page (tests/browser/languages.spec.ts).
 */

const ACCENTED: Record<string, string> = {
  a: 'ȧ', b: 'ƀ', c: 'ċ', d: 'ḓ', e: 'ḗ', f: 'ḟ', g: 'ġ', h: 'ḥ', i: 'ḯ', j: 'ĵ', k: 'ḳ', l: 'ḽ', m: 'ṁ',
  n: 'ṅ', o: 'ṓ', p: 'ṗ', q: 'ʠ', r: 'ṙ', s: 'ṡ', t: 'ṫ', u: 'ṻ', v: 'ṽ', w: 'ẇ', x: 'ẋ', y: 'ẏ', z: 'ẑ',
  A: 'Ȧ', B: 'Ɓ', C: 'Ċ', D: 'Ḓ', E: 'Ḗ', F: 'Ḟ', G: 'Ġ', H: 'Ḥ', I: 'Ḯ', J: 'Ĵ', K: 'Ḳ', L: 'Ḽ', M: 'Ṁ',
  N: 'Ṅ', O: 'Ṓ', P: 'Ṗ', Q: 'Ǫ', R: 'Ṙ', S: 'Ṡ', T: 'Ṫ', U: 'Ṻ', V: 'Ṽ', W: 'Ẇ', X: 'Ẋ', Y: 'Ẏ', Z: 'Ẑ',
};
const VOWELS = /[aeiouyąęó]/i;
/** What passes unchanged: i18next placeholders and nesting, single-brace field templates, markup, entities. */
const KEPT = /(\{\{[^}]*\}\}|\$t\([^)]*\)|\{[A-Za-z0-9_.]+\}|<[^>]+>|&[a-z]+;|https?:\/\/\S+)/;

/** One word longer by about a third: every vowel doubled, then each letter accented. */
function pseudoWord(word: string): string {
  let out = '';
  for (const ch of word) {
    const accented = ACCENTED[ch] ?? ch;
    out += VOWELS.test(ch) ? accented + accented : accented;
  }
  return out;
}

/** A text pseudo-localised: its words longer and accented, its placeholders and markup as they were. */
export function pseudoText(text: string): string {
  if (!text.trim()) return text;
  const body = text.split(KEPT).map((part, index) => (index % 2 ? part : part.replace(/\p{L}+/gu, pseudoWord))).join('');
  return `[${body}]`;
}

/** Every text of a language's namespaces (objects of texts, nested), pseudo-localised. */
export function pseudoTexts<T>(texts: T): T {
  if (typeof texts === 'string') return pseudoText(texts) as T;
  if (Array.isArray(texts)) return texts.map(pseudoTexts) as T;
  if (texts && typeof texts === 'object') return Object.fromEntries(Object.entries(texts).map(([key, value]) => [key, pseudoTexts(value)])) as T;
  return texts;
}
