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
    // Photos are lazy; scroll them into view and wait until both have decoded.
    await page.locator("figure img").last().scrollIntoViewIfNeeded();
    await page.waitForFunction(() => [...document.images].every((img) => img.complete && img.naturalWidth > 0), null, {
      timeout: 10_000,
    });
    const widths = await page
      .locator("figure img")
      .evaluateAll((imgs) => imgs.map((img) => (img as HTMLImageElement).naturalWidth));
    check(
      widths.length === 2 && widths.every((w) => w > 0),
      `${viewport.name}: both photos load (${widths.join(", ")} px wide)`,
    );
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
  check(box !== null && box.width > 100 && box.height === 40, `badge renders (${box?.width}×${box?.height})`);
  await badge.screenshot({ path: join(outDir, "badge.png") });
} finally {
  await browser.close();
}
process.exit(failed ? 1 : 0);
