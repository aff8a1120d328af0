// Takes phone and desktop screenshots of app pages: `run with
//   node scripts/screenshot.js http://localhost:3000 / /auth ...
// Pictures land in tmp/screenshots/ (ignored by git). For founder pages, sign in first with
//   SCREENSHOT_SIGN_IN=founder@example.com:password node scripts/screenshot.js ...
import fs from "node:fs";
import path from "node:path";
import { DESKTOP, launchBrowser, PHONE } from "../tests/support/chromium.js";

const [base, ...paths] = process.argv.slice(2);
if (!base || paths.length === 0) {
  console.error("usage: screenshot.js BASE_URL PATH [PATH...]");
  process.exit(2);
}
const outDir = path.resolve("tmp/screenshots");
fs.mkdirSync(outDir, { recursive: true });
const browser = await launchBrowser();
for (const [name, viewport] of [["phone", PHONE], ["desktop", DESKTOP]]) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
  const page = await context.newPage();
  if (process.env.SCREENSHOT_SIGN_IN) {
    const [email, ...password] = process.env.SCREENSHOT_SIGN_IN.split(":");
    await page.goto(new URL("/auth", base).toString());
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password.join(":"));
    await page.getByRole("button", { name: "Sign In", exact: true }).last().click();
    await page.waitForURL((url) => url.pathname !== "/auth");
  }
  for (const p of paths) {
    await page.goto(new URL(p, base).toString(), { waitUntil: "networkidle" });
    const file = path.join(outDir, `${name}${p.replace(/[^a-z0-9]+/gi, "_")}.png`);
    await page.screenshot({ path: file, fullPage: true });
    console.log(file);
  }
  await context.close();
}
await browser.close();
