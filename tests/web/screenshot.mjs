// screenshot.mjs — a PNG of the page in headless Chromium, for docs/img/web.png and for looking.
// Run: node tests/web/screenshot.mjs OUT.png [WIDTH HEIGHT [SCALE ["#hash" [PASTE_FILE [SCROLL]]]]]    (after make web)
// PASTE_FILE: a report or compiler log pasted on the page first (the Advisor tab opens with it); a
// binary or a .zip (or several files, comma-separated) is dropped on the page as files instead;
// SCROLL: mouse-wheel steps down over the page before the shot.
import { readFileSync } from "node:fs";

import { launch, openPage, startServer } from "./harness.mjs";

const [out = "web.png", w = "1600", h = "1000", scale = "1", hash = "", paste = "", scroll = "0"] = process.argv.slice(2);
const server = await startServer();
const browser = await launch();
try {
  const { page, errors } = await openPage(browser, server.url + hash, { width: Number(w), height: Number(h), scale: Number(scale) });
  const paths = paste ? paste.split(",") : [];
  const binary = (f) => /\.(cubin|fatbin|o|so|zip|json)$/.test(f) || readFileSync(f).subarray(0, 4).toString("latin1") === "\x7fELF";
  if (paths.some(binary)) {
    await page.evaluate((fs) => {
      const dt = new DataTransfer();
      for (const f of fs) dt.items.add(new File([new Uint8Array(f.bytes)], f.name));
      document.querySelector("#canvas").dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, paths.map((f) => ({ name: f.split("/").pop(), bytes: Array.from(readFileSync(f)) })));
    await page.waitForFunction(() => occ.dropped !== undefined, null, { timeout: 10000 });
    await page.waitForTimeout(300);
  } else if (paste) {
    await page.evaluate((t) => {
      const dt = new DataTransfer();
      dt.setData("text/plain", t);
      document.querySelector("#canvas").dispatchEvent(new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true }));
    }, readFileSync(paste, "utf8"));
    await page.waitForTimeout(300);
  }
  if (Number(scroll) > 0) {
    await page.mouse.move(Number(w) / 2, Number(h) / 2);
    for (let i = 0; i < Number(scroll); i++) await page.mouse.wheel(0, 120);
  }
  await page.waitForTimeout(300);   // a few more frames: hover states and fonts settle
  await page.screenshot({ path: out });
  if (errors.length) console.error("page errors:", errors);
  console.log(`${out}: ${w}x${h} at ${scale}x`);
} finally {
  await browser.close();
  await server.close();
}
