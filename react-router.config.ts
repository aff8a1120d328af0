import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // React Router 8's behaviour, adopted now (decision 00XX): loaders read `context` from a RouterContextProvider
  // (server/app.ts), and read the page address from `url`, not `request.url` (which keeps `.data` suffixes).
  future: {
    v8_middleware: true,
    v8_splitRouteModules: true,
    v8_viteEnvironmentApi: true,
    v8_passThroughRequests: true,
    v8_trailingSlashAwareDataRequests: true,
  },
} satisfies Config;
