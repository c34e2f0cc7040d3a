/**
 * npx tsx tools/app-icons.ts <favicon.svg> <out-folder> [--background #ffffff]
 *
 * The installed portal's icons (issue 47), drawn from a variant's square SVG favicon in Debian's
 * chromium (/usr/bin/chromium, or CHROMIUM_PATH): `icon-192.png`, `icon-512.png` (the image edge
 * to edge) and `icon-maskable-512.png` (the image inside the maskable safe zone, the central 80 %,
 * on the background colour, so that a launcher's circle or squircle cuts nothing of it). Run once
 * when a variant's favicon changes; the PNGs are committed beside it and named in the variant's
 * `app.install.icons` (docs/variants.md). Android and iOS take PNGs; neither draws an SVG icon on
 * a home screen.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium.ts';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { background: { type: 'string' } } });
const [svgFile, outDir] = positionals;
if (!svgFile || !outDir) throw new Error('usage: tools/app-icons.ts <favicon.svg> <out-folder> [--background #fff]');
const svg = readFileSync(svgFile, 'utf8');
const background = values.background ?? '#ffffff';
const dataUrl = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;

const browser = await chromium.launch(chromiumLaunchOptions);
try {
  const page = await browser.newPage();
  const draw = async (size: number, inset: number, fill: string, file: string) => {
    await page.setViewportSize({ width: size, height: size });
    const inner = Math.round(size * (1 - 2 * inset));
    await page.setContent(
      `<html><body style="margin:0;width:${size}px;height:${size}px;background:${fill};display:flex;align-items:center;justify-content:center">` +
        `<img src="${dataUrl}" width="${inner}" height="${inner}"></body></html>`,
    );
    await page.locator('img').evaluate((img: HTMLImageElement) => img.decode());
    await page.screenshot({ path: join(outDir, file), omitBackground: fill === 'transparent' });
    console.log(`${join(outDir, file)} (${size}×${size})`);
  };
  await draw(192, 0, 'transparent', 'icon-192.png');
  await draw(512, 0, 'transparent', 'icon-512.png');
  await draw(512, 0.1, background, 'icon-maskable-512.png');
} finally {
  await browser.close();
}
