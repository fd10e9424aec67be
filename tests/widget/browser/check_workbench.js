// Issue 34, the notebook as a player's workbench, in headless Chromium (Voilà or JupyterLab, light or dark).
//
// Usage: node check_workbench.js CONFIG.json
// CONFIG: { url, mode: "voila" | "lab" | "stack", screenshots, chromium, viewport, dark,
//           f7: {u, v}, oddsHex: {u, v}, vsav, boards, vmod, badFile,      (the example notebook)
//           stackHex: {u, v}, badge: {u, v} }                              (mode "stack": a six-counter stack)
// ({u, v}: board pixels from the map's top-left corner; the widget's zoom label gives scale and pan.)
// Prints one JSON object with what it saw; the Python test asserts on it.
'use strict';

const fs = require('fs');
const path = require('path');
const { chromium } = require('playwright-core');
const { view, settle } = require('./widget_page');

const config = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const shots = config.screenshots;
fs.mkdirSync(shots, { recursive: true });

function at(g, p) {
  return { x: p.u * g.scale + 8 - g.px, y: p.v * g.scale + 8 - g.py };
}

async function rect(page, sel) {
  return page.evaluate((s) => {
    const el = document.querySelector(s);
    if (!el) return { found: false };
    const r = el.getBoundingClientRect();
    return { found: true, top: r.top, left: r.left, bottom: r.bottom, right: r.right, vw: window.innerWidth,
      vh: window.innerHeight, text: el.innerText.slice(0, 1500) };
  }, sel);
}

async function topCanvas(page) {
  const handles = await page.$$('canvas');
  let best = null;
  for (const h of handles) {
    const b = await h.boundingBox();
    if (b && b.width > 200 && b.height > 150) best = h;
  }
  return best;
}

async function pixel(page, x, y) {
  return page.evaluate(([px, py]) => {
    const layers = Array.from(document.querySelectorAll('canvas')).filter((c) => c.width > 200 && c.height > 150);
    const off = document.createElement('canvas');
    off.width = layers[0].width;
    off.height = layers[0].height;
    const ctx = off.getContext('2d');
    for (const c of layers) ctx.drawImage(c, 0, 0);
    return Array.from(ctx.getImageData(Math.round(px), Math.round(py), 1, 1).data).slice(0, 3);
  }, [x, y]);
}

async function ratio(page) {
  return page.evaluate(() => {
    const cs = Array.from(document.querySelectorAll('canvas')).filter((c) => c.width > 200);
    const top = cs[cs.length - 1];
    return top.width / top.getBoundingClientRect().width;
  });
}

// Move the mouse onto map point p (and click it until the latest result says `want`, if given).
async function onMap(page, p, want) {
  for (let attempt = 0; attempt < 3; attempt++) {
    const g = await view(page);
    const top = await topCanvas(page);
    await top.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await page.waitForTimeout(300);
    const box = await top.boundingBox();
    const r = await ratio(page);
    const c = at(g, p);
    await page.mouse.move(box.x + c.x / r, box.y + c.y / r);
    await page.waitForTimeout(150);
    if (!want) return true;
    await page.mouse.down();
    await page.waitForTimeout(80);
    await page.mouse.up();
    const ok = await page.waitForFunction((w) => document.querySelector('.asl-latest').innerText.includes(w), want,
      { timeout: 6000, polling: 200 }).then(() => true).catch(() => false);
    if (ok) return true;
  }
  return false;
}

// Pick a file with the widget's "open a game…" button, as a player does (ipywidgets' file input is not in the page:
// the button opens the browser's file chooser).
async function pick(page, file) {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser', { timeout: 15000 }),
    page.locator('.asl-file-picker').click()]);
  await chooser.setFiles(file);
}

async function latestHas(page, want, timeout = 15000) {
  return page.waitForFunction((w) => (document.querySelector('.asl-latest') || { innerText: '' }).innerText
    .includes(w), want, { timeout, polling: 200 }).then(() => true).catch(() => false);
}

// Every text the widget shows (its own text nodes, visible, in an enabled control), its colour against the
// background behind it (ancestors' backgrounds blended, opacity applied), and those below 4.5:1 (WCAG AA).
async function contrast(page) {
  return page.evaluate(() => {
    const parse = (c) => {
      const s = c.match(/color\(srgb ([^)]+)\)/);  // what color-mix() computes to
      if (s) {
        const p = s[1].split(/[ /]+/).filter(Boolean).map(Number);
        return [p[0] * 255, p[1] * 255, p[2] * 255, p.length > 3 ? p[3] : 1];
      }
      const m = c.match(/rgba?\(([^)]+)\)/);
      if (!m) return null;
      const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
      return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
    };
    const lum = (rgb) => {
      const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
      return 0.2126 * f(rgb[0]) + 0.7152 * f(rgb[1]) + 0.0722 * f(rgb[2]);
    };
    const over = (top, under) => [0, 1, 2].map((k) => top[k] * top[3] + under[k] * (1 - top[3]));
    const root = document.querySelector('.asl-fire-widget');
    const pageBg = (() => {
      for (let e = root; e; e = e.parentElement) {
        const c = parse(getComputedStyle(e).backgroundColor);
        if (c && c[3] >= 0.99) return c.slice(0, 3);
      }
      const b = parse(getComputedStyle(document.body).backgroundColor);
      return b && b[3] > 0 ? b.slice(0, 3) : [255, 255, 255];
    })();
    const background = (el) => {
      const layers = [];
      for (let e = el; e; e = e.parentElement) {
        const c = parse(getComputedStyle(e).backgroundColor);
        if (c && c[3] > 0) { layers.push(c); if (c[3] >= 0.99) break; }
        if (e === root) break;
      }
      let bg = pageBg;
      for (const c of layers.reverse()) bg = over(c, bg);
      return bg;
    };
    const opacity = (el) => {
      let o = 1;
      for (let e = el; e && e !== document.body; e = e.parentElement) o *= Number(getComputedStyle(e).opacity);
      return o;
    };
    const texts = [];
    const bad = [];
    for (const el of root.querySelectorAll('*')) {
      if (el.closest('canvas, option, select, [disabled], .mod-disabled')) continue;
      const own = Array.from(el.childNodes).filter((n) => n.nodeType === 3 && n.textContent.trim()).map((n) => n.textContent.trim()).join(' ');
      if (!own) continue;
      const r = el.getBoundingClientRect();
      const cs = getComputedStyle(el);
      if (r.width === 0 || r.height === 0 || cs.visibility === 'hidden' || el.offsetParent === null) continue;
      const fg = parse(cs.color);
      if (!fg) continue;
      const bg = background(el);
      const shown = over([fg[0], fg[1], fg[2], fg[3] * opacity(el)], bg);
      const l1 = lum(shown);
      const l2 = lum(bg);
      const ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
      const item = { text: own.slice(0, 60), ratio: Math.round(ratio * 100) / 100,
        fg: shown.map(Math.round), bg: bg.map(Math.round) };
      texts.push(item);
      if (ratio < 4.5) bad.push(item);
    }
    return { count: texts.length, bad, sample: texts.slice(0, 8) };
  });
}

(async () => {
  const out = { steps: [] };
  const browser = await chromium.launch({
    executablePath: config.chromium || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  let page = null;
  try {
    page = await browser.newPage({ viewport: config.viewport || { width: 1280, height: 800 },
      colorScheme: config.dark ? 'dark' : 'light' });
    page.on('pageerror', (e) => out.steps.push(`pageerror: ${e.message}`));
    await page.goto(config.url, { waitUntil: 'load', timeout: 90000 });
    if (config.mode === 'lab') {
      await page.waitForSelector('.jp-Notebook .jp-Cell', { timeout: 60000 });
      await page.waitForTimeout(2000);
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
    out.view = await settle(page);
    await page.waitForTimeout(1500);
    if (config.mode === 'lab') {  // Run All leaves the last cell in view: back to the top, as the page opens
      await page.evaluate(() => {
        for (let e = document.querySelector('.asl-fire-widget'); e; e = e.parentElement) e.scrollTop = 0;
      });
      await page.waitForTimeout(800);
    }
    await page.screenshot({ path: path.join(shots, 'w1-first-sight.png') });
    // map_first: without any scrolling, the map's top-left corner, "Latest" and the hex panel are in the window.
    out.first = { canvas: await rect(page, 'canvas'), latest: await rect(page, '.asl-latest'),
      panel: await rect(page, '.asl-hex-panel'), widget: await rect(page, '.asl-fire-widget') };
    if (config.mode === 'stack') {
      await onMap(page, config.stackHex);
      await page.waitForTimeout(900);
      out.stackPanel = await rect(page, '.asl-hex-panel');
      const g = await view(page);
      const b = at(g, config.badge);
      out.badge = await page.evaluate(([px, py]) => {  // dark disc and white figures around the badge's centre
        const layers = Array.from(document.querySelectorAll('canvas')).filter((c) => c.width > 200 && c.height > 150);
        const off = document.createElement('canvas');
        off.width = layers[0].width;
        off.height = layers[0].height;
        const ctx = off.getContext('2d');
        for (const c of layers) ctx.drawImage(c, 0, 0);
        const d = ctx.getImageData(Math.round(px) - 6, Math.round(py) - 6, 13, 13).data;
        let dark = 0;
        let white = 0;
        for (let k = 0; k < d.length; k += 4) {
          const sum = d[k] + d[k + 1] + d[k + 2];
          if (sum < 120) dark += 1;
          if (sum > 690) white += 1;
        }
        return { dark, white };
      }, [b.x, b.y]);
      const top = await topCanvas(page);
      await page.screenshot({ path: path.join(shots, 'w-stack.png'), clip: await top.boundingBox() });
      return;
    }
    // The odds of a hovered hex, in view beside the map.
    await onMap(page, config.oddsHex);
    await page.waitForTimeout(900);
    out.hover = await rect(page, '.asl-hex-panel');
    await page.screenshot({ path: path.join(shots, 'w2-hover.png') });
    out.contrastFirst = await contrast(page);
    // phase_control: Kindling in the RPh is refused with the way to the PFPh; "next" reaches it; Kindling works.
    await page.getByRole('button', { name: 'Kindling', exact: true }).click();
    out.refusedInRph = await onMap(page, config.f7, 'to reach the PFPh');
    out.refusal = (await rect(page, '.asl-latest')).text;
    await page.getByRole('button', { name: /^next: PFPh/ }).click();
    out.reachedPfph = await latestHas(page, 'Wind Change DR');
    await page.waitForFunction(() => { const s = document.querySelector('.asl-jump-phase select');
      return s && s.options[s.selectedIndex].text.startsWith('PFPh'); }, null, { timeout: 10000, polling: 200 })
      .catch(() => null);
    out.header = (await rect(page, '.asl-phase-control')).text;
    out.jump = await page.evaluate(() => { const s = document.querySelector('.asl-jump-phase select');
      return s ? s.options[s.selectedIndex].text : null; });
    out.kindled = await onMap(page, config.f7, 'Kindling in F7');
    out.afterKindling = (await rect(page, '.asl-latest')).text;
    await page.screenshot({ path: path.join(shots, 'w3-kindling-in-pfph.png') });
    // live_not_connected: "connect to VASSAL" with no VASSAL: one line, still not connected.
    await page.getByRole('button', { name: 'connect to VASSAL' }).click();
    out.notConnected = await latestHas(page, 'live game: not connected');
    out.liveState = (await rect(page, '.asl-live-state')).text;
    out.latestNotConnected = (await rect(page, '.asl-latest')).text;
    await page.screenshot({ path: path.join(shots, 'w4-not-connected.png') });
    out.contrastRefused = await contrast(page);
    // file_picker: the boards folder and module typed, a .vsav picked; then a bad file.
    await page.locator('.asl-setup-path input').nth(0).fill(config.boards);
    await page.locator('.asl-setup-path input').nth(0).press('Enter');
    await page.locator('.asl-setup-path input').nth(1).fill(config.vmod);
    await page.locator('.asl-setup-path input').nth(1).press('Enter');
    await page.waitForTimeout(600);
    await pick(page, config.vsav);
    out.vsavLoaded = await latestHas(page, 'loaded units.vsav', 30000);
    await page.waitForTimeout(1500);
    out.afterVsav = { header: (await rect(page, '.asl-fire-widget')).text.slice(0, 200),
      latest: (await rect(page, '.asl-latest')).text };
    await page.screenshot({ path: path.join(shots, 'w5-vsav-loaded.png') });
    await pick(page, config.badFile);
    out.badRefused = await latestHas(page, 'broken.vsav', 20000);
    out.badLatest = await page.evaluate(() => document.querySelector('.asl-latest-text').innerText);
    await page.screenshot({ path: path.join(shots, 'w6-bad-file.png') });
    out.contrastLast = await contrast(page);
  } catch (e) {
    out.error = String(e && e.stack ? e.stack : e);
    try { await page.screenshot({ path: path.join(shots, 'failure.png'), fullPage: true }); } catch (e2) { /* gone */ }
  } finally {
    await browser.close();
    process.stdout.write(JSON.stringify(out) + '\n');
  }
})();
