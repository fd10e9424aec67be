// Read the widget's canvas at map points once it has drawn, then (optionally) zoom in with the mouse wheel and
// measure the canvas again.
//
// Usage: node check_units.js CONFIG.json
// CONFIG: { url, chromium, screenshots, points: [{u, v}] (board pixels from the map's top-left corner),
//           wheel: number of wheel steps to zoom in (0: none) }.
// Prints one JSON object: { pixels: [[r, g, b]…], before: {view, css}, after: {view, css} } or { error }.
'use strict';

const fs = require('fs');
const path = require('path');
const { chromium } = require('playwright-core');
const { view, settle } = require('./widget_page');

const config = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
fs.mkdirSync(config.screenshots, { recursive: true });

// The map canvases are every layer of the MultiCanvas (width > 200), however short a strip map makes them.
async function canvasBox(page) {
  return page.evaluate(() => {
    const layers = Array.from(document.querySelectorAll('canvas')).filter((c) => c.width > 200);
    if (!layers.length) return null;
    const c = layers[layers.length - 1];
    const r = c.getBoundingClientRect();
    return { width: r.width, height: r.height, x: r.x, y: r.y, pixelsHigh: c.height };
  });
}

async function pixels(page, g, pts) {
  return page.evaluate((points) => {
    const layers = Array.from(document.querySelectorAll('canvas')).filter((c) => c.width > 200);
    if (!layers.length) return null;
    const off = document.createElement('canvas');
    off.width = layers[0].width;
    off.height = layers[0].height;
    const ctx = off.getContext('2d');
    for (const c of layers) ctx.drawImage(c, 0, 0);
    return points.map((p) => Array.from(ctx.getImageData(Math.round(p.x), Math.round(p.y), 1, 1).data));
  }, pts.map((p) => ({ x: p.u * g.scale + 8 - g.px, y: p.v * g.scale + 8 - g.py })));
}

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
    let g = await settle(page);
    if ((config.points || []).length) {
      // Wait until every point is drawn and the picture has settled (the pictures load after the grid).
      let px = null;
      let last = '';
      const deadline = Date.now() + 60000;
      do {
        await page.waitForTimeout(500);
        g = await view(page);
        px = await pixels(page, g, config.points);
        const now = JSON.stringify([g, px]);
        if (px && px.every((p) => p[3] > 0) && now === last) break;
        last = now;
      } while (Date.now() < deadline);
      out.pixels = px ? px.map((p) => p.slice(0, 3)) : null;
      out.view = g;
    }
    await page.evaluate(() => {
      const layers = Array.from(document.querySelectorAll('canvas')).filter((c) => c.width > 200);
      layers[layers.length - 1].scrollIntoView({ block: 'start' });
    });
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(config.screenshots, '1-first.png') });
    out.before = { view: g, css: await canvasBox(page) };
    for (let k = 0; k < (config.wheel || 0); k++) {
      const b = await canvasBox(page);
      const z = JSON.stringify(await view(page));
      await page.mouse.move(b.x + b.width / 2, b.y + Math.min(b.height / 2, 40));
      await page.mouse.wheel(0, -250);
      const dl = Date.now() + 10000;
      while (JSON.stringify(await view(page)) === z && Date.now() < dl) await page.waitForTimeout(200);
    }
    if (config.wheel) {
      const g2 = await settle(page);
      out.after = { view: g2, css: await canvasBox(page), window: await page.evaluate(() => window.innerHeight) };
      await page.screenshot({ path: path.join(config.screenshots, '2-zoomed.png') });
    }
  } catch (e) {
    out.error = String(e && e.stack ? e.stack : e);
  } finally {
    await browser.close();
  }
  process.stdout.write(JSON.stringify(out) + '\n');
})();
