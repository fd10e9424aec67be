// What the browser checks read off a FireWidget page (shared by check_widget.js and check_units.js).

// The widget's current zoom and pan (from the zoom label's data attributes) and canvas size.
async function view(page) {
  return page.evaluate(() => {
    const el = document.querySelector('.asl-zoom span[data-scale]');
    if (!el) return null;
    const [px, py] = el.dataset.pan.split(',').map(Number);
    const [w, h] = el.dataset.view.split(',').map(Number);
    return { scale: Number(el.dataset.scale), px, py, w, h };
  });
}

// Wait until the widget has sized its canvas to the page (the view stops changing).
async function settle(page) {
  await page.waitForSelector('.asl-zoom span[data-scale]', { timeout: 60000 });
  let last = '';
  const deadline = Date.now() + 20000;
  for (;;) {
    await page.waitForTimeout(800);
    const now = JSON.stringify(await view(page));
    if (now === last || Date.now() > deadline) return JSON.parse(now);
    last = now;
  }
}

module.exports = { view, settle };
