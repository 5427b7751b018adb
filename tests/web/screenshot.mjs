// screenshot.mjs — a PNG of the page in headless Chromium, for docs/img/web.png and for looking.
// Run: node tests/web/screenshot.mjs OUT.png [WIDTH HEIGHT [SCALE ["#hash"]]]    (after make web)
import { launch, openPage, startServer } from "./harness.mjs";

const [out = "web.png", w = "1600", h = "1000", scale = "1", hash = ""] = process.argv.slice(2);
const server = await startServer();
const browser = await launch();
try {
  const { page, errors } = await openPage(browser, server.url + hash, { width: Number(w), height: Number(h), scale: Number(scale) });
  await page.waitForTimeout(300);   // a few more frames: hover states and fonts settle
  await page.screenshot({ path: out });
  if (errors.length) console.error("page errors:", errors);
  console.log(`${out}: ${w}x${h} at ${scale}x`);
} finally {
  await browser.close();
  await server.close();
}
