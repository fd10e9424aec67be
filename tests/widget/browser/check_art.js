// Read pixels of the widget's canvas (every layer composited) at given points, once it has drawn.
//
// Usage: node check_art.js CONFIG.json
// CONFIG: { url, chromium, screenshots, points: [{x, y}] } (canvas pixels).
// Prints one JSON object: { pixels: [[r, g, b]…] } or { error }.
'use strict';

const fs = require('fs');
const path = require('path');
const { chromium } = require('playwright-core');

const config = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
fs.mkdirSync(config.screenshots, { recursive: true });

(async () => {
  const out = { steps: [] };
  const browser = await chromium.launch({
    executablePath: config.chromium || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('pageerror', (e) => out.steps.push(`pageerror: ${e.message}`));
    await page.goto(config.url, { waitUntil: 'load', timeout: 60000 });
    const read = () => page.evaluate((pts) => {
      const layers = Array.from(document.querySelectorAll('canvas')).filter((c) => c.width > 200);
      if (!layers.length) return null;
      const off = document.createElement('canvas');
      off.width = layers[0].width;
      off.height = layers[0].height;
      const ctx = off.getContext('2d');
      for (const c of layers) ctx.drawImage(c, 0, 0);
      return pts.map((p) => Array.from(ctx.getImageData(Math.round(p.x), Math.round(p.y), 1, 1).data));
    }, config.points);
    const deadline = Date.now() + 60000;
    let px = null;
    // Wait until every point is drawn and the picture has settled (the board image loads after the grid).
    let last = '';
    do {
      await page.waitForTimeout(500);
      px = await read();
      const now = JSON.stringify(px);
      if (px && px.every((p) => p[3] > 0) && now === last) break;
      last = now;
    } while (Date.now() < deadline);
    out.pixels = px ? px.map((p) => p.slice(0, 3)) : null;
    const c = await page.$$('canvas');
    if (c.length) await c[c.length - 1].evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(config.screenshots, 'board-art.png') });
  } catch (e) {
    out.error = String(e && e.stack ? e.stack : e);
  } finally {
    await browser.close();
  }
  process.stdout.write(JSON.stringify(out) + '\n');
})();
