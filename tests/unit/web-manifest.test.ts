import { describe, expect, it } from "vitest";
import { pitchManifest, pitchManifestPath, shortName, siteManifest, workspaceManifest } from "~/modules/icons/web-manifest";

describe("web app manifest", () => {
  it("names the product, opens standalone at /, with 192 and 512 icons for any and maskable use", () => {
    const manifest = siteManifest();
    expect(manifest).toMatchObject({ name: "PitchQR", short_name: "PitchQR", start_url: "/", scope: "/", display: "standalone", theme_color: "#4f46e5" });
    expect(manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose}`)).toEqual(["192x192 any", "512x512 any", "192x192 maskable", "512x512 maskable"]);
  });

  it("a pitch page installs under its project's title and opens itself", () => {
    const manifest = pitchManifest({ slug: "harbor cold", title: "Harbor Cold Chain", oneLiner: "Solar fridges" });
    expect(manifest).toMatchObject({
      id: "/pitch/harbor%20cold",
      name: "Harbor Cold Chain",
      short_name: "Harbor Cold",
      description: "Solar fridges",
      start_url: "/pitch/harbor%20cold",
      scope: "/pitch/harbor%20cold",
    });
    expect(pitchManifestPath("harbor")).toBe("/pitch/harbor/manifest.webmanifest");
  });

  it("the founder workspace installs as an app of its own that opens on the founder's projects", () => {
    expect(workspaceManifest()).toMatchObject({ id: "/my-projects", name: "PitchQR Leads", start_url: "/my-projects", scope: "/", display: "standalone" });
  });

  it("short names fit a home screen: whole words within 12 characters, else a cut", () => {
    expect(shortName("Harbor")).toBe("Harbor");
    expect(shortName("  Harbor   Cold Chain ")).toBe("Harbor Cold");
    expect(shortName("Supercalifragilistic")).toBe("Supercalifra");
    expect(shortName("Exactly12chr")).toBe("Exactly12chr");
  });
});
