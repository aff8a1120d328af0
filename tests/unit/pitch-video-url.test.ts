import { describe, expect, it } from "vitest";
import { parseVideoUrl } from "~/components/pitch/video-url";

const embed = (raw: string) => {
  const source = parseVideoUrl(raw);
  return source?.kind === "embed" ? `${source.provider} ${source.embedUrl}` : source;
};

describe("parseVideoUrl", () => {
  it("embeds YouTube watch, short, shorts and embed links through youtube-nocookie", () => {
    const expected = "YouTube https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1";
    expect(embed("https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=10")).toBe(expected);
    expect(embed("https://m.youtube.com/watch?v=dQw4w9WgXcQ")).toBe(expected);
    expect(embed("https://youtu.be/dQw4w9WgXcQ?si=abc")).toBe(expected);
    expect(embed("https://youtube.com/shorts/dQw4w9WgXcQ")).toBe(expected);
    expect(embed("https://www.youtube.com/embed/dQw4w9WgXcQ")).toBe(expected);
  });

  it("embeds Vimeo, keeping the hash of an unlisted video", () => {
    expect(embed("https://vimeo.com/76979871")).toBe("Vimeo https://player.vimeo.com/video/76979871?autoplay=1");
    expect(embed("https://vimeo.com/76979871/abc123ef")).toBe("Vimeo https://player.vimeo.com/video/76979871?autoplay=1&h=abc123ef");
  });

  it("embeds Loom share links", () => {
    expect(embed("https://www.loom.com/share/0123456789abcdef0123456789abcdef")).toBe(
      "Loom https://www.loom.com/embed/0123456789abcdef0123456789abcdef",
    );
  });

  it("links other http(s) videos and drops everything else", () => {
    expect(parseVideoUrl("https://example.com/demo.mp4")).toEqual({ kind: "link", url: "https://example.com/demo.mp4" });
    expect(parseVideoUrl("https://www.youtube.com/channel/xyz")).toEqual({ kind: "link", url: "https://www.youtube.com/channel/xyz" });
    expect(parseVideoUrl("javascript:alert(1)")).toBeNull();
    expect(parseVideoUrl("not a url")).toBeNull();
    expect(parseVideoUrl(null)).toBeNull();
    expect(parseVideoUrl("")).toBeNull();
  });
});
