// `node scripts/browser-check.ts <base URL> <certificate number> [out dir]`: opens the public
// certificate page in headless Chromium (Debian's package, driven by playwright-core) the way a
// collector would, at phone and desktop widths; checks that the grade, card and both photos show
// and that the badge renders; saves screenshots. Exits non-zero on the first failed check.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";

const [base = "http://localhost:4000", number, outDir = ".wrangler/e2e"] = process.argv.slice(2);
if (!number) {
  console.error("Usage: node scripts/browser-check.ts <base URL> <certificate number> [out dir]");
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  // The flags keep Chromium from reaching out to the network on a closed machine.
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});
let failed = false;
const check = (ok: boolean, what: string) => {
  console.log(`${ok ? "ok  " : "FAIL"} browser: ${what}`);
  if (!ok) failed = true;
};
try {
  for (const viewport of [
    { name: "phone", width: 390, height: 844 },
    { name: "desktop", width: 1280, height: 900 },
  ]) {
    const page = await browser.newPage({ viewport });
    const response = await page.goto(`${base}/c/${number}`, { waitUntil: "load" });
    check(response?.status() === 200, `${viewport.name}: /c/${number} answers 200`);
    const overall = (await page.locator(".grade .overall").textContent())?.trim() ?? "";
    check(/^(10|[1-9](\.5)?)$/.test(overall), `${viewport.name}: overall grade shown (${overall})`);
    check((await page.locator(".subgrades div").count()) === 4, `${viewport.name}: four subgrades shown`);
    check(await page.getByText("Centering (front)").isVisible(), `${viewport.name}: centering shown`);
    // The photos: plain <img> or, with the grade's evidence, an <svg> whose <image> is the photo under
    // the drawn outline. Scroll them into view, then load each source as the page would.
    const photos = page.locator("figure img, figure svg.evidence");
    await photos.last().scrollIntoViewIfNeeded();
    const sources = await page
      .locator("figure img, figure svg.evidence image")
      .evaluateAll((elements) =>
        elements.map((el) =>
          el instanceof HTMLImageElement ? el.currentSrc || el.src : (el.getAttribute("href") ?? ""),
        ),
      );
    const widths = await page.evaluate(
      (urls) =>
        Promise.all(
          urls.map(
            (url) =>
              new Promise<number>((resolve) => {
                const image = new Image();
                image.onload = () => resolve(image.naturalWidth);
                image.onerror = () => resolve(0);
                image.src = url;
              }),
          ),
        ),
      sources,
    );
    const boxes = await photos.evaluateAll((elements) => elements.map((el) => el.getBoundingClientRect().width));
    check(
      widths.length === 2 && widths.every((w) => w > 0) && boxes.every((w) => w > 0),
      `${viewport.name}: both photos load (${widths.join(", ")} px wide, shown ${boxes.map(Math.round).join(", ")} px)`,
    );
    const jws = (await page.locator("#verify textarea.jws").inputValue()).trim();
    check(jws.split(".").length === 3, `${viewport.name}: the signed attestation is shown (${jws.length} characters)`);
    const qr = await page.locator("#verify svg.qr").boundingBox();
    check(qr !== null && qr.width >= 100, `${viewport.name}: the QR code renders (${qr?.width} px)`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    check(overflow <= 0, `${viewport.name}: no horizontal scrolling (overflow ${overflow} px)`);
    await page.evaluate(() => window.scrollTo(0, 0));
    const file = join(outDir, `certificate-${viewport.name}.png`);
    await page.screenshot({ path: file, fullPage: true });
    console.log(`     screenshot: ${file}`);
    await page.close();
  }
  const badge = await browser.newPage();
  const response = await badge.goto(`${base}/c/${number}/badge.svg`);
  check(response?.headers()["content-type"] === "image/svg+xml", "badge.svg is an SVG");
  const box = await badge.locator("svg").boundingBox();
  check(box !== null && box.width > 100 && box.height === 72, `badge renders (${box?.width}×${box?.height})`);
  await badge.screenshot({ path: join(outDir, "badge.png") });
} finally {
  await browser.close();
}
process.exit(failed ? 1 : 0);
