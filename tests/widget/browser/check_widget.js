// Drive Debian's Chromium with playwright-core against the fire widget served by Voilà.
//
// Usage: node check_widget.js CONFIG.json
// CONFIG: { url, screenshots, terrainHex: {x, y, rgb}, clickHex: {x, y}, oddsHex: {x, y} }
// (x, y in canvas pixels, computed by the Python test from the widget's own geometry).
// Prints one JSON object with what it saw; the Python test asserts on it.
'use strict';

const fs = require('fs');
const path = require('path');
const { chromium } = require('playwright-core');

const config = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const shots = config.screenshots;
fs.mkdirSync(shots, { recursive: true });

// Composite every layer of the MultiCanvas and read the pixel at (x, y).
async function pixel(page, x, y) {
  return page.evaluate(([px, py]) => {
    const layers = Array.from(document.querySelectorAll('canvas'))
      .filter((c) => c.width > 200 && c.height > 200);
    if (!layers.length) return null;
    const w = layers[0].width;
    const h = layers[0].height;
    const off = document.createElement('canvas');
    off.width = w;
    off.height = h;
    const ctx = off.getContext('2d');
    for (const c of layers) ctx.drawImage(c, 0, 0);
    return Array.from(ctx.getImageData(Math.round(px), Math.round(py), 1, 1).data).slice(0, 3);
  }, [x, y]);
}

async function topCanvasBox(page) {
  // ipycanvas focuses the canvas on mouse down, and focusing scrolls a canvas that is not fully in
  // view, shifting the coordinates it reports: bring it fully into view first, as a player would.
  const handles = await page.$$('canvas');
  let best = null;
  for (const hdl of handles) {
    const box = await hdl.boundingBox();
    if (box && box.width > 200 && box.height > 200) best = hdl; // the last (top) layer wins
  }
  if (!best) return null;
  await best.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await page.waitForTimeout(300);
  return best.boundingBox();
}

(async () => {
  const out = { steps: [] };
  const browser = await chromium.launch({
    executablePath: config.chromium || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1500, height: 1300 } });
    page.on('pageerror', (e) => out.steps.push(`pageerror: ${e.message}`));
    page.on('console', (m) => { if (m.type() === 'error') out.steps.push(`console: ${m.text()}`.slice(0, 300)); });
    out.page = page;
    const t0 = Date.now();
    await page.goto(config.url, { waitUntil: 'load', timeout: 60000 });
    if (config.mode === 'lab') {
      // JupyterLab: wait for the notebook and its kernel, then Run > Run All Cells.
      await page.waitForSelector('.jp-Notebook .jp-Cell', { timeout: 60000 });
      await page.waitForSelector('.jp-Notebook-ExecutionIndicator[data-status="idle"], ' +
        '.jp-KernelStatus-success, .jp-Toolbar-kernelStatus', { timeout: 60000 }).catch(() => null);
      await page.waitForTimeout(1500);
      await page.locator('.lm-MenuBar-itemLabel', { hasText: /^Run$/ }).click();
      await page.locator('.lm-Menu-itemLabel', { hasText: /^Run All Cells$/ }).click();
    }
    // Wait until the terrain layer has drawn: the known hex is no longer blank.
    await page.waitForFunction(([x, y]) => {
      const layers = Array.from(document.querySelectorAll('canvas')).filter((c) => c.width > 200);
      if (!layers.length) return false;  // ipycanvas composites a MultiCanvas into one <canvas>
      const d = layers[0].getContext('2d').getImageData(Math.round(x), Math.round(y), 1, 1).data;
      return d[3] > 0;
    }, [config.terrainHex.x, config.terrainHex.y], { timeout: 60000, polling: 200 });
    out.drawnAfterMs = Date.now() - t0;
    await page.waitForTimeout(500);
    await page.screenshot({ path: path.join(shots, '1-board.png'), fullPage: true });
    out.terrain = await pixel(page, config.terrainHex.x, config.terrainHex.y);

    // Click tool "Flame", then click the hex.
    const box = await topCanvasBox(page);
    out.canvasBox = box;
    out.clickBefore = await pixel(page, config.clickHex.x, config.clickHex.y);
    await page.getByRole('button', { name: 'Flame', exact: true }).click();
    // In JupyterLab the first click on an output may only select its cell: click again if nothing changed.
    for (let attempt = 0; attempt < 3; attempt++) {
      await page.mouse.move(box.x + config.clickHex.x, box.y + config.clickHex.y);
      await page.mouse.down();
      await page.waitForTimeout(80);
      await page.mouse.up();
      const deadline = Date.now() + 5000;
      do {
        await page.waitForTimeout(200);
        out.clickAfter = await pixel(page, config.clickHex.x, config.clickHex.y);
      } while (JSON.stringify(out.clickAfter) === JSON.stringify(out.clickBefore) && Date.now() < deadline);
      out.clickAttempts = attempt + 1;
      if (JSON.stringify(out.clickAfter) !== JSON.stringify(out.clickBefore)) break;
    }
    await page.screenshot({ path: path.join(shots, '2-flame-placed.png'), fullPage: true });

    // Hover a hex: the side panel shows its odds.
    await page.mouse.move(box.x + config.oddsHex.x, box.y + config.oddsHex.y);
    await page.waitForTimeout(800);
    out.hoverText = await page.evaluate(() => document.body.innerText);

    // Odds overlay.
    out.oddsBefore = await pixel(page, config.oddsHex.x, config.oddsHex.y);
    await page.getByRole('button', { name: 'odds this AFPh', exact: true }).click();
    const deadline2 = Date.now() + 15000;
    do {
      await page.waitForTimeout(200);
      out.oddsAfter = await pixel(page, config.oddsHex.x, config.oddsHex.y);
    } while (JSON.stringify(out.oddsAfter) === JSON.stringify(out.oddsBefore) && Date.now() < deadline2);
    await page.screenshot({ path: path.join(shots, '3-odds-overlay.png'), fullPage: true });
    await page.screenshot({ path: path.join(shots, '4-odds-canvas.png'), clip: box });

    // The FT/MOL tab: the notebook declared a MOL attack from code; Resolve rolls it into the log.
    out.attackPanel = await page.evaluate(() => document.body.innerText);
    await page.getByRole('button', { name: 'Resolve (roll)', exact: true }).click();
    await page.waitForFunction(() => document.body.innerText.includes('MOL Check (A22.611): dr'), null,
      { timeout: 15000, polling: 200 });
    out.afterResolve = await page.evaluate(() => document.body.innerText);
    await page.screenshot({ path: path.join(shots, '5-mol-resolved.png'), fullPage: true });
  } catch (e) {
    out.error = String(e && e.stack ? e.stack : e);
    try {
      await out.page.screenshot({ path: path.join(shots, 'failure.png'), fullPage: true });
      out.canvases = await out.page.evaluate(() => Array.from(document.querySelectorAll('canvas'))
        .map((c) => [c.width, c.height]));
    } catch (e2) { /* the page is gone */ }
  } finally {
    await browser.close();
  }
  delete out.page;
  process.stdout.write(JSON.stringify(out) + '\n');
})();
