import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // React Router 8's behaviour, adopted now (decision 21): loaders read `context` from a RouterContextProvider
  // (server/app.ts) and the page address from `url`. Pass-through requests are held back (explicitly off):
  // with them, creating a second QR code on the edit screen did not refresh the list (founder-journey e2e).
  future: {
    v8_middleware: true,
    v8_splitRouteModules: true,
    v8_viteEnvironmentApi: true,
    v8_passThroughRequests: false,
    v8_trailingSlashAwareDataRequests: true,
  },
} satisfies Config;
