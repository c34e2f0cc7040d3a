/**
 * The head of a page the server drew (init/first-paint.ts: the sign-in form), so that its
 * stylesheet does not hold that page's first paint (issue 49): the stylesheet rules its markup uses
 * come inline (Beasties: ~4 KB gzipped of ~35), and the whole stylesheet's link is marked
 * `media="print"`, which the browser fetches without waiting for it; the runtime applies it once it
 * is in (runtime/src/shell/first-paint.ts). Before, the whole stylesheet was the one request the
 * form's first paint waited for (Lighthouse's render-blocking request).
 *
 * The scripts keep their priority: fetched at low priority (tried), the form painted at 0.9 s on
 * Lighthouse's simulated phone instead of 2.2 s, but the runtime's start-up then fell after the first
 * paint, where it counts as blocking time, and the score fell from 0.96 to 0.83
 * (docs/benchmarks.md, "Lighthouse of the login page").
 *
 * Worked out once per page drawn (its head, with the variant's colours, and its markup, in its
 * language): a new build or configuration gives a new key. Should the rules fail, the page is
 * served with its stylesheet waited for, and the reason logged. Pages the server does not draw
 * keep their head as built: they show nothing before the runtime and its stylesheet are in.
 */
import Beasties from 'beasties';
import type { FastifyBaseLogger } from 'fastify';

/** The attribute by which the runtime finds the stylesheet to apply after the first paint. */
export const AFTER_PAINT_ATTRIBUTE = 'data-after-paint';

const computed = new Map<string, Promise<string | null>>();
/** Pages drawn are few (variants × languages × cookie notice or not); a new build's keys replace the old ones. */
const MAX_KEPT = 64;

/**
 * The head of a drawn page with its critical rules inline and its stylesheets deferred (or, when
 * the rules cannot be worked out, waited for as built). `head`: the
 * page up to `</head>`; `rest`: the page from there on, with the markup the server drew;
 * `staticDir`: where the stylesheets' files are.
 */
export async function paintedHead(head: string, rest: string, staticDir: string, log: FastifyBaseLogger): Promise<string> {
  const key = `${staticDir}\n${head}\n${rest}`;
  let entry = computed.get(key);
  if (!entry) {
    if (computed.size >= MAX_KEPT) computed.delete(computed.keys().next().value!);
    entry = criticalRules(head, rest, staticDir).catch((error: unknown) => {
      log.warn({ err: error }, 'the login page’s critical stylesheet rules could not be worked out: its stylesheet blocks its first paint');
      return null;
    });
    computed.set(key, entry);
  }
  const rules = await entry;
  if (rules === null) return head;
  // the rules go before the stylesheet: once it applies, its own rules come later and decide as
  // they would alone (an inline copy after it would beat the rules it left out, in a dialog say)
  let first = true;
  return head.replace(/<link rel="stylesheet"[^>]*>/g, (link) => {
    const deferred = link.replace(/\s*\/?>$/, ` media="print" ${AFTER_PAINT_ATTRIBUTE}>`);
    if (!first) return deferred;
    first = false;
    return `<style>${rules}</style>${deferred}`;
  });
}

async function criticalRules(head: string, rest: string, staticDir: string): Promise<string | null> {
  const beasties = new Beasties({
    path: staticDir,
    publicPath: '/',
    // the links are changed above, here only read; nothing on disk is touched
    preload: false as unknown as 'media',
    pruneSource: false,
    reduceInlineStyles: false,
    inlineFonts: false,
    preloadFonts: false,
    logLevel: 'silent',
  });
  const html = await beasties.process(head + rest);
  const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((match) => match[1]).join('');
  return styles === '' ? null : styles;
}
