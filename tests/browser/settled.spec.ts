/**
 * `settled` (support.ts), which every axe scan waits for: it waits for a fade to end, and not for an
 * animation that never ends (a spinner), which held the manager's axe scan until its time-out.
 */
import { expect, settled, test } from './support.ts';

test('settling waits for a fade to end, and not for a spinner that turns for ever', async ({ page }) => {
  await page.setContent(`<style>
      @keyframes turn { to { transform: rotate(360deg); } }
      @keyframes appear { from { opacity: 0; } to { opacity: 1; } }
      .spinner { width: 1rem; height: 1rem; border: 2px solid; animation: turn 1s linear infinite; }
      .dialog { animation: appear 400ms linear; }
    </style>
    <div class="spinner" role="status" aria-label="Ładowanie"></div><div class="dialog">Okno</div>`);
  await settled(page);
  const states = await page.evaluate(() => document.getAnimations().map((a) => `${(a as CSSAnimation).animationName}: ${a.playState}`));
  // the fade has ended; the spinner still turns (the wait did not end because it stopped)
  expect(states).toEqual(['turn: running']);
});
