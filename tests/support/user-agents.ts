import type { Audience } from "~/modules/analytics/audience";

/**
 * Real user agents of phones and computers opening a link: browsers of their own and the browsers built into apps
 * (decision 67), with how each is counted. Shared by the classifier's unit tests and the door's integration tests.
 */
export const USER_AGENTS: readonly { name: string; userAgent: string; audience: Audience }[] = [
  {
    name: "iPhone Safari (the camera app's QR link)",
    userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1.2 Mobile/15E148 Safari/604.1",
    audience: { device: "iOS", browser: "Safari", inApp: null },
  },
  {
    name: "iPad Safari",
    userAgent: "Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1",
    audience: { device: "iOS", browser: "Safari", inApp: null },
  },
  {
    name: "iPhone Chrome (CriOS)",
    userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/120.0.6099.119 Mobile/15E148 Safari/604.1",
    audience: { device: "iOS", browser: "Chrome", inApp: null },
  },
  {
    name: "iPhone Firefox (FxiOS)",
    userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/121.0 Mobile/15E148 Safari/605.1.15",
    audience: { device: "iOS", browser: "Firefox", inApp: null },
  },
  {
    name: "iPhone Edge (EdgiOS)",
    userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 EdgiOS/120.0.2210.116 Mobile/15E148 Safari/605.1.15",
    audience: { device: "iOS", browser: "Edge", inApp: null },
  },
  {
    name: "Android Chrome (reduced user agent)",
    userAgent: "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.144 Mobile Safari/537.36",
    audience: { device: "Android", browser: "Chrome", inApp: null },
  },
  {
    name: "Pixel Chrome",
    userAgent: "Mozilla/5.0 (Linux; Android 14; Pixel 8 Pro) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.6045.163 Mobile Safari/537.36",
    audience: { device: "Android", browser: "Chrome", inApp: null },
  },
  {
    name: "Samsung Internet",
    userAgent: "Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/23.0 Chrome/115.0.0.0 Mobile Safari/537.36",
    audience: { device: "Android", browser: "Samsung Internet", inApp: null },
  },
  {
    name: "Android Firefox",
    userAgent: "Mozilla/5.0 (Android 14; Mobile; rv:121.0) Gecko/121.0 Firefox/121.0",
    audience: { device: "Android", browser: "Firefox", inApp: null },
  },
  {
    name: "Android Edge (EdgA)",
    userAgent: "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36 EdgA/120.0.2210.115",
    audience: { device: "Android", browser: "Edge", inApp: null },
  },
  {
    name: "Android Opera",
    userAgent: "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.0.0 Mobile Safari/537.36 OPR/79.5.4195.76826",
    audience: { device: "Android", browser: "Opera", inApp: null },
  },
  {
    name: "Android DuckDuckGo",
    userAgent: "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/120.0.6099.144 Mobile DuckDuckGo/5 Safari/537.36",
    audience: { device: "Android", browser: "DuckDuckGo", inApp: null },
  },
  {
    name: "Windows Chrome",
    userAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
    audience: { device: "Desktop", browser: "Chrome", inApp: null },
  },
  {
    name: "Mac Safari",
    userAgent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Safari/605.1.15",
    audience: { device: "Desktop", browser: "Safari", inApp: null },
  },
  {
    name: "Mac Chrome",
    userAgent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
    audience: { device: "Desktop", browser: "Chrome", inApp: null },
  },
  {
    name: "Windows Firefox",
    userAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0",
    audience: { device: "Desktop", browser: "Firefox", inApp: null },
  },
  {
    name: "Linux Firefox",
    userAgent: "Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0",
    audience: { device: "Desktop", browser: "Firefox", inApp: null },
  },
  {
    name: "Windows Edge",
    userAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.2210.91",
    audience: { device: "Desktop", browser: "Edge", inApp: null },
  },
  {
    name: "Chromebook Chrome",
    userAgent: "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
    audience: { device: "Desktop", browser: "Chrome", inApp: null },
  },
  {
    name: "LinkedIn on iPhone",
    userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [LinkedInApp]/9.29.2490",
    audience: { device: "iOS", browser: "In-app", inApp: "LinkedIn" },
  },
  {
    name: "LinkedIn on Android",
    userAgent: "Mozilla/5.0 (Linux; Android 13; Pixel 7 Build/TQ3A.230901.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/118.0.0.0 Mobile Safari/537.36 [LinkedInApp]/4.1.880",
    audience: { device: "Android", browser: "In-app", inApp: "LinkedIn" },
  },
  {
    name: "Instagram on iPhone",
    userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 307.0.0.34.111 (iPhone15,2; iOS 17_1; en_US; en; scale=3.00; 1179x2556; 531178657)",
    audience: { device: "iOS", browser: "In-app", inApp: "Instagram" },
  },
  {
    name: "Instagram on Android",
    userAgent: "Mozilla/5.0 (Linux; Android 13; SM-A536B Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/119.0.6045.163 Mobile Safari/537.36 Instagram 309.1.0.41.113 Android (33/13; 450dpi; 1080x2177; samsung; SM-A536B; a53x; s5e8825; en_GB; 541635863)",
    audience: { device: "Android", browser: "In-app", inApp: "Instagram" },
  },
  {
    name: "Facebook on iPhone (FBAN/FBIOS)",
    userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/436.0.0.36.111;FBBV/535372412;FBDV/iPhone14,5;FBMD/iPhone;FBSN/iOS;FBSV/17.0;FBSS/3;FBID/phone;FBLC/en_US;FBOP/5]",
    audience: { device: "iOS", browser: "In-app", inApp: "Facebook" },
  },
  {
    name: "Facebook on Android (FB_IAB/FB4A;FBAV)",
    userAgent: "Mozilla/5.0 (Linux; Android 13; SM-G991B Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/119.0.6045.163 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/442.0.0.33.113;]",
    audience: { device: "Android", browser: "In-app", inApp: "Facebook" },
  },
  {
    name: "Messenger on iPhone",
    userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/MessengerForiOS;FBAV/436.0.0.40.108;FBBV/532734823;FBDV/iPhone13,2;FBMD/iPhone;FBSN/iOS;FBSV/16.6;FBSS/3;FBCR/;FBID/phone;FBLC/en_GB;FBOP/5]",
    audience: { device: "iOS", browser: "In-app", inApp: "Messenger" },
  },
  {
    name: "WhatsApp on Android",
    userAgent: "Mozilla/5.0 (Linux; Android 13; SM-S911B Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/119.0.6045.163 Mobile Safari/537.36 WhatsApp/2.23.24.76",
    audience: { device: "Android", browser: "In-app", inApp: "WhatsApp" },
  },
  {
    name: "X on iPhone",
    userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Twitter for iPhone/10.16",
    audience: { device: "iOS", browser: "In-app", inApp: "X" },
  },
  {
    name: "X on Android",
    userAgent: "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.43 Mobile Safari/537.36 TwitterAndroid",
    audience: { device: "Android", browser: "In-app", inApp: "X" },
  },
  {
    name: "Slack desktop app",
    userAgent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Slack/4.35.131 Chrome/118.0.5993.159 Electron/27.1.0 Safari/537.36 Slack_SSB/4.35.131",
    audience: { device: "Desktop", browser: "In-app", inApp: "Slack" },
  },
  {
    name: "Telegram on Android",
    userAgent: "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36 Telegram-Android/10.5.0 (Samsung SM-A515F; Android 13; SDK 33; AVERAGE)",
    audience: { device: "Android", browser: "In-app", inApp: "Telegram" },
  },
  {
    name: "WeChat on iPhone (MicroMessenger)",
    userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.44(0x18002c2a) NetType/WIFI Language/zh_CN",
    audience: { device: "iOS", browser: "In-app", inApp: "WeChat" },
  },
  {
    name: "WeChat on Android",
    userAgent: "Mozilla/5.0 (Linux; Android 13; V2203A Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/107.0.5304.141 Mobile Safari/537.36 XWEB/5023 MMWEBSDK/20230805 MMWEBID/1230 MicroMessenger/8.0.42.2460(0x28002A3B) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN ABI/arm64",
    audience: { device: "Android", browser: "In-app", inApp: "WeChat" },
  },
  {
    name: "Snapchat on iPhone",
    userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Snapchat/12.55.0.37 (like Safari/8615.3.12.10.5, panda)",
    audience: { device: "iOS", browser: "In-app", inApp: "Snapchat" },
  },
  {
    name: "TikTok on Android",
    userAgent: "Mozilla/5.0 (Linux; Android 12; SM-G991B Build/SP1A.210812.016; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/119.0.6045.66 Mobile Safari/537.36 trill_320104 JsSdk/1.0 NetType/WIFI Channel/googleplay AppName/musical_ly app_version/32.1.4 ByteLocale/en ByteFullLocale/en Region/US AppId/1233 Spark/1.4.5.1-bugfix AppVersion/32.1.4 BytedanceWebview/d8a21c6",
    audience: { device: "Android", browser: "In-app", inApp: "TikTok" },
  },
  {
    name: "TikTok on iPhone",
    userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 musical_ly_32.5.0 JsSdk/2.0 NetType/WIFI Channel/App Store ByteLocale/en Region/US RevealType/Dialog isDarkMode/0 WKWebView/1 BytedanceWebview/d8a21c6 FalconTag/",
    audience: { device: "iOS", browser: "In-app", inApp: "TikTok" },
  },
  {
    name: "Line on iPhone",
    userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Safari Line/13.21.0",
    audience: { device: "iOS", browser: "In-app", inApp: "Line" },
  },
  {
    name: "Google app on iPhone (GSA)",
    userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) GSA/309.0.616685607 Mobile/15E148 Safari/604.1",
    audience: { device: "iOS", browser: "In-app", inApp: "Google app" },
  },
  {
    name: "Google app on Android (GSA)",
    userAgent: "Mozilla/5.0 (Linux; Android 14; Pixel 7 Build/UQ1A.231205.015; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/120.0.6099.144 Mobile Safari/537.36 GSA/14.50.15.29.arm64",
    audience: { device: "Android", browser: "In-app", inApp: "Google app" },
  },
  {
    name: "Pinterest on iPhone",
    userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [Pinterest/iOS]",
    audience: { device: "iOS", browser: "In-app", inApp: "Pinterest" },
  },
  {
    name: "A QR scanner app's own web view on Android",
    userAgent: "Mozilla/5.0 (Linux; Android 12; M2101K6G Build/SKQ1.210908.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/119.0.6045.163 Mobile Safari/537.36",
    audience: { device: "Android", browser: "In-app", inApp: "Other app" },
  },
  {
    name: "An app's own web view on iPhone",
    userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
    audience: { device: "iOS", browser: "In-app", inApp: "Other app" },
  },
];
