/**
 * Which player a project's video URL gets: YouTube, Vimeo and Loom links become an
 * embedded player loaded on demand; any other http(s) URL is a plain link; anything else is not shown.
 */
export type VideoSource =
  | { kind: "embed"; provider: "YouTube" | "Vimeo" | "Loom"; embedUrl: string; watchUrl: string }
  | { kind: "link"; url: string }
  | null;

const YOUTUBE_ID = /^[\w-]{6,20}$/;
const LOOM_ID = /^[\da-zA-Z]{10,64}$/;

export function parseVideoUrl(raw: string | null | undefined): VideoSource {
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;

  const host = url.hostname.toLowerCase().replace(/^(www\.|m\.)/, "");
  const segments = url.pathname.split("/").filter(Boolean);

  if (host === "youtube.com" || host === "youtube-nocookie.com" || host === "youtu.be" || host === "music.youtube.com") {
    let id: string | null | undefined = null;
    if (host === "youtu.be") id = segments[0];
    else if (segments[0] === "watch") id = url.searchParams.get("v");
    else if (segments[0] === "shorts" || segments[0] === "embed" || segments[0] === "live") id = segments[1];
    if (id && YOUTUBE_ID.test(id)) {
      return { kind: "embed", provider: "YouTube", embedUrl: `https://www.youtube-nocookie.com/embed/${id}?autoplay=1`, watchUrl: url.toString() };
    }
  }

  if (host === "vimeo.com" || host === "player.vimeo.com") {
    // vimeo.com/{id}, vimeo.com/{id}/{hash} (unlisted), player.vimeo.com/video/{id}?h={hash}
    const rest = host === "player.vimeo.com" && segments[0] === "video" ? segments.slice(1) : segments;
    const id = rest[0];
    if (id && /^\d+$/.test(id)) {
      const hash = rest[1] && /^[\da-f]+$/i.test(rest[1]) ? rest[1] : url.searchParams.get("h");
      const privacy = hash && /^[\da-f]+$/i.test(hash) ? `&h=${hash}` : "";
      return { kind: "embed", provider: "Vimeo", embedUrl: `https://player.vimeo.com/video/${id}?autoplay=1${privacy}`, watchUrl: url.toString() };
    }
  }

  if (host === "loom.com" && (segments[0] === "share" || segments[0] === "embed")) {
    const id = segments[1];
    if (id && LOOM_ID.test(id)) return { kind: "embed", provider: "Loom", embedUrl: `https://www.loom.com/embed/${id}`, watchUrl: url.toString() };
  }

  return { kind: "link", url: url.toString() };
}
