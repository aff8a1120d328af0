import { z } from "zod/mini";

/** The operator's settings a founder screen may warn about: mail that reaches nobody, QR codes phones cannot open. */
export const OPERATOR_WARNING_KINDS = ["mail", "qr-address"] as const;
export type OperatorWarningKind = (typeof OPERATOR_WARNING_KINDS)[number];

export type OperatorWarning = { kind: OperatorWarningKind; title: string; message: string };
/** One banner per screen: its warnings, and the screen's own address for the Dismiss form to return to. */
export type OperatorBanner = { warnings: OperatorWarning[]; returnTo: string };

/** The Dismiss form: which warnings it hides, and the screen to go back to. */
export const dismissBannerSchema = z.object({
  kinds: z.array(z.enum(OPERATOR_WARNING_KINDS, "Choose which warning to dismiss")).check(z.minLength(1, "Choose which warning to dismiss")),
  returnTo: z.string(),
});
export type DismissBannerInput = z.infer<typeof dismissBannerSchema>;
