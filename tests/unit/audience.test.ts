import { describe, expect, it } from "vitest";
import { BROWSERS, classifyAudience, DEVICE_FAMILIES, IN_APP_BROWSERS } from "~/modules/analytics/audience";
import { USER_AGENTS } from "../support/user-agents";

describe("how a scan arrived, from its user agent", () => {
  it.each(USER_AGENTS.map((entry) => [entry.name, entry] as const))("%s", (_name, { userAgent, audience }) => {
    expect(classifyAudience(userAgent)).toEqual(audience);
  });

  it("covers every device family on phones and computers and the common in-app browsers", () => {
    expect(USER_AGENTS.length).toBeGreaterThanOrEqual(30);
    const apps = new Set(USER_AGENTS.map((entry) => entry.audience.inApp));
    for (const app of ["LinkedIn", "WhatsApp", "Instagram", "Facebook", "X", "Slack", "Telegram", "WeChat", "Snapchat", "TikTok", "Line", "Google app"]) {
      expect(apps, app).toContain(app);
    }
  });

  it("says Other for what it cannot tell, and nothing beyond its coarse labels", () => {
    expect(classifyAudience(undefined)).toEqual({ device: "Other", browser: "Other", inApp: null });
    expect(classifyAudience("curl/8.4.0")).toEqual({ device: "Other", browser: "Other", inApp: null });
    for (const { userAgent } of USER_AGENTS) {
      const { device, browser, inApp } = classifyAudience(userAgent);
      expect(DEVICE_FAMILIES).toContain(device);
      expect(BROWSERS).toContain(browser);
      if (inApp) expect(IN_APP_BROWSERS).toContain(inApp);
    }
  });
});
