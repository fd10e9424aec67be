// Open a Voilà page and report its text once the notebook has run (for the one-line load error).
//
// Usage: node check_error.js CONFIG.json   CONFIG: { url, chromium, screenshots }
// Prints one JSON object: { text, errorLines } or { error }.
'use strict';

const fs = require('fs');
const path = require('path');
const { chromium } = require('playwright-core');

const config = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
fs.mkdirSync(config.screenshots, { recursive: true });

(async () => {
  const out = {};
  const browser = await chromium.launch({
    executablePath: config.chromium || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(config.url, { waitUntil: 'load', timeout: 60000 });
    await page.waitForSelector('.asl-load-error, .jp-OutputArea-output[data-mime-type*="error"], .voila-error',
      { timeout: 60000 }).catch(() => null);
    await page.waitForTimeout(1000);
    out.text = await page.evaluate(() => document.body.innerText);
    out.errorLines = await page.evaluate(() => Array.from(document.querySelectorAll('.asl-load-error'))
      .map((e) => e.innerText));
    await page.screenshot({ path: path.join(config.screenshots, 'wrong-file.png') });
  } catch (e) {
    out.error = String(e && e.stack ? e.stack : e);
  } finally {
    await browser.close();
  }
  process.stdout.write(JSON.stringify(out) + '\n');
})();
