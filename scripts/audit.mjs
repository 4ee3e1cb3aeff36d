// Lighthouse on pages of a running server, each loaded cold (empty cache) and then warm (the
// same page again, cache kept), with Lighthouse's default mobile settings (an emulated
// mid-range phone on simulated slow 4G). Run by scripts/audit.sh (make audit).
//
//   node scripts/audit.mjs BASE_URL SESSION_COOKIE PATH... > results.json
//
// Prints one JSON line per page and load: performance score, LCP, requests and bytes
// transferred (headers and compressed bodies, as Lighthouse's network-requests audit counts
// them); each full report goes to $AUDIT_DIR/<page>-<cold|warm>.html when AUDIT_DIR is set.
import { writeFileSync } from "node:fs";
import { startFlow, generateReport } from "lighthouse";
import puppeteer from "puppeteer-core";

const [base, cookie, ...paths] = process.argv.slice(2);
if (!base || !cookie || paths.length === 0 || !process.env.CHROME_PATH) {
  console.error("usage: CHROME_PATH=... node scripts/audit.mjs BASE_URL NAME=VALUE PATH...");
  process.exit(2);
}
const browser = await puppeteer.launch({
  executablePath: process.env.CHROME_PATH,
  headless: true,
  args: ["--no-sandbox", "--disable-dev-shm-usage"],
});
try {
  const page = await browser.newPage();
  const eq = cookie.indexOf("=");
  await page.setCookie({ name: cookie.slice(0, eq), value: cookie.slice(eq + 1), url: base });
  for (const path of paths) {
    const flow = await startFlow(page, { config: { extends: "lighthouse:default", settings: { onlyCategories: ["performance"] } } });
    await flow.navigate(base + path, { name: "cold" });
    await flow.navigate(base + path, { name: "warm" }); // a later navigation keeps the cache
    const result = await flow.createFlowResult();
    result.steps.forEach((step, i) => {
      const lhr = step.lhr;
      const requests = lhr.audits["network-requests"].details.items.filter((r) => !r.url.startsWith("data:"));
      const load = i === 0 ? "cold" : "warm";
      console.log(
        JSON.stringify({
          path,
          load,
          final_url: lhr.finalDisplayedUrl,
          score: Math.round(lhr.categories.performance.score * 100),
          lcp_ms: Math.round(lhr.audits["largest-contentful-paint"].numericValue),
          fcp_ms: Math.round(lhr.audits["first-contentful-paint"].numericValue),
          requests: requests.length,
          // Answers served from the cache count no bytes.
          transferred_bytes: requests.reduce((sum, r) => sum + (r.transferSize || 0), 0),
          from_network: requests.filter((r) => (r.transferSize || 0) > 0).length,
        }),
      );
      if (process.env.AUDIT_DIR) {
        const name = path.replace(/[^a-z0-9]+/gi, "_").replace(/^_|_$/g, "") || "root";
        writeFileSync(`${process.env.AUDIT_DIR}/${name}-${load}.html`, generateReport(lhr, "html"));
      }
    });
  }
} finally {
  await browser.close();
}
