import { useRouteLoaderData } from "react-router";
import { DEFAULT_OPERATOR_SETTINGS, type OperatorSettings } from "~/modules/operator/operator-settings";
import type { loader as rootLoader } from "~/root";

/** The operator's public facts as the server's configuration set them (sent by the root loader). */
export function useOperatorSettings(): OperatorSettings {
  // The root loader always runs; the defaults only cover an error page rendered without its data.
  return useRouteLoaderData<typeof rootLoader>("root")?.operator ?? DEFAULT_OPERATOR_SETTINGS;
}
