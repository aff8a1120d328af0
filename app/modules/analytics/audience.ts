/**
 * How a scan arrived, in the few coarse words the founder reads (decision 67): the device family, the browser, and
 * the app whose built-in browser opened the page. Derived from the user agent at the door; only these labels are
 * kept, never the user agent itself. Pure, so the door, the beacon and the tests agree.
 */

export const DEVICE_FAMILIES = ["iOS", "Android", "Desktop", "Other"] as const;
export type DeviceFamily = (typeof DEVICE_FAMILIES)[number];

/** "In-app" when an app's own browser showed the page (the app is named apart). */
export const BROWSERS = ["Safari", "Chrome", "Firefox", "Samsung Internet", "Edge", "Opera", "DuckDuckGo", "In-app", "Other"] as const;
export type BrowserName = (typeof BROWSERS)[number];

export const IN_APP_BROWSERS = [
  "LinkedIn",
  "WhatsApp",
  "Instagram",
  "Facebook",
  "Messenger",
  "X",
  "Slack",
  "Telegram",
  "WeChat",
  "Snapchat",
  "TikTok",
  "Line",
  "Google app",
  "Pinterest",
  "Discord",
  "Threads",
  "Other app",
] as const;
export type InAppBrowser = (typeof IN_APP_BROWSERS)[number];

export type Audience = { device: DeviceFamily; browser: BrowserName; inApp: InAppBrowser | null };

/**
 * Apps' tokens, most specific first: Instagram and Threads pages also carry Facebook's, and Messenger says `FBAN/`
 * like Facebook. Tokens of link-preview fetchers (`TelegramBot`, `Twitterbot`, `LinkedInBot`) never reach here: the
 * door excludes those loads before it counts anything.
 */
const APP_TOKENS: readonly (readonly [InAppBrowser, RegExp])[] = [
  ["Instagram", /\bInstagram \d/],
  ["Threads", /\bBarcelona \d/],
  ["Messenger", /FBAN\/Messenger|FB_IAB\/MESSENGER|\bOrca-Android\b/],
  ["Facebook", /\bFBAN\/|\bFBAV\/|\bFB_IAB\/|\bFBIOS\b|\[FB/],
  ["LinkedIn", /\bLinkedInApp\b/],
  ["WhatsApp", /\bWhatsApp\//],
  ["X", /\bTwitter for iP(?:hone|ad)\b|\bTwitterAndroid\b/],
  ["Slack", /\bSlack\/\d|\bSlack_SSB\//],
  ["Telegram", /\bTelegram-(?:Android|iOS)\//],
  ["WeChat", /\bMicroMessenger\//],
  ["Snapchat", /\bSnapchat\//],
  ["TikTok", /\bmusical_ly_|\bBytedanceWebview\/|\bTikTok \d|\btrill_\d/],
  ["Line", /\bLine\/\d/],
  ["Google app", /\bGSA\/\d/],
  ["Pinterest", /\bPinterest\//],
  ["Discord", /\bDiscord\/\d/],
];

/** An iPhone, iPad or iPod, as its user agent's platform names it. */
export const IOS_DEVICE = /\((?:iPhone|iPad|iPod)\b/;
/** Android's web view marks itself `; wv)`: an app showing the page, whichever app it is. */
const ANDROID_WEB_VIEW = /; wv\)/;

export function classifyAudience(userAgent: string | null | undefined): Audience {
  const agent = userAgent ?? "";
  const device = deviceFamilyOf(agent);
  const inApp = inAppBrowserOf(agent, device);
  return { device, browser: inApp ? "In-app" : browserOf(agent), inApp };
}

function deviceFamilyOf(agent: string): DeviceFamily {
  if (IOS_DEVICE.test(agent)) return "iOS";
  if (/\bAndroid\b/.test(agent)) return "Android";
  if (/\b(?:Windows NT|Macintosh|X11|CrOS)\b/.test(agent)) return "Desktop";
  return "Other";
}

function inAppBrowserOf(agent: string, device: DeviceFamily): InAppBrowser | null {
  for (const [app, token] of APP_TOKENS) if (token.test(agent)) return app;
  if (device === "Android" && ANDROID_WEB_VIEW.test(agent)) return "Other app";
  // Every iOS browser names itself (`Safari/`, `CriOS/`, `FxiOS/`, `EdgiOS/`…); a bare WebKit view is an app's.
  if (device === "iOS" && /AppleWebKit\//.test(agent) && !/\bSafari\//.test(agent)) return "Other app";
  return null;
}

function browserOf(agent: string): BrowserName {
  if (/\bEdg(?:e|A|iOS)?\//.test(agent)) return "Edge";
  if (/\bSamsungBrowser\//.test(agent)) return "Samsung Internet";
  if (/\b(?:OPR|OPiOS|OPT)\/|\bOpera\b/.test(agent)) return "Opera";
  if (/\b(?:DuckDuckGo|Ddg)\/\d/.test(agent)) return "DuckDuckGo";
  if (/\b(?:Firefox|FxiOS)\//.test(agent)) return "Firefox";
  if (/\b(?:CriOS|Chrome|Chromium)\//.test(agent)) return "Chrome";
  if (/\bSafari\//.test(agent) && /\bVersion\//.test(agent)) return "Safari";
  return "Other";
}
