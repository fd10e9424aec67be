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
const { view, settle } = require('./widget_page');

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

// Canvas point of a map point given as board pixels from the map's top-left corner ({u, v}).
function at(g, p) {
  return { x: p.u * g.scale + 8 - g.px, y: p.v * g.scale + 8 - g.py };
}

// Every visible control inside the widget's box (none clipped by the page or cut off on the right).
async function controlsInside(page) {
  return page.evaluate(() => {
    const root = document.querySelector('.asl-fire-widget');
    const rr = root.getBoundingClientRect();
    const out = [];
    const sel = 'button, input, select, .widget-checkbox, .widget-dropdown, .widget-text, .widget-toggle-buttons';
    for (const el of root.querySelectorAll(sel)) {
      if (el.offsetParent === null) continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      let clipped = r.left < rr.left - 1 || r.right > rr.right + 1;
      for (let p = el.parentElement; p && p !== root.parentElement; p = p.parentElement) {
        const cs = getComputedStyle(p);
        if (cs.overflowX !== 'visible') {
          const pr = p.getBoundingClientRect();
          if (r.right > pr.right + 1 || r.left < pr.left - 1) clipped = true;
        }
      }
      if (clipped) out.push((el.innerText || el.getAttribute('title') || el.tagName).slice(0, 40));
    }
    return { clipped: out, root: { left: rr.left, right: rr.right, width: rr.width }, vw: window.innerWidth };
  });
}

// Is the element's box inside the window (and inside its scrolling parent, if given)?
async function inView(page, selector, last = false) {
  return page.evaluate(([sel, lastOne]) => {
    const all = Array.from(document.querySelectorAll(sel));
    const el = lastOne ? all[all.length - 1] : all[0];
    if (!el) return { found: false };
    const r = el.getBoundingClientRect();
    const out = { found: true, top: r.top, bottom: r.bottom, left: r.left, right: r.right,
      text: el.innerText.slice(0, 300), vw: window.innerWidth, vh: window.innerHeight };
    out.inWindow = r.top >= -1 && r.left >= -1 && r.bottom <= window.innerHeight + 1 && r.right <= window.innerWidth + 1
      && r.width > 0 && r.height > 0;
    let p = el.parentElement;
    out.inScroller = true;
    while (p) {
      const s = getComputedStyle(p);
      if (/(auto|scroll)/.test(s.overflowY) && p.scrollHeight > p.clientHeight) {
        const pr = p.getBoundingClientRect();
        out.inScroller = r.bottom <= pr.bottom + 1 && r.top >= pr.top - 1;
        break;
      }
      p = p.parentElement;
    }
    return out;
  }, [selector, last]);
}

// The composite of every canvas layer, as an array of RGB rows (for zoom and pan checks).
async function composite(page) {
  return page.evaluate(() => {
    const layers = Array.from(document.querySelectorAll('canvas')).filter((c) => c.width > 200 && c.height > 150);
    const w = layers[0].width;
    const h = layers[0].height;
    const off = document.createElement('canvas');
    off.width = w;
    off.height = h;
    const ctx = off.getContext('2d');
    for (const c of layers) ctx.drawImage(c, 0, 0);
    const d = ctx.getImageData(0, 0, w, h).data;
    const top = layers[layers.length - 1];
    const r = top.getBoundingClientRect();
    return { w, h, ratio: w / r.width, data: Array.from(d) };
  });
}

function shiftDiff(a, b, dx, dy) {
  // Mean |a(x + dx, y + dy) − b(x, y)| over the part both images cover.
  let sum = 0;
  let n = 0;
  for (let y = 40; y < b.h - 40; y += 3) {
    for (let x = 40; x < b.w - 40; x += 3) {
      const xa = x + dx;
      const ya = y + dy;
      if (xa < 0 || ya < 0 || xa >= a.w || ya >= a.h) continue;
      const ia = (ya * a.w + xa) * 4;
      const ib = (y * b.w + x) * 4;
      sum += Math.abs(a.data[ia] - b.data[ib]) + Math.abs(a.data[ia + 1] - b.data[ib + 1])
        + Math.abs(a.data[ia + 2] - b.data[ib + 2]);
      n += 1;
    }
  }
  return n ? sum / n : 999;
}

async function zoomText(page) {
  return page.evaluate(() => {
    const el = document.querySelector('.asl-zoom');
    return el ? (el.innerText.match(/zoom (\d+\.\d+)/) || [null, null])[1] : null;
  });
}

// The points of issue 13: the log, the hover sweep, the legend, zoom and pan, the layout, dropdowns.
// Click the map point p ({u, v}) until the latest result says `want` (in JupyterLab the first click on an
// output may only select its cell).
async function clickMap(page, p, want) {
  for (let attempt = 0; attempt < 3; attempt++) {
    const g = await view(page);
    const box = await topCanvasBox(page);
    const c = at(g, p);
    await page.mouse.move(box.x + c.x / config.ratio, box.y + c.y / config.ratio);
    await page.waitForTimeout(100);
    await page.mouse.down();
    await page.waitForTimeout(80);
    await page.mouse.up();
    const ok = await page.waitForFunction((w) => document.querySelector('.asl-latest').innerText.includes(w), want,
      { timeout: 5000, polling: 200 }).then(() => true).catch(() => false);
    if (ok) return attempt + 1;
  }
  return 0;
}

// As a player looks at the map: its column (the latest result, the legend, the canvas) scrolled to the top of
// the window; then is the latest result in the window, and the whole canvas?
async function latestInView(page) {
  await page.evaluate(() => {
    const col = document.querySelector('.asl-latest').parentElement;
    col.scrollIntoView({ block: 'start' });
  });
  await page.waitForTimeout(400);
  return { latest: await inView(page, '.asl-latest'), canvas: await inView(page, 'canvas') };
}

async function latestChecks(page, out) {
  // The latest result is in view with the map after an upkeep…
  await page.getByRole('button', { name: 'end-of-AFPh upkeep', exact: true }).click();
  await page.waitForFunction(() => (document.querySelector('.asl-latest') || {}).innerText
    && document.querySelector('.asl-latest').innerText.includes('AFPh'), null, { timeout: 15000, polling: 200 });
  await page.waitForTimeout(400);
  out.afterUpkeep = await latestInView(page);
  await page.screenshot({ path: path.join(shots, '10-latest-after-upkeep.png') });
  // …and after a refused click (Flame on open ground), the whole map in view again.
  await page.getByRole('button', { name: 'fit', exact: true }).click();
  await page.waitForTimeout(800);
  await page.screenshot({ path: path.join(shots, '10b-after-fit.png') });
  await page.getByRole('button', { name: 'Flame', exact: true }).click();
  out.refusalClicks = await clickMap(page, config.openHex, 'cannot burn');
  out.afterRefusal = await latestInView(page);
  await page.screenshot({ path: path.join(shots, '11-latest-after-refusal.png') });
  // A click on a unit's counter (inspect tool) selects it for the FT/MOL and Heat of Battle panels.
  await page.getByRole('button', { name: 'inspect / select unit', exact: true }).click();
  out.unitClicks = await clickMap(page, config.unitHex, 'selected');
  out.latestAfterUnitClick = await inView(page, '.asl-latest');
  await page.screenshot({ path: path.join(shots, '12-unit-selected.png') });
  // Hex names at the names zoom: the drawn scale and how many canvas pixels one screen pixel holds.
  await page.getByRole('button', { name: 'names', exact: true }).click();
  await page.waitForTimeout(1200);
  out.namesView = await view(page);
  out.namesRatio = await page.evaluate(() => {
    const cs = Array.from(document.querySelectorAll('canvas')).filter((c) => c.width > 200);
    const top = cs[cs.length - 1];
    return top.width / top.getBoundingClientRect().width;
  });
  await topCanvasBox(page);
  await page.screenshot({ path: path.join(shots, '13-names-zoom.png') });
  out.controlsLast = await controlsInside(page);
}

async function checks(page, out, box) {
  // 1. After a roll the log's newest line is in view.
  await page.getByRole('button', { name: 'RPh wind change', exact: true }).click();
  await page.waitForFunction(() => document.body.innerText.includes('Wind Change'), null, { timeout: 15000 });
  await page.waitForTimeout(500);
  await page.locator('.asl-log').scrollIntoViewIfNeeded();
  out.logNewest = await inView(page, '.asl-log .asl-log-entry');  // the newest action's entry (on top)
  await page.screenshot({ path: path.join(shots, '6-log-after-roll.png') });
  // 2. A quick sweep over several hexes: the panel ends on the hex the mouse stopped on.
  const b = Object.assign({}, await topCanvasBox(page));
  for (const p of config.sweep) {
    await page.mouse.move(b.x + p.x / (config.ratio || 1), b.y + p.y / (config.ratio || 1));
  }
  await page.waitForTimeout(900);
  out.sweepPanel = await page.evaluate(() => document.querySelector('.asl-hex-panel').innerText);
  // 3. The overlay's title and legend are in view with the map.
  await page.getByRole('button', { name: 'odds this AFPh', exact: true }).click();
  await page.waitForTimeout(800);
  await page.evaluate(() => {
    document.querySelector('.asl-latest').parentElement.scrollIntoView({ block: 'start' });
    document.querySelector('.asl-hex-panel').scrollIntoView({ block: 'nearest' });  // (sub-pixel rounding)
  });
  await page.waitForTimeout(300);  // the map's column at the top of the window, as a player looks at the map
  out.legend = await inView(page, '.asl-legend');
  out.panel = await inView(page, '.asl-hex-panel');
  out.canvasRect = await inView(page, 'canvas');
  await page.screenshot({ path: path.join(shots, '7-legend-and-panel.png') });
  // 4. Zoom with the mouse wheel changes the drawn scale; a drag pans the map.
  const bz = await topCanvasBox(page);  // the latest result and the legend moved the canvas
  b.x = bz.x; b.y = bz.y; b.width = bz.width; b.height = bz.height;
  out.zoomBefore = await zoomText(page);
  const before = await composite(page);
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
  await page.mouse.wheel(0, -250);
  const dl = Date.now() + 10000;
  do { await page.waitForTimeout(200); out.zoomAfter = await zoomText(page); }
  while (out.zoomAfter === out.zoomBefore && Date.now() < dl);
  await page.waitForTimeout(600);
  const zoomed = await composite(page);
  out.zoomChangedPixels = shiftDiff(zoomed, before, 0, 0);
  await page.screenshot({ path: path.join(shots, '8-zoomed.png') });
  // Sideways, the map moving left: zoomed in, the canvas grows to the map's height (no vertical room to pan) but the
  // map is wider than the canvas on its right.
  const drag = { x: -100, y: 0 };
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2 + drag.x, b.y + b.height / 2 + drag.y, { steps: 8 });
  await page.mouse.up();
  await page.waitForTimeout(1200);
  const panned = await composite(page);
  const dx = Math.round(-drag.x * zoomed.ratio);
  const dy = Math.round(-drag.y * zoomed.ratio);
  out.panShifted = shiftDiff(zoomed, panned, dx, dy);
  out.panUnshifted = shiftDiff(zoomed, panned, 0, 0);
  await page.screenshot({ path: path.join(shots, '9-panned.png') });
  // 5. Dropdowns show a value and no label or dropdown text is cut.
  out.controls = await page.evaluate(() => {
    const root = document.querySelector('.asl-fire-widget');
    const blank = [];
    const cut = [];
    const ctx = document.createElement('canvas').getContext('2d');
    for (const s of root.querySelectorAll('select')) {
      const opt = s.options[s.selectedIndex];
      if (!opt || !opt.text.trim()) { blank.push(s.parentElement.innerText.slice(0, 40)); continue; }
      if (s.offsetParent === null) continue;  // in a hidden tab
      const cs = getComputedStyle(s);
      ctx.font = `${cs.fontSize} ${cs.fontFamily}`;
      const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
      if (ctx.measureText(opt.text).width > room + 1) cut.push(opt.text);
    }
    for (const l of root.querySelectorAll('.widget-label, .widget-label-basic, .widget-readout')) {
      if (l.offsetParent !== null && l.scrollWidth > l.clientWidth + 1) cut.push(l.innerText);
    }
    return { blank, cut };
  });
}

(async () => {
  const out = { steps: [] };
  const browser = await chromium.launch({
    executablePath: config.chromium || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await browser.newPage({ viewport: config.viewport || { width: 1280, height: 800 },
      colorScheme: config.dark ? 'dark' : 'light' });
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
      // The file browser open beside the notebook, as players keep it.
      const fbOpen = () => page.evaluate(() => {
        const fb = document.querySelector('#filebrowser');
        return !!fb && fb.getBoundingClientRect().width > 100;
      });
      if (!(await fbOpen())) await page.locator('li[data-id="filebrowser"]').click().catch(() => null);
      await page.waitForTimeout(500);
      out.fileBrowserOpen = await fbOpen();
      await page.locator('.lm-MenuBar-itemLabel', { hasText: /^Run$/ }).click();
      await page.locator('.lm-Menu-itemLabel', { hasText: /^Run All Cells$/ }).click();
    }
    const g0 = await settle(page);
    out.view = g0;
    for (const k of ['terrainHex', 'clickHex', 'oddsHex', 'openHex', 'unitHex', 'brokenMark']) {
      Object.assign(config[k], at(g0, config[k]));
    }
    config.sweep = config.sweep.map((p) => at(g0, p));
    config.scrollClickHex = config.scrollCandidates.map((p) => Object.assign({}, p, at(g0, p)))
      .find((p) => p.x > 0.4 * g0.w && p.y > 0.6 * g0.h && p.y < 0.85 * g0.h) || config.scrollCandidates[0];
    out.scrollClickName = config.scrollClickHex.name;
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
    // Units are drawn: the German squad's counter in its side colour, the broken Russian's red corner.
    out.unitPixel = await pixel(page, config.unitHex.x, config.unitHex.y);
    out.brokenPixel = await pixel(page, config.brokenMark.x, config.brokenMark.y);
    out.controlsFirst = await controlsInside(page);
    out.layout = await page.evaluate(() => {
      const r = (s) => { const e = document.querySelector(s); if (!e) return null;
        const b = e.getBoundingClientRect(); return { top: b.top, bottom: b.bottom, left: b.left, right: b.right }; };
      return { widget: r('.asl-fire-widget'), canvas: r('canvas'), panel: r('.asl-hex-panel'), latest: r('.asl-latest') };
    });
    await page.screenshot({ path: path.join(shots, '1b-window.png') });

    // Click tool "Flame", then click the hex.
    let box = await topCanvasBox(page);
    out.canvasBox = box;
    // The canvas may be shown smaller than its pixels (a narrow page): mouse points are scaled.
    config.ratio = await page.evaluate(() => {
      const cs = Array.from(document.querySelectorAll('canvas')).filter((c) => c.width > 200);
      const top = cs[cs.length - 1];
      return top.width / top.getBoundingClientRect().width;
    });
    out.ratio = config.ratio;
    out.clickBefore = await pixel(page, config.clickHex.x, config.clickHex.y);
    await page.getByRole('button', { name: 'Flame', exact: true }).click();
    // In JupyterLab the first click on an output may only select its cell: click again if nothing changed.
    for (let attempt = 0; attempt < 3; attempt++) {
      box = await topCanvasBox(page);  // clicking the tool button may have scrolled the page
      await page.mouse.move(box.x + config.clickHex.x / config.ratio, box.y + config.clickHex.y / config.ratio);
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

    // A click on a canvas partly scrolled out of view lands on the hex under the mouse: ipycanvas focuses the
    // canvas on mouse down, which scrolls it into view before the point is read.
    box = await topCanvasBox(page);
    const sc = config.scrollClickHex;
    out.scrollClickBefore = await pixel(page, sc.x, sc.y);
    out.scrolledBy = await page.evaluate((shift) => {
      const cs = Array.from(document.querySelectorAll('canvas')).filter((c) => c.width > 200);
      const c = cs[cs.length - 1];
      document.activeElement && document.activeElement.blur();  // not focused: the next mouse down focuses it
      let s = c.parentElement;
      while (s && !(/(auto|scroll)/.test(getComputedStyle(s).overflowY) && s.scrollHeight > s.clientHeight)) {
        s = s.parentElement;
      }
      s = s || document.scrollingElement;
      const top = s === document.scrollingElement ? 0 : s.getBoundingClientRect().top;
      const before = s.scrollTop;
      s.scrollTop += c.getBoundingClientRect().top - top + shift;  // the canvas top `shift` px out of view
      return s.scrollTop - before;
    }, 120);
    await page.waitForTimeout(300);
    const part = await (await page.$$('canvas')).filter(() => true).pop().boundingBox();
    out.scrollClickTop = part.y;
    await page.mouse.move(part.x + sc.x / config.ratio, part.y + sc.y / config.ratio);
    await page.waitForTimeout(100);
    await page.mouse.down();
    await page.waitForTimeout(80);
    await page.mouse.up();
    const dl3 = Date.now() + 5000;
    do {
      await page.waitForTimeout(200);
      out.scrollClickAfter = await pixel(page, sc.x, sc.y);
    } while (JSON.stringify(out.scrollClickAfter) === JSON.stringify(out.scrollClickBefore) && Date.now() < dl3);
    out.scrollClickTopAfter = (await (await page.$$('canvas')).pop().boundingBox()).y;
    await page.screenshot({ path: path.join(shots, '2b-click-while-scrolled.png'), fullPage: true });

    // Hover a hex: the side panel shows its odds.
    box = await topCanvasBox(page);
    await page.mouse.move(box.x + config.oddsHex.x / config.ratio, box.y + config.oddsHex.y / config.ratio);
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
    box = await topCanvasBox(page);
    await page.screenshot({ path: path.join(shots, '4-odds-canvas.png'), clip: box });

    // The FT/MOL tab: the notebook declared a MOL attack from code; Resolve rolls it into the log.
    out.attackPanel = await page.evaluate(() => document.body.innerText);
    await page.getByRole('button', { name: 'Resolve (roll)', exact: true }).click();
    await page.waitForFunction(() => document.body.innerText.includes('MOL Check (A22.611): dr'), null,
      { timeout: 15000, polling: 200 });
    out.afterResolve = await page.evaluate(() => document.body.innerText);
    await page.screenshot({ path: path.join(shots, '5-mol-resolved.png'), fullPage: true });
    await checks(page, out, box);
    await latestChecks(page, out);
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
